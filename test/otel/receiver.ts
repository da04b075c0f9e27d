/**
 * An OTLP/HTTP receiver for the tests: takes POST /v1/traces in protobuf or
 * JSON and decodes protobuf with the generated opentelemetry-proto classes of
 * @opentelemetry/otlp-proto-exporter-base (protobufjs), never by hand.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

const root = require("@opentelemetry/otlp-proto-exporter-base/build/src/generated/root") as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoType } } } } };
};
interface ProtoType {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
}
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  startMs: number;
  endMs: number;
  resource: Record<string, unknown>;
  scope: { name: string; version?: string; schemaUrl?: string };
}

export interface Received {
  path: string;
  contentType: string;
  headers: IncomingHttpHeaders;
  spans: ReceivedSpan[];
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
const value = (v: AnyValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue ?? v.arrayValue?.values?.map(value)));
const attrs = (list: Array<{ key: string; value: AnyValue }> = []): Record<string, unknown> =>
  Object.fromEntries(list.map((a) => [a.key, value(a.value)]));
const nanosToMs = (n: string | number): number => Number(BigInt(n) / 1_000_000n);

/** OTLP JSON writes ids as hex; protobuf decoded with bytes: "base64" gives base64. */
function toHex(id: string | undefined, fromBase64: boolean): string {
  if (!id) return "";
  return fromBase64 ? Buffer.from(id, "base64").toString("hex") : id;
}

interface RequestShape {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
    scopeSpans?: Array<{
      scope?: { name: string; version?: string };
      schemaUrl?: string;
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        attributes?: Array<{ key: string; value: AnyValue }>;
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

function flatten(req: RequestShape, base64Ids: boolean): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of req.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({
          traceId: toHex(s.traceId, base64Ids),
          spanId: toHex(s.spanId, base64Ids),
          parentSpanId: toHex(s.parentSpanId, base64Ids),
          name: s.name,
          kind: s.kind,
          attributes: attrs(s.attributes),
          status: { code: s.status?.code ?? 0, message: s.status?.message },
          startMs: nanosToMs(s.startTimeUnixNano),
          endMs: nanosToMs(s.endTimeUnixNano),
          resource: attrs(rs.resource?.attributes),
          scope: { name: ss.scope?.name ?? "", version: ss.scope?.version, schemaUrl: ss.schemaUrl },
        });
  return out;
}

export async function startReceiver(): Promise<{ url: string; received: Received[]; spans(): ReceivedSpan[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers["content-type"] ?? "");
      let spans: ReceivedSpan[];
      if (contentType.startsWith("application/x-protobuf")) {
        const decoded = Request.toObject(Request.decode(body), { longs: String, bytes: String, enums: Number, defaults: false });
        spans = flatten(decoded as RequestShape, true);
      } else {
        spans = flatten(JSON.parse(body.toString("utf8")) as RequestShape, false);
      }
      received.push({ path: req.url ?? "", contentType, headers: req.headers, spans });
      res.writeHead(200, {
        "content-type": contentType.startsWith("application/x-protobuf") ? "application/x-protobuf" : "application/json",
      });
      res.end(contentType.startsWith("application/x-protobuf") ? Buffer.alloc(0) : "{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    spans: () => received.flatMap((r) => r.spans),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
