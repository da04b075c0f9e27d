/**
 * What the provider transport throws. The adapters' `describeFailure` reads
 * these by shape (status, headers, error body), as it read the SDKs' APIErrors.
 */

/** The caller's signal fired: the request and its socket are gone. runStream decides what it means (user abort or idle timeout). */
export class StreamStoppedError extends Error {
  constructor() {
    super("stream stopped");
    this.name = "StreamStoppedError";
  }
}

/** The connection failed, or broke before the response ended: worth a retry. */
export class HttpNetworkError extends Error {
  readonly code: string | undefined;
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "HttpNetworkError";
    this.code = errorCode(cause);
  }
}

/**
 * The provider said no: a non-2xx response (`status` set), or an error event
 * inside a 200 stream (`status` undefined). Shaped like the SDKs' APIError:
 * `error` is the parsed JSON body (or its text), `rawBody` the text as sent,
 * so a compatible server's flat error body (Mistral's `{ object: "error",
 * message, type, code }`) is not lost.
 */
export class ProviderApiError extends Error {
  readonly status: number | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly error: unknown;
  readonly rawBody: string | undefined;

  constructor(init: { status?: number; headers: Readonly<Record<string, string>>; error: unknown; rawBody?: string }) {
    super(apiErrorMessage(init.status, init.error, init.rawBody));
    this.name = "ProviderApiError";
    this.status = init.status;
    this.headers = init.headers;
    this.error = init.error;
    this.rawBody = init.rawBody;
  }

  /** From a non-2xx response and its body text. */
  static fromResponse(status: number, headers: Readonly<Record<string, string>>, text: string): ProviderApiError {
    const json = parseJsonOrUndefined(text);
    const error = json !== undefined ? json : text === "" ? undefined : text;
    return new ProviderApiError({ status, headers, error, rawBody: text });
  }
}

/** An event whose data is not the JSON the wire API promises. */
export class SseDataError extends Error {
  constructor(event: string | null, data: string) {
    const snippet = data.length > 120 ? `${data.slice(0, 120)}…` : data;
    super(`malformed stream event${event ? ` "${event}"` : ""} from the provider (data is not JSON): ${snippet}`);
    this.name = "SseDataError";
  }
}

/** The SDKs' wording: "<status> <message>", "<status> status code (no body)". */
function apiErrorMessage(status: number | undefined, error: unknown, text: string | undefined): string {
  const msg = messageOf(error) ?? (error !== undefined ? JSON.stringify(error) : text || undefined);
  if (status !== undefined && msg) return `${status} ${msg}`;
  if (status !== undefined) return `${status} status code (no body)`;
  return msg ?? "(no status code or body)";
}

function messageOf(error: unknown): string | undefined {
  if (typeof error === "string") return error;
  if (!isRecord(error)) return undefined;
  const inner = error.error;
  if (isRecord(inner) && typeof inner.message === "string") return inner.message;
  if (typeof error.message === "string") return error.message;
  if (typeof inner === "string") return inner;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function parseJsonOrUndefined(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorCode(err: unknown): string | undefined {
  if (!isRecord(err)) return undefined;
  return typeof err.code === "string" ? err.code : undefined;
}
