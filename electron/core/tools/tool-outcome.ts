/** What a finished tool call becomes: its size for the budget, and the one result message the model gets. */
import type { ToolResultMessage } from "../../../shared/protocol";
import type { ToolError, ToolOutcome } from "./types";

export function outcomeBytes(outcome: ToolOutcome): number {
  if (!outcome.ok) return Buffer.byteLength(outcome.error.message) + Buffer.byteLength(outcome.error.hint ?? "");
  return outcome.content.reduce((n, b) => n + (b.type === "text" ? Buffer.byteLength(b.text) : b.data.length), 0);
}

/** The text the model sees for an error. */
export function errorText(error: ToolError): string {
  return `Error [${error.errorCode}]: ${error.message}${error.hint ? `\nHint: ${error.hint}` : ""}`;
}

/** The result message for a finished call: content as the tool produced it, or the error as text with its code in details. */
export function toResultMessage(call: { id: string; name: string }, outcome: ToolOutcome, now: number): ToolResultMessage {
  if (outcome.ok) {
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      isError: false,
      content: outcome.content,
      timestamp: now,
    };
    if (outcome.details) message.details = outcome.details;
    return message;
  }
  const { error } = outcome;
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    isError: true,
    content: [{ type: "text", text: errorText(error) }],
    details: { ...(outcome.details ?? {}), errorCode: error.errorCode, retryable: error.retryable },
    timestamp: now,
  };
}
