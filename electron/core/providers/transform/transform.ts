/**
 * The boundary transform: turns the stored, provider-neutral history into a
 * history the target API accepts. Pure: it never mutates its input and reads
 * no state; storage is never touched. One pass over the messages.
 *
 * Contract (what every builder may rely on in `messages`):
 * - every assistant tool call is followed by exactly one `toolResults` entry
 *   answering all its calls (real results paired by position, synthesized error
 *   results for the missing ones); no result without its call;
 * - tool-call ids are valid for `target.idRule` and unique in the request;
 *   `idMap` maps each wire id back to its stored id;
 * - thinking blocks are the target model's own; other models' thinking is
 *   plain text (no tags: tags invite the model to imitate them, pi's finding);
 *   other models' redacted thinking is dropped;
 * - no blank text, no empty message, no two user or two assistant entries in a
 *   row; the first entry is a user message and so is the last (or toolResults).
 */
import type { AssistantMessage, Message, ToolResultMessage, UserContent, UserMessage } from "../../../../shared/protocol";
import { decodeResponsesToolCallId } from "./responses-ids";
import { IdAllocator } from "./ids";
import { isBlank, sanitizeSurrogates } from "./text";
import type {
  TransformResult,
  TransformTarget,
  WireAssistantBlock,
  WireMessage,
  WireToolResult,
  WireUserBlock,
} from "./wire-types";

export const SYNTHESIZED_RESULT_TEXT = "No result was recorded for this tool call (it was interrupted). Do not assume it ran.";
export const EMPTY_RESULT_TEXT = "(no output)";
export const IMAGE_OMITTED_TEXT = "(image omitted: this model does not accept images)";
export const SEE_ATTACHED_IMAGE_TEXT = "(see attached image)";
export const CONTINUE_TEXT = "Continue.";
export const LEADING_USER_TEXT = "(The earlier part of this conversation is omitted.)";
export const MISTRAL_BRIDGE_TEXT = "Done.";

const RESPONSES_ITEM_ID = /^fc[a-zA-Z0-9_-]{0,62}$/;

interface OpenCall {
  storedId: string;
  storedName: string;
  wireId: string;
  args: Record<string, unknown>;
  result: WireToolResult | undefined;
}

interface OpenTurn {
  calls: OpenCall[];
  unanswered: number;
  /** User messages that arrived while results were still missing; sent after the results. */
  deferred: WireUserBlock[][];
}

function sameModel(message: AssistantMessage, target: TransformTarget): boolean {
  const m = message.model;
  return m.id === target.model.id && m.api === target.model.api && m.provider === target.model.provider;
}

function userBlocks(content: readonly UserContent[], target: TransformTarget): WireUserBlock[] {
  const out: WireUserBlock[] = [];
  for (const block of content) {
    if (block.type === "text") {
      if (!isBlank(block.text)) out.push({ type: "text", text: sanitizeSurrogates(block.text) });
    } else if (target.acceptsImages) {
      out.push({ type: "image", data: block.data, mimeType: block.mimeType });
    } else {
      out.push({ type: "text", text: IMAGE_OMITTED_TEXT });
    }
  }
  return out;
}

function callAsText(name: string, args: Record<string, unknown>): string {
  return `[Tool call: ${name} ${JSON.stringify(args)}]`;
}

function resultAsText(result: WireToolResult): WireUserBlock[] {
  const header = `[Tool result for ${result.name}${result.isError ? " (error)" : ""}]`;
  const blocks: WireUserBlock[] = [{ type: "text", text: header }];
  for (const block of result.content) blocks.push(block);
  return blocks;
}

export function transformHistory(messages: readonly Message[], target: TransformTarget): TransformResult {
  const ids = new IdAllocator(target.idRule);
  const usedItemIds = new Set<string>();
  const out: WireMessage[] = [];
  let turn: OpenTurn | undefined;

  const pushUser = (content: WireUserBlock[]): void => {
    const last = out[out.length - 1];
    if (last !== undefined && last.role === "user") last.content = last.content.concat(content);
    else out.push({ role: "user", content });
  };

  const pushAssistant = (content: WireAssistantBlock[]): void => {
    const last = out[out.length - 1];
    if (last !== undefined && last.role === "assistant") last.content = last.content.concat(content);
    else out.push({ role: "assistant", content });
  };

  const closeTurn = (): void => {
    if (turn === undefined) return;
    const results: WireToolResult[] = [];
    for (const call of turn.calls) {
      results.push(
        call.result ?? {
          id: call.wireId,
          name: call.storedName,
          isError: true,
          content: [{ type: "text", text: SYNTHESIZED_RESULT_TEXT }],
        },
      );
    }
    if (target.toolsOffered) {
      out.push({ role: "toolResults", results });
    } else {
      for (const result of results) pushUser(resultAsText(result));
    }
    for (const content of turn.deferred) pushUser(content);
    turn = undefined;
  };

  const onAssistant = (message: AssistantMessage): void => {
    closeTurn();
    // An errored or aborted turn keeps only its visible text: its thinking may be
    // unsigned and its calls never ran, so results that follow it are dropped too.
    const broken = message.stopReason === "error" || message.stopReason === "aborted";
    const own = sameModel(message, target);
    const blocks: WireAssistantBlock[] = [];
    const calls: OpenCall[] = [];
    for (const block of message.content) {
      if (block.type === "text") {
        if (!isBlank(block.text)) blocks.push({ type: "text", text: sanitizeSurrogates(block.text) });
      } else if (block.type === "thinking") {
        if (broken) continue;
        if (own) {
          const policy = target.ownThinking;
          // Signed thinking goes back byte-for-byte: no sanitizing, no trimming.
          if (block.signature) {
            if (policy.signed === "keep") {
              blocks.push({ type: "thinking", thinking: block.thinking, signature: block.signature, redacted: block.redacted === true });
            }
          } else if (!block.redacted && !isBlank(block.thinking) && policy.unsigned !== "drop") {
            const text = sanitizeSurrogates(block.thinking);
            blocks.push(policy.unsigned === "keep" ? { type: "thinking", thinking: text, redacted: false } : { type: "text", text });
          }
        } else if (!block.redacted && !isBlank(block.thinking)) {
          blocks.push({ type: "text", text: sanitizeSurrogates(block.thinking) });
        }
      } else {
        if (broken) continue;
        if (!target.toolsOffered) {
          blocks.push({ type: "text", text: callAsText(target.toolName(block.name), block.arguments) });
          calls.push({ storedId: block.id, storedName: block.name, wireId: "", args: block.arguments, result: undefined });
          continue;
        }
        let wireId: string;
        let itemId: string | undefined;
        if (own && target.idRule === "responses") {
          const decoded = decodeResponsesToolCallId(block.id);
          wireId = ids.allocate(block.id, decoded.callId);
          // Replay the `fc_…` item id only when the call id survived unchanged and the item id is unique.
          if (
            decoded.itemId !== undefined &&
            wireId === decoded.callId &&
            RESPONSES_ITEM_ID.test(decoded.itemId) &&
            !usedItemIds.has(decoded.itemId)
          ) {
            itemId = decoded.itemId;
            usedItemIds.add(itemId);
          }
        } else {
          wireId = ids.allocate(block.id);
        }
        const name = target.toolName(block.name);
        blocks.push(
          itemId === undefined
            ? { type: "toolCall", id: wireId, name, arguments: block.arguments }
            : { type: "toolCall", id: wireId, itemId, name, arguments: block.arguments },
        );
        calls.push({ storedId: block.id, storedName: block.name, wireId, args: block.arguments, result: undefined });
      }
    }
    if (blocks.length > 0) pushAssistant(blocks);
    if (calls.length > 0) turn = { calls, unanswered: calls.length, deferred: [] };
  };

  const onToolResult = (message: ToolResultMessage): void => {
    // A result answers the first unanswered call with its id in the open turn
    // (same tool name preferred); anything else is an orphan and is dropped.
    if (turn === undefined || turn.unanswered === 0) return;
    let match: OpenCall | undefined;
    for (const call of turn.calls) {
      if (call.result !== undefined || call.storedId !== message.toolCallId) continue;
      if (call.storedName === message.toolName) {
        match = call;
        break;
      }
      match ??= call;
    }
    if (match === undefined) return;
    const content = userBlocks(message.content, target);
    if (content.length === 0) content.push({ type: "text", text: EMPTY_RESULT_TEXT });
    match.result = { id: match.wireId, name: match.storedName, isError: message.isError, content };
    turn.unanswered--;
  };

  const onUser = (message: UserMessage): void => {
    const content = userBlocks(message.content, target);
    if (content.length === 0) return;
    if (turn !== undefined && turn.unanswered > 0) {
      turn.deferred.push(content);
      return;
    }
    closeTurn();
    pushUser(content);
  };

  for (const message of messages) {
    if (message.role === "assistant") onAssistant(message);
    else if (message.role === "toolResult") onToolResult(message);
    else onUser(message);
  }
  closeTurn();

  const shaped = target.toolResultImages ? out : moveResultImages(out);
  const bridged = target.assistantAfterToolResult ? bridgeToolToUser(shaped) : shaped;
  return { messages: frame(bridged), idMap: ids.idMap };
}

/**
 * Chat Completions tool messages carry text only: images in results are replaced
 * by a note and sent right after the results in a user message.
 */
function moveResultImages(messages: WireMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role !== "toolResults") {
      out.push(message);
      continue;
    }
    const images: WireUserBlock[] = [];
    let results = message.results;
    for (let r = 0; r < results.length; r++) {
      const result = results[r];
      if (!result.content.some((b) => b.type === "image")) continue;
      if (results === message.results) results = results.slice();
      const text: WireUserBlock[] = [];
      for (const block of result.content) {
        if (block.type === "image") images.push(block);
        else text.push(block);
      }
      text.push({ type: "text", text: SEE_ATTACHED_IMAGE_TEXT });
      results[r] = { ...result, content: text };
    }
    out.push(results === message.results ? message : { role: "toolResults", results });
    if (images.length === 0) continue;
    const next = messages[i + 1];
    if (next !== undefined && next.role === "user") {
      out.push({ role: "user", content: images.concat(next.content) });
      i++;
    } else {
      out.push({ role: "user", content: images });
    }
  }
  return out;
}

// Mistral: "Unexpected role 'user' after role 'tool'" — bridge with an assistant turn (opencode's "Done.").
function bridgeToolToUser(messages: WireMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    out.push(message);
    const next = messages[i + 1];
    if (message.role === "toolResults" && next !== undefined && next.role === "user") {
      out.push({ role: "assistant", content: [{ type: "text", text: MISTRAL_BRIDGE_TEXT }] });
    }
  }
  return out;
}

/**
 * Anthropic: "messages: first message must use the \"user\" role"; Mistral:
 * "Expected last role User or Tool (or Assistant with prefix True) for serving
 * but got assistant"; newer Claude models reject a prefilled final assistant turn.
 */
function frame(messages: WireMessage[]): WireMessage[] {
  const first = messages[0];
  if (first !== undefined && first.role !== "user") {
    messages.unshift({ role: "user", content: [{ type: "text", text: LEADING_USER_TEXT }] });
  }
  const last = messages[messages.length - 1];
  if (last === undefined || last.role === "assistant") {
    messages.push({ role: "user", content: [{ type: "text", text: CONTINUE_TEXT }] });
  }
  return messages;
}
