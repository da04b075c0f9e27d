/**
 * Sends spans over OTLP/HTTP, protobuf or JSON, with the OpenTelemetry JS
 * exporters. Errors name the endpoint and what failed, never a header value
 * (headers carry API keys).
 */
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtlpTarget {
  /** The OTLP base URL (…/v1/traces is added unless the URL already ends with it). */
  endpoint: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  timeoutMs?: number;
}

/** Spans per request: a long session is several requests, each well under collectors' default body limits. */
const BATCH = 512;

/** The traces URL for an OTLP base URL, as OTEL_EXPORTER_OTLP_ENDPOINT is read; null for anything but http(s). */
export function tracesUrl(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.pathname.endsWith("/v1/traces")) url.pathname = `${url.pathname.replace(/\/+$/u, "")}/v1/traces`;
  return url.toString();
}

export class OtlpExportError extends Error {}

export async function exportSpans(spans: readonly ReadableSpan[], target: OtlpTarget): Promise<void> {
  const url = tracesUrl(target.endpoint);
  if (url === null) throw new OtlpExportError(`not an http(s) OTLP endpoint: ${safeUrl(target.endpoint)}`);
  const config = { url, headers: { ...target.headers }, timeoutMillis: target.timeoutMs ?? 10_000 };
  const exporter = target.protocol === "http/json" ? new JsonExporter(config) : new ProtoExporter(config);
  try {
    for (let i = 0; i < spans.length; i += BATCH) {
      const batch = spans.slice(i, i + BATCH);
      const result = await new Promise<{ code: ExportResultCode; error?: Error }>((resolve) => exporter.export(batch, resolve));
      if (result.code !== ExportResultCode.SUCCESS)
        throw new OtlpExportError(
          `OTLP export to ${safeUrl(url)} failed: ${scrub(result.error?.message ?? "unknown error", target.headers)}`,
        );
    }
  } finally {
    await exporter.shutdown().catch(() => undefined);
  }
}

/** The URL without user info or query (either may hold a token). */
function safeUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

function scrub(message: string, headers: Record<string, string>): string {
  let out = message;
  for (const v of Object.values(headers)) if (v.length >= 4) out = out.split(v).join("[REDACTED]");
  return out;
}
