/** Settings → Observability and "send this session's trace" (otel/service.ts). */
import type { RequestParams, RequestResult } from "../../../shared/api";
import type { OtelService } from "../otel/service";
import { ApiFailure, type HandlerTable } from "./dispatch";

export type OtelMethod = "otel.get" | "otel.update" | "otel.exportSession";

export function createOtelHandlers(otel: OtelService): Pick<HandlerTable, OtelMethod> {
  return {
    "otel.get": (): RequestResult<"otel.get"> => otel.status(),
    "otel.update": async (p: RequestParams<"otel.update">): Promise<RequestResult<"otel.update">> => {
      try {
        return await otel.update(p);
      } catch (e) {
        throw new ApiFailure("UNSUPPORTED", e instanceof Error ? e.message : String(e));
      }
    },
    "otel.exportSession": async (p: RequestParams<"otel.exportSession">): Promise<RequestResult<"otel.exportSession">> => {
      try {
        return { spans: await otel.exportSession(p.sessionId, p.target) };
      } catch (e) {
        throw new ApiFailure("UNAVAILABLE", e instanceof Error ? e.message : String(e));
      }
    },
  };
}
