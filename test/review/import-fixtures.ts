/**
 * Large exports for the import tests, built directly as envelopes (as the
 * export writes them): `entries` messages alternating user and assistant,
 * `textChars` of text each, with an audit row and a note every 100 entries.
 */
import { EXPORT_FORMAT, EXPORT_VERSION, type SessionExport } from "../../shared/review";
import type { ModelRef, SessionEntry } from "../../shared/protocol";

export const BIG_T0 = Date.UTC(2025, 0, 1);
const MODEL: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" };

export function bigExport(entries: number, options: { textChars?: number; title?: string } = {}): SessionExport {
  const filler = "lorem ipsum dolor sit amet, ".repeat(Math.ceil((options.textChars ?? 40) / 28)).slice(0, options.textChars ?? 40);
  const list: SessionExport["entries"] = [];
  for (let i = 0; i < entries; i++) {
    const timestamp = BIG_T0 + i * 1000;
    const entry: SessionEntry =
      i % 2 === 0
        ? { type: "message", message: { role: "user", content: [{ type: "text", text: `question ${i}: ${filler}` }], timestamp } }
        : {
            type: "message",
            message: {
              role: "assistant",
              content: [{ type: "text", text: `answer ${i}: ${filler}` }],
              stopReason: "stop",
              model: MODEL,
              usage: {
                input: 10,
                output: 5,
                cacheRead: 0,
                cacheWrite: 0,
                totalTokens: 15,
                cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 },
              },
              timestamp,
            },
          };
    list.push({ seq: i + 1, entry });
  }
  const every = Array.from({ length: Math.floor(entries / 100) }, (_, k) => k * 100 + 1);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    session: {
      id: "00000000-0000-4000-8000-000000000000",
      title: options.title ?? `Big session of ${entries}`,
      model: MODEL,
      startedAt: BIG_T0,
      endedAt: BIG_T0 + (entries - 1) * 1000,
      forkedFrom: null,
    },
    redaction: { secrets: "redacted", thinkingSignatures: "dropped" },
    entries: list,
    notes: every.map((seq, k) => ({
      id: k + 1,
      seq,
      author: "rita",
      verdict: null,
      text: `note on ${seq}`,
      createdAt: BIG_T0 + seq * 1000,
    })),
    toolCalls: every.map((seq, k) => ({
      id: k + 1,
      toolCallId: `call_${seq}`,
      toolName: "read",
      args: { path: `file-${seq}.ts` },
      status: "done",
      durationMs: 3,
      errorCode: null,
      outputBytes: 120,
      approvalDecision: null,
      decidedBy: null,
      decidedAt: null,
      createdAt: BIG_T0 + seq * 1000,
      updatedAt: BIG_T0 + seq * 1000 + 3,
    })),
    problems: [],
  };
}
