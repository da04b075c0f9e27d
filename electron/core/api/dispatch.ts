/**
 * Parses every request with its zod schema and turns every failure into a
 * typed ApiError. Never throws.
 */
import { requests, type ApiError, type ApiResponse, type RequestMethod, type RequestResult } from "../../../shared/api";
import { isStorageFailure, isStoreError } from "../store";
import { TeamError } from "../team/errors";
import { ApiFailure } from "./errors";

export type HandlerTable = {
  [M in RequestMethod]: (params: never) => Promise<RequestResult<M>> | RequestResult<M>;
};
/** Handlers of the review methods, which live in electron/core/review. */
export type ReviewMethod = Extract<RequestMethod, `review.${string}`>;
/** Handlers of checkpoints and rewind, which live in electron/core/checkpoints. */
export type CheckpointMethod = Extract<RequestMethod, `checkpoint.${string}` | `rewind.${string}`>;
/** Handlers of the team library, which live in electron/core/api/team-handlers.ts. */
export type TeamMethod = Extract<RequestMethod, `team.${string}`>;
export type CoreHandlerTable = Omit<HandlerTable, ReviewMethod | CheckpointMethod | TeamMethod>;

export { ApiFailure } from "./errors";

function isMethod(method: string): method is RequestMethod {
  return Object.prototype.hasOwnProperty.call(requests, method);
}

export async function dispatch(table: Partial<HandlerTable>, method: string, params: unknown): Promise<ApiResponse<unknown>> {
  if (!isMethod(method))
    return { ok: false, error: { code: "UNKNOWN_METHOD", message: `unknown method: ${String(method).slice(0, 100)}` } };
  const parsed = requests[method].params.safeParse(params ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      error: {
        code: "INVALID_REQUEST",
        message: `invalid parameters for ${method}`,
        issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      },
    };
  }
  try {
    const handler = table[method] as ((p: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, error: { code: "UNSUPPORTED", message: `${method} is not available in this build` } };
    return { ok: true, result: await handler(parsed.data) };
  } catch (err) {
    return { ok: false, error: toApiError(err) };
  }
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiFailure) return { code: err.code, message: err.message };
  if (err instanceof TeamError) return { code: err.code, message: err.message };
  if (isStoreError(err)) {
    const code =
      err.code === "NOT_FOUND"
        ? "NOT_FOUND"
        : err.code === "INVALID_ARGUMENT"
          ? "INVALID_REQUEST"
          : isStorageFailure(err)
            ? "STORAGE"
            : "INTERNAL";
    return { code, message: err.message };
  }
  return { code: "INTERNAL", message: err instanceof Error ? err.message : String(err) };
}
