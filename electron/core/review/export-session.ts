/**
 * Exports a stored session as JSON, Markdown or a self-contained HTML replay.
 * Every format is derived from the redacted envelope, so no format can carry
 * a secret the JSON does not.
 */
import type { ModelRef } from "../../../shared/protocol";
import type { ExportFile, ExportFormat, SessionExport } from "../../../shared/review";
import { buildEnvelope, loadExportSource, serializeEnvelope } from "./export-json";
import { renderHtml } from "./export-html";
import { renderMarkdown } from "./export-markdown";
import { fileStem } from "./format";
import type { Redactor } from "./redact";
import type { ReviewResult } from "./result";
import { sessionStats } from "./stats";
import type { ReviewStorePort } from "./store-port";
import { buildTimeline, type TimelineOptions } from "./timeline";

/**
 * `modelName`: the catalog's name of a model, for the timeline and the HTML replay (else provider/id);
 * `forkSource`: the step a fork was made at, as the replay numbers it.
 */
export function exportSession(
  store: ReviewStorePort,
  sessionId: string,
  format: ExportFormat,
  redactor: Redactor,
  modelName?: (ref: ModelRef) => string | undefined,
  forkSource?: TimelineOptions["forkSource"],
): ReviewResult<ExportFile> {
  const source = loadExportSource(store, sessionId);
  if (!source.ok) return source;
  return { ok: true, value: renderExport(buildEnvelope(source.value, redactor), format, modelName, forkSource) };
}

export function renderExport(
  envelope: SessionExport,
  format: ExportFormat,
  modelName?: (ref: ModelRef) => string | undefined,
  forkSource?: TimelineOptions["forkSource"],
): ExportFile {
  const stem = fileStem(envelope.session.title, envelope.session.id);
  if (format === "json") return { filename: `${stem}.json`, mimeType: "application/json", content: serializeEnvelope(envelope) };
  const items = buildTimeline(envelope.entries, envelope.toolCalls, { modelName, forkSource });
  const stats = sessionStats(envelope.entries, items);
  if (format === "markdown")
    return {
      filename: `${stem}.md`,
      mimeType: "text/markdown; charset=utf-8",
      content: renderMarkdown(envelope, stats, items, forkSource),
    };
  return {
    filename: `${stem}.html`,
    mimeType: "text/html; charset=utf-8",
    content: renderHtml({ envelope, items, stats, modelNames: modelNames(envelope, modelName) }),
  };
}

/** "provider/api/id" → name, for every model the session used (the HTML replay shows names, not ids). */
function modelNames(envelope: SessionExport, modelName?: (ref: ModelRef) => string | undefined): Record<string, string> {
  const names: Record<string, string> = {};
  if (!modelName) return names;
  const add = (ref: ModelRef | null | undefined) => {
    if (!ref) return;
    const name = modelName(ref);
    if (name) names[`${ref.provider}/${ref.api}/${ref.id}`] = name;
  };
  add(envelope.session.model);
  for (const { entry } of envelope.entries) {
    if (entry.type === "message" && entry.message.role === "assistant") add(entry.message.model);
    else if (entry.type === "modelSwitch") {
      add(entry.from);
      add(entry.to);
    } else if (entry.type === "compaction") add(entry.model);
  }
  return names;
}
