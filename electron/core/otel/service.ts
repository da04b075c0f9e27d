/**
 * The app's OpenTelemetry export: its settings (in the store's settings
 * table, without headers), the OTLP headers (in the host's key store, as API
 * keys are: they often hold one), sending a session's trace on request and,
 * with `live`, again after each of its turns. One export at a time per
 * session; a turn that ends while its session is sent queues one more.
 */
import { DEFAULT_OTEL_CONFIG, OtelConfigSchema, type OtelConfig, type OtelStatus, type OtelTarget } from "../../../shared/otel";
import type { SecretStore } from "../api/workbench";
import type { Redactor } from "../review/redact";
import { exportSpans, type OtlpTarget } from "./exporter";
import { traceIdOf, toolSpanId, traceparent } from "./ids";
import { rootSessionOf, sessionSpans, type TraceSource } from "./session-spans";

const SETTING_KEY = "otel";
/** The key store entry holding the headers (JSON); provider keys never take this form. */
export const HEADERS_SECRET = "otel:headers";

export interface OtelStorePort extends TraceSource {
  /** The session's audited tool calls (how many earlier calls share a call id). */
  listToolCalls(sessionId: string): Array<{ toolCallId: string }>;
  getSetting(key: string): unknown;
  setSetting(key: string, value: unknown): void;
}

export interface OtelServiceOptions {
  store: OtelStorePort;
  secrets: SecretStore | undefined;
  redactor: () => Redactor;
  version: string;
  /** Told once per distinct failure of a live export (an app notice). */
  onError?: (message: string) => void;
}

export class OtelService {
  private headers: Record<string, string> = {};
  private lastError: string | null = null;
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  constructor(private readonly options: OtelServiceOptions) {}

  async load(): Promise<void> {
    const raw = this.options.secrets ? await this.options.secrets.get(HEADERS_SECRET) : null;
    this.headers = parseHeaders(raw);
  }

  config(): OtelConfig {
    const parsed = OtelConfigSchema.safeParse(this.options.store.getSetting(SETTING_KEY));
    return parsed.success ? parsed.data : DEFAULT_OTEL_CONFIG;
  }

  status(): OtelStatus {
    return {
      ...this.config(),
      headerNames: Object.keys(this.headers).sort(),
      canStoreHeaders: this.options.secrets !== undefined,
      lastError: this.lastError,
    };
  }

  /** Header values, for the redactor's list of known secrets. */
  secretValues(): string[] {
    return Object.values(this.headers);
  }

  async update(patch: Partial<OtelConfig> & { headers?: Record<string, string> | null }): Promise<OtelStatus> {
    const { headers, ...rest } = patch;
    if (headers !== undefined) {
      if (!this.options.secrets) throw new Error("this host has no key store; set OTEL_EXPORTER_OTLP_HEADERS instead");
      const next = headers ?? {};
      await this.options.secrets.set(HEADERS_SECRET, Object.keys(next).length > 0 ? JSON.stringify(next) : null);
      this.headers = next;
    }
    this.options.store.setSetting(SETTING_KEY, OtelConfigSchema.parse({ ...this.config(), ...rest }));
    return this.status();
  }

  private target(): OtlpTarget | null {
    const c = this.config();
    return c.endpoint === null ? null : { endpoint: c.endpoint, protocol: c.protocol, headers: this.headers };
  }

  /** Sends the session's trace now; throws when export is off or the endpoint fails. Returns the spans sent. */
  async exportSession(sessionId: string, once?: OtelTarget): Promise<number> {
    const target = once ?? this.target();
    if (target === null) throw new Error("OpenTelemetry export is off: set an endpoint in Settings → Observability");
    const spans = sessionSpans(this.options.store, sessionId, {
      captureContent: once ? once.captureContent : this.config().captureContent,
      redactor: this.options.redactor(),
      serviceVersion: this.options.version,
    });
    if (spans.length === 0) throw new Error(`no session ${sessionId}`);
    try {
      await exportSpans(spans, target);
      this.lastError = null;
    } catch (e) {
      this.lastError = e instanceof Error ? e.message : String(e);
      throw e;
    }
    return spans.length;
  }

  /** A turn of the session ended: with live export on, send it again (never throws, never blocks the turn). */
  turnEnded(sessionId: string): void {
    const c = this.config();
    if (!c.live || c.endpoint === null) return;
    if (this.running.has(sessionId)) {
      this.again.add(sessionId);
      return;
    }
    const before = this.lastError;
    const run = this.exportSession(sessionId)
      .then(() => undefined)
      .catch((e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        if (message !== before) this.options.onError?.(`OpenTelemetry export failed: ${message}`);
      })
      .finally(() => {
        this.running.delete(sessionId);
        if (this.again.delete(sessionId)) this.turnEnded(sessionId);
      });
    this.running.set(sessionId, run);
  }

  /**
   * TRACEPARENT for a tool call's commands while export is on: the trace of the session's top-level
   * session, the call's execute_tool span (the same ids the export derives).
   */
  traceparentFor(sessionId: string, toolCallId: string): string | null {
    if (this.config().endpoint === null) return null;
    const rootId = rootSessionOf(this.options.store, sessionId);
    if (rootId === null) return null;
    const earlier = this.options.store.listToolCalls(sessionId).filter((c) => c.toolCallId === toolCallId).length - 1;
    return traceparent(traceIdOf(rootId), toolSpanId(sessionId, toolCallId, Math.max(0, earlier)));
  }

  /** Waits for the exports under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }
}

function parseHeaders(raw: string | null): Record<string, string> {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
  } catch {
    return {};
  }
}
