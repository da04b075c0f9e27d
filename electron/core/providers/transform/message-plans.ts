/**
 * The part of the boundary transform that depends only on one stored message
 * and the target: which blocks go out and how, and the repairs to report.
 * What depends on the rest of the history (tool-call id allocation, pairing
 * results with calls, merging neighbours) is done by the pass
 * (transform.ts) with the plan in hand.
 *
 * Every request re-sends the whole history, so plans are memoised per stored
 * message and target (`TransformTarget.memoKey`), but only for frozen
 * messages: the session journal deep-freezes what it stores, so a memoised
 * plan cannot go stale. Unfrozen messages are planned afresh every time, by
 * the same functions.
 */
import type { AssistantMessage, Message, ThinkingContent, ToolCall, UserContent } from "../../../../shared/protocol";
import type { RequestRepair } from "../../../../shared/review";
import { naturalWireId } from "./ids";
import { decodeResponsesToolCallId } from "./responses-ids";
import { isBlank, sanitizeArguments, sanitizeSurrogates } from "./text";
import type { TransformTarget, WireAssistantBlock, WireUserBlock } from "./wire-types";

export const IMAGE_OMITTED_TEXT = "(image omitted: this model does not accept images)";

export function imageTypeOmittedText(mimeType: string): string {
  return `(image omitted: this model does not accept ${mimeType} images)`;
}

const IMAGE_OMITTED_BLOCK: WireUserBlock = Object.freeze({ type: "text", text: IMAGE_OMITTED_TEXT });
const RESPONSES_ITEM_ID = /^fc[a-zA-Z0-9_-]{0,62}$/;
const NO_NOTES: readonly PlanNote[] = Object.freeze([]);

/** A repair of the message, reported by the pass with the message's index. */
export interface PlanNote {
  kind: RequestRepair["kind"];
  detail: string;
}

/** User or result content as it goes out. */
export interface ContentPlan {
  content: readonly WireUserBlock[];
  notes: readonly PlanNote[];
}

/** One tool call of an assistant message. */
export interface CallPlan {
  storedId: string;
  storedName: string;
  /** Index of its block in `AssistantPlan.blocks`; -1 when calls travel as text (no tools offered). */
  index: number;
  /** The id asked for first (a Responses call's `call_id` part); undefined: the stored id. */
  preferred: string | undefined;
  /** The wire id the planned block carries: what the call gets when that id is still free in the request. */
  naturalId: string;
  /** The Responses `fc_…` item id the planned block replays, when it is still unused in the request. */
  itemId: string | undefined;
  name: string;
  args: Record<string, unknown>;
}

export interface AssistantPlan {
  /** The blocks as they go out, tool calls with their natural ids (the stored array when nothing changes). */
  blocks: readonly WireAssistantBlock[];
  calls: readonly CallPlan[];
  notes: readonly PlanNote[];
}

/** Collects notes, allocating only when there is one. */
class Notes {
  list: PlanNote[] | undefined;
  add(kind: RequestRepair["kind"], detail: string): void {
    (this.list ??= []).push({ kind, detail });
  }
  done(): readonly PlanNote[] {
    return this.list ?? NO_NOTES;
  }
}

/**
 * User or result content for the wire. Blocks that need no change are shared
 * with the stored history (never written to), and so is the array when nothing
 * changed: only what is rewritten is allocated.
 */
function planContent(content: readonly UserContent[], target: TransformTarget): ContentPlan {
  let out: WireUserBlock[] | undefined;
  const notes = new Notes();
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    let next: WireUserBlock | undefined = block;
    if (block.type === "text") {
      if (isBlank(block.text)) next = undefined;
      else {
        const text = sanitizeSurrogates(block.text);
        if (text !== block.text) {
          next = { type: "text", text };
          notes.add("surrogatesReplaced", "lone UTF-16 surrogates in the text replaced with U+FFFD");
        }
      }
    } else if (!target.acceptsImages) {
      next = IMAGE_OMITTED_BLOCK;
    } else if (!target.imageTypes.has(block.mimeType)) {
      // Anthropic: "image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'";
      // OpenAI: "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp']."
      next = { type: "text", text: imageTypeOmittedText(block.mimeType) };
      notes.add("imageOmitted", `a ${block.mimeType} image was left out: this model takes ${[...target.imageTypes].join(", ")}`);
    }
    if (next !== block && out === undefined) out = content.slice(0, i);
    if (out !== undefined && next !== undefined) out.push(next);
  }
  return { content: out ?? content, notes: notes.done() };
}

/** A stored thinking block that has the wire shape already (`redacted` set). */
function isWireThinking(block: ThinkingContent): block is ThinkingContent & { redacted: boolean } {
  return typeof block.redacted === "boolean";
}

function sameModel(message: AssistantMessage, target: TransformTarget): boolean {
  const m = message.model;
  return m.id === target.model.id && m.api === target.model.api && m.provider === target.model.provider;
}

function callAsText(name: string, args: Record<string, unknown>): string {
  return `[Tool call: ${name} ${JSON.stringify(args)}]`;
}

/** A tool call's plan and its block with the natural id (the stored block when nothing about it changes). */
function planCall(
  block: ToolCall,
  index: number,
  own: boolean,
  target: TransformTarget,
  notes: Notes,
): { call: CallPlan; block: WireAssistantBlock } {
  let preferred: string | undefined;
  let candidateItem: string | undefined;
  if (own && target.idRule === "responses") {
    const decoded = decodeResponsesToolCallId(block.id);
    preferred = decoded.callId;
    candidateItem = decoded.itemId;
  }
  const naturalId = naturalWireId(preferred ?? block.id, target.idRule);
  const name = target.toolName(block.name);
  // Histories from an import or another tool may hold lone surrogates in arguments:
  // Anthropic refuses the whole body ("no low surrogate in string").
  const args = sanitizeArguments(block.arguments);
  if (args !== block.arguments)
    notes.add("surrogatesReplaced", `lone UTF-16 surrogates in the arguments of a ${name} call replaced with U+FFFD`);
  // Replay the `fc_…` item id only when the call id survives unchanged (and, at emit time, the item id is unused).
  const itemId =
    candidateItem !== undefined && naturalId === preferred && RESPONSES_ITEM_ID.test(candidateItem) ? candidateItem : undefined;
  const call: CallPlan = { storedId: block.id, storedName: block.name, index, preferred, naturalId, itemId, name, args };
  if (itemId !== undefined) return { call, block: { type: "toolCall", id: naturalId, itemId, name, arguments: args } };
  // The stored block has the wire shape: shared when nothing about it changes (the usual case)
  // and it carries none of the stored-only fields about unparsable arguments.
  const same = naturalId === block.id && name === block.name && args === block.arguments;
  return {
    call,
    block:
      same && block.rawArguments === undefined && block.argumentsError === undefined
        ? block
        : { type: "toolCall", id: naturalId, name, arguments: args },
  };
}

function planAssistant(message: AssistantMessage, target: TransformTarget): AssistantPlan {
  // An errored or aborted turn keeps only its visible text: its thinking may be
  // unsigned and its calls never ran, so results that follow it are dropped too.
  const broken = message.stopReason === "error" || message.stopReason === "aborted";
  const own = sameModel(message, target);
  const content = message.content;
  const notes = new Notes();
  // Copy on write, as in `planContent`: undefined while every block so far goes out as stored.
  let blocks: WireAssistantBlock[] | undefined;
  let calls: CallPlan[] | undefined;
  let otherThinking = 0;
  for (let b = 0; b < content.length; b++) {
    const block = content[b];
    // What goes out for this block: itself when unchanged, undefined when left out.
    let next: WireAssistantBlock | undefined;
    if (block.type === "text") {
      if (!isBlank(block.text)) {
        const text = sanitizeSurrogates(block.text);
        if (text !== block.text) notes.add("surrogatesReplaced", "lone UTF-16 surrogates in the text replaced with U+FFFD");
        next = text === block.text ? block : { type: "text", text };
      }
    } else if (block.type === "thinking") {
      if (broken) {
        // left out
      } else if (own) {
        const policy = target.ownThinking;
        // Signed thinking goes back byte-for-byte: no sanitizing, no trimming.
        if (block.signature) {
          if (policy.signed === "keep" && sanitizeSurrogates(block.thinking) !== block.thinking) {
            // Cleaning it would void the signature; sending it is refused ("no low surrogate in string").
            notes.add(
              "surrogatesReplaced",
              "a signed reasoning block with lone UTF-16 surrogates left out: it cannot be cleaned without voiding its signature",
            );
          } else if (policy.signed === "keep") {
            next = isWireThinking(block)
              ? block
              : { type: "thinking", thinking: block.thinking, signature: block.signature, redacted: block.redacted === true };
          }
        } else if (!block.redacted && !isBlank(block.thinking) && policy.unsigned !== "drop") {
          const text = sanitizeSurrogates(block.thinking);
          next = policy.unsigned === "keep" ? { type: "thinking", thinking: text, redacted: false } : { type: "text", text };
        }
      } else {
        // Another model's reasoning: its signature is meaningless here, and Anthropic refuses
        // reasoning passed off as text ("Refusal (reasoning_extraction)"); the visible text and
        // the tool calls carry what the user saw.
        otherThinking++;
        if (target.otherThinking === "text" && !block.redacted && !isBlank(block.thinking)) {
          next = { type: "text", text: sanitizeSurrogates(block.thinking) };
        }
      }
    } else if (!broken) {
      calls ??= [];
      // Its index among the blocks that go out: those kept so far.
      const index = blocks === undefined ? b : blocks.length;
      if (!target.toolsOffered) {
        const args = sanitizeArguments(block.arguments);
        if (args !== block.arguments)
          notes.add("surrogatesReplaced", "lone UTF-16 surrogates in a tool call's arguments replaced with U+FFFD");
        next = { type: "text", text: callAsText(target.toolName(block.name), args) };
        calls.push({
          storedId: block.id,
          storedName: block.name,
          index: -1,
          preferred: undefined,
          naturalId: "",
          itemId: undefined,
          name: block.name,
          args,
        });
      } else {
        const planned = planCall(block, index, own, target, notes);
        calls.push(planned.call);
        next = planned.block;
      }
    }
    if (next !== block && blocks === undefined) blocks = content.slice(0, b) as WireAssistantBlock[];
    if (blocks !== undefined && next !== undefined) blocks.push(next);
  }
  if (otherThinking > 0) {
    const m = message.model;
    const what = `${otherThinking} reasoning block${otherThinking === 1 ? "" : "s"} by ${m.provider}/${m.id}`;
    if (target.otherThinking === "text")
      notes.add("otherReasoningDemoted", `${what} sent as plain text (the demotion setting is on); signatures left out`);
    else
      notes.add(
        "otherReasoningDropped",
        `${what} left out: only ${target.model.provider}/${target.model.id}'s own reasoning is sent back to it`,
      );
  }
  // Every block went out as stored: so does the array (the builders only read it).
  return { blocks: blocks ?? (content as readonly WireAssistantBlock[]), calls: calls ?? [], notes: notes.done() };
}

interface Memo {
  key: string;
  plan: AssistantPlan | ContentPlan;
}

/** Plans of frozen stored messages, for the last target each was planned for. */
const memo = new WeakMap<Message, Memo>();

function memoised<P extends AssistantPlan | ContentPlan>(message: Message, target: TransformTarget, make: () => P): P {
  const key = target.memoKey;
  if (key === undefined || !Object.isFrozen(message)) return make();
  const hit = memo.get(message);
  if (hit !== undefined && hit.key === key) return hit.plan as P;
  const plan = make();
  memo.set(message, { key, plan });
  return plan;
}

export function assistantPlan(message: AssistantMessage, target: TransformTarget): AssistantPlan {
  return memoised(message, target, () => planAssistant(message, target));
}

/** The plan of a user message's or a tool result's content. */
export function contentPlan(message: Message & { content: readonly UserContent[] }, target: TransformTarget): ContentPlan {
  return memoised(message, target, () => planContent(message.content, target));
}
