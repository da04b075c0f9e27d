/**
 * Pruning, the first step of compaction: old tool outputs are replaced, in the
 * model's view only, by a short stub naming the call and how to get the
 * output again (opencode's "prune"). The stored result is untouched; the
 * transcript, replay and exports show it in full.
 */
import type { Message, ToolCall, ToolResultMessage } from "../../../shared/protocol";
import type { ModelView } from "./context";
import { messageTokens } from "./tokens";

/** Outputs at or below this size are kept: a stub would save nothing. */
export const PRUNE_MIN_TOKENS = 100;
const ARGS_MAX_CHARS = 300;
/** About what a stub costs. */
const STUB_TOKENS = 80;

/** The same stub object for the same result, so request builders see a stable history. */
const stubs = new WeakMap<ToolResultMessage, ToolResultMessage>();

export function prunedResult(result: ToolResultMessage, call: ToolCall | undefined): ToolResultMessage {
  if (messageTokens(result) <= PRUNE_MIN_TOKENS) return result;
  let stub = stubs.get(result);
  if (stub === undefined) {
    stub = {
      role: "toolResult",
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      isError: result.isError,
      content: [{ type: "text", text: stubText(result, call) }],
      timestamp: result.timestamp,
    };
    stubs.set(result, stub);
  }
  return stub;
}

function stubText(result: ToolResultMessage, call: ToolCall | undefined): string {
  const chars = result.content.reduce((n, b) => n + (b.type === "text" ? b.text.length : 0), 0);
  const images = result.content.filter((b) => b.type === "image").length;
  let args = call ? JSON.stringify(call.arguments) : "";
  if (args.length > ARGS_MAX_CHARS) args = `${args.slice(0, ARGS_MAX_CHARS)}…`;
  const size = [`${chars} characters`, ...(images > 0 ? [`${images} image${images === 1 ? "" : "s"}`] : [])].join(", ");
  return (
    `[Output pruned to save context: ${result.toolName}${args ? ` ${args}` : ""} ${result.isError ? "failed" : "ran"} (${size}). ` +
    `To see it again, call ${result.toolName} again with the same arguments; for a call that changed something, ` +
    "check its effect (read the file, list the folder) instead of repeating it.]"
  );
}

/**
 * Where to prune: tool results before the returned seq become stubs, keeping
 * the newest outputs worth `keepTokens` in full, and always those after the
 * last assistant message (the model has not seen them yet). Returns the
 * current boundary (`already`) when nothing new would be pruned, and counts
 * the outputs the new boundary stubs.
 */
export function pruneBoundary(
  view: ModelView,
  keepTokens: number,
  already: number | undefined,
): { beforeSeq: number; pruned: number; savedTokens: number } {
  const { messages, seqs } = view;
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0 && lastAssistant < 0; i--) if (messages[i].role === "assistant") lastAssistant = i;
  let kept = 0;
  let beforeSeq = already ?? Number.MIN_SAFE_INTEGER;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    const seq = seqs[i];
    if (seq === null || m.role !== "toolResult") continue;
    kept += messageTokens(m);
    if (i < lastAssistant && kept > keepTokens) {
      beforeSeq = Math.max(beforeSeq, seq + 1);
      break;
    }
  }
  let pruned = 0;
  let savedTokens = 0;
  for (let i = 0; i < messages.length; i++) {
    const seq = seqs[i];
    const m = messages[i];
    if (seq === null || seq >= beforeSeq || (already !== undefined && seq < already) || !isPrunable(m)) continue;
    pruned++;
    savedTokens += messageTokens(m) - STUB_TOKENS;
  }
  return { beforeSeq, pruned, savedTokens };
}

function isPrunable(m: Message): boolean {
  return m.role === "toolResult" && messageTokens(m) > PRUNE_MIN_TOKENS;
}
