/**
 * The transcript as rows, derived from stored entries. Pure: the live view
 * appends to it as entries arrive, and the replay view (read-only) builds it
 * from any prefix of a session's entries.
 *
 * Renames are not rows (the title shows in the header and the session list).
 * Tool results and approval decisions are not rows of their own: they attach
 * to the tool call that produced them (a card). A result or decision whose
 * call is unknown still shows, as an orphan row, so nothing stored is hidden.
 */
import type { DamagedEntry } from "../../../shared/api";
import type {
  ApprovalEntry,
  AssistantMessage,
  CompactionEntry,
  ForkEntry,
  ModelSwitchEntry,
  PlanEditEntry,
  ReasoningChangeEntry,
  RenameEntry,
  StoredEntry,
  ToolResultMessage,
  UserMessage,
} from "../../../shared/protocol";
import { planOfCall, TODO_TOOL, type TodoItem } from "../../../shared/todo";

export type TranscriptRow =
  | { kind: "user"; key: string; seq: number; message: UserMessage }
  /** `attempts`: the failed attempts of the same request before this one (automatic retries, Retry), oldest first. */
  | { kind: "assistant"; key: string; seq: number; message: AssistantMessage; attempts?: readonly AssistantMessage[] }
  | { kind: "orphanResult"; key: string; seq: number; message: ToolResultMessage }
  | { kind: "orphanApproval"; key: string; seq: number; entry: ApprovalEntry }
  | { kind: "modelSwitch"; key: string; seq: number; entry: ModelSwitchEntry }
  | { kind: "reasoningChange"; key: string; seq: number; entry: ReasoningChangeEntry }
  | { kind: "compaction"; key: string; seq: number; entry: CompactionEntry }
  | { kind: "rename"; key: string; seq: number; entry: RenameEntry }
  | { kind: "fork"; key: string; seq: number; entry: ForkEntry }
  | { kind: "planEdit"; key: string; seq: number; entry: PlanEditEntry }
  /** A stored entry that could not be read, or a run of lost ones: shown, never silently left out. */
  | { kind: "damaged"; key: string; seq: number; damaged: DamagedEntry };

export interface AttachedResult {
  seq: number;
  message: ToolResultMessage;
}

export interface TranscriptModel {
  rows: TranscriptRow[];
  /** Tool results by tool-call id. */
  results: ReadonlyMap<string, AttachedResult>;
  /** Approval decisions by tool-call id. */
  approvals: ReadonlyMap<string, ApprovalEntry>;
  /** Row index of the assistant message holding each tool call. */
  callRow: ReadonlyMap<string, number>;
  /** seq → row index, for jumping to a search hit. */
  seqRow: ReadonlyMap<number, number>;
  lastSeq: number;
  /** `costUnknown`: some answer came from a model without a known price, so `cost` is only the known part. */
  totals: { tokens: number; cost: number; costUnknown: boolean };
  /**
   * Tokens the last answered request held (input, cache and output of the last
   * assistant message that has usage): how full the context is. Null before
   * the first answer and after a compaction, until the next answer.
   */
  context: number | null;
  /** Text of the most recent user message (for Retry). */
  lastUserText: string | null;
  /** The todo plan as of the last entry (shared/todo.ts): null before one is set. */
  plan: readonly TodoItem[] | null;
}

export const EMPTY_TRANSCRIPT: TranscriptModel = {
  rows: [],
  results: new Map(),
  approvals: new Map(),
  callRow: new Map(),
  seqRow: new Map(),
  lastSeq: -1,
  totals: { tokens: 0, cost: 0, costUnknown: false },
  context: null,
  lastUserText: null,
  plan: null,
};

export function buildTranscript(entries: readonly StoredEntry[], damaged: readonly DamagedEntry[] = []): TranscriptModel {
  return appendEntries(EMPTY_TRANSCRIPT, entries, damaged);
}

/**
 * Returns a new model with the entries (and damaged-entry rows, in seq order
 * among them) appended; entries at or below lastSeq are ignored.
 */
export function appendEntries(
  model: TranscriptModel,
  entries: readonly StoredEntry[],
  damaged: readonly DamagedEntry[] = [],
): TranscriptModel {
  const fresh = entries.filter((e) => e.seq > model.lastSeq);
  const lost = damaged.filter((d) => d.seq > model.lastSeq);
  if (fresh.length === 0 && lost.length === 0) return model;
  const rows = model.rows.slice();
  const results = new Map(model.results);
  const approvals = new Map(model.approvals);
  const callRow = new Map(model.callRow);
  const seqRow = new Map(model.seqRow);
  let { tokens, cost, costUnknown } = model.totals;
  let context = model.context;
  let lastUserText = model.lastUserText;
  let lastSeq = model.lastSeq;
  let plan = model.plan;

  let nextLost = 0;
  const pushLost = (before: number) => {
    for (; nextLost < lost.length && lost[nextLost].seq < before; nextLost++) {
      const d = lost[nextLost];
      seqRow.set(d.seq, rows.length);
      rows.push({ kind: "damaged", key: `d${d.seq}`, seq: d.seq, damaged: d });
      lastSeq = Math.max(lastSeq, d.toSeq ?? d.seq);
    }
  };
  for (const { seq, entry } of fresh) {
    pushLost(seq);
    lastSeq = Math.max(lastSeq, seq);
    const key = `e${seq}`;
    const push = (row: TranscriptRow) => {
      seqRow.set(seq, rows.length);
      rows.push(row);
    };
    switch (entry.type) {
      case "message": {
        const m = entry.message;
        if (m.role === "user") {
          const text = m.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
          if (text) lastUserText = text;
          push({ kind: "user", key, seq, message: m });
        } else if (m.role === "assistant") {
          for (const block of m.content) if (block.type === "toolCall") callRow.set(block.id, rows.length);
          tokens += m.usage.totalTokens;
          cost += m.usage.cost.total;
          if (m.usage.cost.unknown) costUnknown = true;
          const held = m.usage.input + m.usage.cacheRead + m.usage.cacheWrite + m.usage.output;
          if (held > 0) context = held;
          const prev = rows[rows.length - 1];
          if (m.stopReason === "error" && prev?.kind === "assistant" && prev.message.stopReason === "error") {
            // One failed request is one row: the earlier attempts are listed inside it.
            seqRow.set(seq, rows.length - 1);
            rows[rows.length - 1] = { ...prev, seq, message: m, attempts: [...(prev.attempts ?? []), prev.message] };
          } else push({ kind: "assistant", key, seq, message: m });
        } else {
          results.set(m.toolCallId, { seq, message: m });
          const at = callRow.get(m.toolCallId);
          if (at === undefined) push({ kind: "orphanResult", key, seq, message: m });
          else seqRow.set(seq, at);
          if (m.toolName === TODO_TOOL && !m.isError && at !== undefined) plan = planOfResult(rows[at], m.toolCallId) ?? plan;
        }
        break;
      }
      case "approval": {
        approvals.set(entry.toolCallId, entry);
        const at = callRow.get(entry.toolCallId);
        if (at === undefined) push({ kind: "orphanApproval", key, seq, entry });
        else seqRow.set(seq, at);
        break;
      }
      case "modelSwitch":
        push({ kind: "modelSwitch", key, seq, entry });
        break;
      case "reasoningChange":
        push({ kind: "reasoningChange", key, seq, entry });
        break;
      case "compaction":
        context = null;
        push({ kind: "compaction", key, seq, entry });
        break;
      case "rename":
        // Titles live in the header and the session list; a rename is not conversation.
        break;
      case "fork":
        push({ kind: "fork", key, seq, entry });
        break;
      case "planEdit":
        plan = entry.items;
        push({ kind: "planEdit", key, seq, entry });
        break;
    }
  }
  pushLost(Infinity);
  return { rows, results, approvals, callRow, seqRow, lastSeq, totals: { tokens, cost, costUnknown }, context, lastUserText, plan };
}

/** The plan a todo call of this row set, as shared/todo.ts's PlanTracker reads it. */
function planOfResult(row: TranscriptRow, toolCallId: string): TodoItem[] | null {
  if (row.kind !== "assistant") return null;
  for (const block of row.message.content) if (block.type === "toolCall" && block.id === toolCallId) return planOfCall(block);
  return null;
}

/** The row index to show for a seq (the nearest row at or before it). */
export function rowForSeq(model: TranscriptModel, seq: number): number | null {
  const exact = model.seqRow.get(seq);
  if (exact !== undefined) return exact;
  for (let i = model.rows.length - 1; i >= 0; i--) if (model.rows[i].seq <= seq) return i;
  return null;
}
