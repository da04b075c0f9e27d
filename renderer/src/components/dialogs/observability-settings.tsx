/**
 * Settings → Observability: where session traces go (OTLP/HTTP endpoint,
 * protobuf or JSON, headers kept in the key store), content capture, live
 * export, and "Send trace" for the open session (docs/observability.md).
 * Header values are never shown again: only their names.
 */
import { useState } from "react";
import type { OtelStatus } from "../../../../shared/otel";
import { client, errorText } from "../../api/current";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { useCoreRead } from "../use-core-read";

/** `name: value` per line → headers; null when a line is not a header. */
export function parseHeaderLines(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const at = line.indexOf(":");
    if (at <= 0) return null;
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export function ObservabilitySettingsSection({ headingId }: { headingId: string }) {
  const [generation, setGeneration] = useState(0);
  const read = useCoreRead(`otel-${generation}`, () => client().call("otel.get", {}));
  const status = read.value;
  if (!status) return read.error ? <p role="alert">{errorText(read.error)}</p> : null;
  return <ObservabilityForm key={generation} headingId={headingId} status={status} onSaved={() => setGeneration((g) => g + 1)} />;
}

function ObservabilityForm({ headingId, status, onSaved }: { headingId: string; status: OtelStatus; onSaved(): void }) {
  const [endpoint, setEndpoint] = useState(status.endpoint ?? "");
  const [protocol, setProtocol] = useState(status.protocol);
  const [capture, setCapture] = useState(status.captureContent);
  const [live, setLive] = useState(status.live);
  const [headers, setHeaders] = useState("");
  const [message, setMessage] = useState<string | null>(status.lastError ? `Last export failed: ${status.lastError}` : null);
  const sessionId = useWorkspaceStore((s) => s.activeSessionId);

  const save = async () => {
    const parsed = headers.trim() ? parseHeaderLines(headers) : undefined;
    if (parsed === null) {
      setMessage("Headers: one “Name: value” per line.");
      return;
    }
    try {
      await client().call("otel.update", {
        endpoint: endpoint.trim() || null,
        protocol,
        captureContent: capture,
        live,
        ...(parsed ? { headers: parsed } : {}),
      });
      setMessage("Saved.");
      onSaved();
    } catch (err) {
      setMessage(`Could not save: ${errorText(err)}`);
    }
  };
  const clearHeaders = async () => {
    try {
      await client().call("otel.update", { headers: null });
      onSaved();
    } catch (err) {
      setMessage(`Could not remove the headers: ${errorText(err)}`);
    }
  };
  const send = async () => {
    if (!sessionId) return;
    setMessage("Sending…");
    try {
      const r = await client().call("otel.exportSession", { sessionId });
      setMessage(`Sent ${r.spans} spans.`);
    } catch (err) {
      setMessage(`Could not send: ${errorText(err)}`);
    }
  };

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Observability</h3>
      <p className="muted">Send sessions as OpenTelemetry traces (GenAI conventions) to Langfuse, Phoenix, Jaeger or a collector.</p>
      <label>
        OTLP endpoint
        <input type="url" value={endpoint} placeholder="http://localhost:4318" onChange={(e) => setEndpoint(e.target.value)} />
      </label>
      <label>
        Protocol
        <select value={protocol} onChange={(e) => setProtocol(e.target.value as OtelStatus["protocol"])}>
          <option value="http/protobuf">OTLP/HTTP protobuf</option>
          <option value="http/json">OTLP/HTTP JSON</option>
        </select>
      </label>
      <label>
        Headers {status.headerNames.length > 0 && <span className="muted small">(stored: {status.headerNames.join(", ")})</span>}
        <textarea
          rows={2}
          value={headers}
          disabled={!status.canStoreHeaders}
          placeholder={status.canStoreHeaders ? "Authorization: Basic …" : "No key store here: use OTEL_EXPORTER_OTLP_HEADERS"}
          onChange={(e) => setHeaders(e.target.value)}
        />
      </label>
      {status.headerNames.length > 0 && (
        <button type="button" onClick={() => void clearHeaders()}>
          Remove stored headers
        </button>
      )}
      <label className="inline">
        <input type="checkbox" checked={capture} onChange={(e) => setCapture(e.target.checked)} /> Capture content (messages, tool arguments
        and results, redacted)
      </label>
      <label className="inline">
        <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> Send after every turn
      </label>
      <div>
        <button type="button" onClick={() => void save()}>
          Save
        </button>{" "}
        <button type="button" disabled={!sessionId || !status.endpoint} onClick={() => void send()}>
          Send trace of the open session
        </button>
      </div>
      {message && (
        <p className="small" role="status">
          {message}
        </p>
      )}
    </section>
  );
}
