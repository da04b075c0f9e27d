/**
 * A foreign session as our export envelope, so it goes through the import's
 * own checks (ranges, sizes, ids) and its staged, all-or-nothing writing
 * (review/import-job.ts): a crafted file is refused the way a crafted export is.
 */
import type { ModelRef } from "../../../shared/protocol";
import { EXPORT_FORMAT, EXPORT_VERSION, type SessionExport } from "../../../shared/review";
import type { ForeignSession } from "./types";

export function toEnvelope(session: ForeignSession): SessionExport {
  let model: ModelRef | null = null;
  let startedAt: number | null = null;
  let endedAt: number | null = null;
  for (const entry of session.entries) {
    const at = entry.type === "message" ? entry.message.timestamp : entry.timestamp;
    if (startedAt === null || at < startedAt) startedAt = at;
    if (endedAt === null || at > endedAt) endedAt = at;
    if (entry.type === "message" && entry.message.role === "assistant") model = entry.message.model;
  }
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    session: { id: session.foreignId, title: session.title, model, startedAt, endedAt, forkedFrom: null },
    redaction: { secrets: "redacted", thinkingSignatures: "dropped" },
    entries: session.entries.map((entry, i) => ({ seq: i + 1, entry })),
    notes: [],
    toolCalls: [],
    problems: [],
  };
}
