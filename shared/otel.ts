/** OpenTelemetry export settings and requests (docs/observability.md). */
import { z } from "zod";

export const OtlpProtocolSchema = z.enum(["http/protobuf", "http/json"]);

export const OtelConfigSchema = z.object({
  /** OTLP/HTTP base URL (…/v1/traces is added); null: export off. */
  endpoint: z.string().url().max(2048).nullable(),
  protocol: OtlpProtocolSchema,
  /** Messages, tool arguments and results in the spans (redacted); off by default. */
  captureContent: z.boolean(),
  /** Export a session again after each of its turns. */
  live: z.boolean(),
});
export type OtelConfig = z.infer<typeof OtelConfigSchema>;

export const DEFAULT_OTEL_CONFIG: OtelConfig = { endpoint: null, protocol: "http/protobuf", captureContent: false, live: false };

/** What the UI sees: header names only, their values stay in the key store. */
export const OtelStatusSchema = OtelConfigSchema.extend({
  headerNames: z.array(z.string()),
  /** The host can keep headers (a key store); without one they come only from OTEL_EXPORTER_OTLP_HEADERS. */
  canStoreHeaders: z.boolean(),
  lastError: z.string().nullable(),
});
export type OtelStatus = z.infer<typeof OtelStatusSchema>;

const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/u, "not an HTTP header name");
/** Header values: visible characters and spaces, no CR/LF (no header injection). */
const HeaderValue = z.string().regex(/^[\t\x20-\x7e\x80-\uffff]{0,4096}$/u, "a header value holds no line breaks or control characters");

export const OtelUpdateSchema = OtelConfigSchema.partial()
  .extend({
    /** Replaces every stored header; null removes them; absent keeps them. */
    headers: z.record(HeaderName, HeaderValue).nullable().optional(),
  })
  .strict();

/** A one-off export target (headless `run --otlp`). */
export const OtelTargetSchema = z
  .object({
    endpoint: z.string().url().max(2048),
    protocol: OtlpProtocolSchema,
    headers: z.record(HeaderName, HeaderValue),
    captureContent: z.boolean(),
  })
  .strict();
export type OtelTarget = z.infer<typeof OtelTargetSchema>;
