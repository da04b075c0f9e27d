/**
 * How a Responses tool call is stored: `call_id|item_id` (the item id is the
 * `fc_…` id of the function_call output item). The Responses adapter writes it
 * with `encodeResponsesToolCallId`; only the Responses request builder reads it
 * back, and only to replay a call to the very model that produced it (so the
 * call stays paired with its reasoning item). Everywhere else the stored id is
 * an opaque string (invariant 2, docs/architecture.md#invariants).
 */

export function encodeResponsesToolCallId(callId: string, itemId: string | undefined): string {
  return itemId ? `${callId}|${itemId}` : callId;
}

export function decodeResponsesToolCallId(stored: string): { callId: string; itemId?: string } {
  const bar = stored.indexOf("|");
  if (bar < 0) return { callId: stored };
  return { callId: stored.slice(0, bar), itemId: stored.slice(bar + 1) };
}
