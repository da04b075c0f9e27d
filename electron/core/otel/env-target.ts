/**
 * Where a headless run sends its trace: `--otlp <url>`, else the standard
 * OTEL_EXPORTER_OTLP_* variables (traces-specific ones first), as the
 * OpenTelemetry SDKs read them. Content capture follows
 * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true.
 */
import type { OtlpProtocol } from "./exporter";

export interface EnvTarget {
  endpoint: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  captureContent: boolean;
}

/** `k1=v1,k2=v2`, values URL-encoded (W3C baggage style, as the spec has it); malformed pairs are skipped. */
export function parseOtlpHeaders(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      continue;
    }
    if (/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/u.test(key) && !/[\r\n]/u.test(value)) out[key] = value;
  }
  return out;
}

/** Null when neither the flag nor the variables name an endpoint; throws on a protocol the exporter does not speak. */
export function otlpTargetFrom(flag: string | undefined, env: Record<string, string | undefined>): EnvTarget | null {
  const endpoint = flag ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return null;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  if (protocol !== "http/protobuf" && protocol !== "http/json")
    throw new Error(`OTLP protocol ${protocol} is not supported: use http/protobuf or http/json`);
  return {
    endpoint,
    protocol,
    headers: { ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
    captureContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT === "true",
  };
}
