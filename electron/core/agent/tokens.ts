/**
 * Rough token estimates (4 characters a token) for deciding when and where to
 * compact; the provider's own counts correct them (context-ledger.ts).
 */
import type { Message } from "../../../shared/protocol";

/** The estimate of one message. */
export function messageTokens(m: Message): number {
  let chars = 0;
  for (const block of m.content) {
    switch (block.type) {
      case "text":
        chars += block.text.length;
        break;
      case "thinking":
        chars += block.thinking.length + (block.signature?.length ?? 0);
        break;
      case "toolCall":
        chars += block.name.length + JSON.stringify(block.arguments).length;
        break;
      case "image":
        chars += 6_400; // ~1,600 tokens for a typical image
        break;
    }
  }
  return Math.ceil(chars / 4);
}

export function estimateTokens(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) n += messageTokens(m);
  return n;
}

/** The estimate of a text (a system prompt, tool schemas as JSON). */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
