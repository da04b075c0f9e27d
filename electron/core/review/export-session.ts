/**
 * Exports a stored session as JSON, Markdown or a self-contained HTML replay.
 * Every format is derived from the redacted envelope, so no format can carry
 * a secret the JSON does not.
 */
import type { ExportFile, ExportFormat, SessionExport } from "../../../shared/review";
import { buildEnvelope, loadExportSource, serializeEnvelope } from "./export-json";
import { renderHtml } from "./export-html";
import { renderMarkdown } from "./export-markdown";
import { fileStem } from "./format";
import type { Redactor } from "./redact";
import type { ReviewResult } from "./result";
import { sessionStats } from "./stats";
import type { ReviewStorePort } from "./store-port";
import { buildTimeline } from "./timeline";

export function exportSession(store: ReviewStorePort, sessionId: string, format: ExportFormat, redactor: Redactor): ReviewResult<ExportFile> {
  const source = loadExportSource(store, sessionId);
  if (!source.ok) return source;
  return { ok: true, value: renderExport(buildEnvelope(source.value, redactor), format) };
}

export function renderExport(envelope: SessionExport, format: ExportFormat): ExportFile {
  const stem = fileStem(envelope.session.title, envelope.session.id);
  if (format === "json") return { filename: `${stem}.json`, mimeType: "application/json", content: serializeEnvelope(envelope) };
  const items = buildTimeline(envelope.entries, envelope.toolCalls);
  const stats = sessionStats(envelope.entries, items);
  if (format === "markdown") return { filename: `${stem}.md`, mimeType: "text/markdown; charset=utf-8", content: renderMarkdown(envelope, stats) };
  return { filename: `${stem}.html`, mimeType: "text/html; charset=utf-8", content: renderHtml({ envelope, items, stats }) };
}
