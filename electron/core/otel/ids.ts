/**
 * Trace and span ids derived from what is stored, so exporting a session
 * again sends the same ids (a backend that keys spans by id updates them
 * instead of adding a second trace), and a live tool call knows its span id
 * before the span is built (the TRACEPARENT its bash child gets).
 */
import { createHash } from "node:crypto";

function hex(parts: readonly string[], bytes: number): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(`${p.length}:${p}`);
  const out = h.digest("hex").slice(0, bytes * 2);
  // All-zero ids are invalid in W3C trace context; a sha256 prefix of zeros is not worth a branch, but stay valid.
  return /^0+$/u.test(out) ? `${out.slice(0, -1)}1` : out;
}

/** One trace per top-level session: its sub-agents' spans share it. */
export function traceIdOf(rootSessionId: string): string {
  return hex(["trace", rootSessionId], 16);
}

export function agentSpanId(sessionId: string): string {
  return hex(["agent", sessionId], 8);
}

export function chatSpanId(sessionId: string, seq: number): string {
  return hex(["chat", sessionId, String(seq)], 8);
}

/**
 * A tool call's span. Call ids may repeat across turns ("functions.Bash:0"): `occurrence` counts the
 * earlier calls of the session with the same id (0 for the first), as the runtime counts them live.
 */
export function toolSpanId(sessionId: string, toolCallId: string, occurrence = 0): string {
  return hex(occurrence === 0 ? ["tool", sessionId, toolCallId] : ["tool", sessionId, toolCallId, String(occurrence)], 8);
}

/** W3C trace context header value: version 00, sampled. */
export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
