/**
 * Short builders for faux scripts:
 *   faux.script([reply([thinking("plan"), toolCall("read", { path: "a.ts" }, "toolu_01")]), reply("Done.")])
 */
import type { FauxBlock, FauxFault, FauxReply } from "./types";

type ReplyOptions = Partial<Omit<FauxReply, "type" | "content">>;

export function reply(content: string | FauxBlock | FauxBlock[], options: ReplyOptions = {}): FauxReply {
  const blocks = typeof content === "string" ? [text(content)] : Array.isArray(content) ? content : [content];
  return { type: "reply", content: blocks, ...options };
}

export function text(value: string): FauxBlock {
  return { type: "text", text: value };
}

export function thinking(value: string, options: { redacted?: boolean } = {}): FauxBlock {
  return options.redacted ? { type: "thinking", thinking: "", redacted: true } : { type: "thinking", thinking: value };
}

/** `args` as a string is sent verbatim (invalid JSON, lone surrogates, truncation). */
export function toolCall(name: string, args: Record<string, unknown> | string, id?: string): FauxBlock {
  return id === undefined ? { type: "toolCall", name, arguments: args } : { type: "toolCall", id, name, arguments: args };
}

/** The faults the issue lists, by name. */
export const faults = {
  rateLimit: (retryAfterSeconds?: number, retryAfterMs?: number): FauxFault => ({ type: "rateLimit", retryAfterSeconds, retryAfterMs }),
  serverError: (): FauxFault => ({ type: "serverError" }),
  overloaded: (): FauxFault => ({ type: "overloaded" }),
  contextOverflow: (): FauxFault => ({ type: "contextOverflow" }),
  authError: (): FauxFault => ({ type: "authError" }),
  streamError: (afterEvents = 3, errorType: "overloaded" | "server" = "overloaded"): FauxFault => ({
    type: "streamError",
    afterEvents,
    errorType,
  }),
  /** The socket is destroyed after `afterEvents` SSE events. */
  dropConnection: (partial: FauxReply, afterEvents: number): FauxReply => ({ ...partial, cut: { afterEvents, how: "drop" } }),
  /** The HTTP response ends cleanly after `afterEvents` events, without the final ones. */
  truncatedStream: (partial: FauxReply, afterEvents: number): FauxReply => ({ ...partial, cut: { afterEvents, how: "truncate" } }),
  invalidToolJson: (name: string, raw = '{"path": "src/a.ts", "limit": 10,,}', id?: string): FauxReply => reply(toolCall(name, raw, id)),
  loneSurrogate: (name: string, id?: string): FauxReply => reply(toolCall(name, '{"path": "\\ud800.txt"}', id)),
  /** Text cut by max tokens; with `toolName`, a tool call whose arguments are cut off. */
  maxTokens: (partialText: string, toolName?: string): FauxReply =>
    reply(toolName ? [text(partialText), toolCall(toolName, '{"path": "src/very/long/pa')] : [text(partialText)], { stopReason: "length" }),
};
