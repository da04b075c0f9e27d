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
 *   left out (or, with `otherThinking: "text"`, plain text without tags: tags
 *   invite the model to imitate them, pi's finding); other models' redacted
 *   thinking is always dropped;
 * - no lone surrogate in any text, tool argument or tool name; images only of
 *   the target's media types (others become a text note);
 * - no blank text, no empty message, no two user or two assistant entries in a
 *   row; the first entry is a user message and so is the last (or toolResults).
 */
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from "../../../../shared/protocol";
import type { RequestRepair } from "../../../../shared/review";
import { IdAllocator } from "./ids";
import { assistantPlan, contentPlan, type PlanNote } from "./message-plans";
import { sanitizeSurrogates } from "./text";
import type { TransformResult, TransformTarget, WireAssistantBlock, WireMessage, WireToolResult, WireUserBlock } from "./wire-types";

export { IMAGE_OMITTED_TEXT, imageTypeOmittedText } from "./message-plans";

export const SYNTHESIZED_RESULT_TEXT = "No result was recorded for this tool call (it was interrupted). Do not assume it ran.";
export const EMPTY_RESULT_TEXT = "(no output)";
export const SEE_ATTACHED_IMAGE_TEXT = "(see attached image)";
export const CONTINUE_TEXT = "Continue.";
export const LEADING_USER_TEXT = "(The earlier part of this conversation is omitted.)";
export const MISTRAL_BRIDGE_TEXT = "Done.";

/** Where the repairs of one message go (undefined: nobody asked, as on the streaming path). */
type Note = ((kind: RequestRepair["kind"], detail: string) => void) | undefined;

interface OpenCall {
  storedId: string;
  storedName: string;
  wireId: string;
  result: WireToolResult | undefined;
}

interface OpenTurn {
  calls: OpenCall[];
  unanswered: number;
  /** User messages that arrived while results were still missing; sent after the results (made when needed). */
  deferred: (readonly WireUserBlock[])[] | undefined;
}

const SEE_ATTACHED_IMAGE_BLOCK: WireUserBlock = Object.freeze({ type: "text", text: SEE_ATTACHED_IMAGE_TEXT });
const MISTRAL_BRIDGE: readonly WireAssistantBlock[] = Object.freeze([Object.freeze({ type: "text" as const, text: MISTRAL_BRIDGE_TEXT })]);
const EMPTY_RESULT_CONTENT: readonly WireUserBlock[] = Object.freeze([Object.freeze({ type: "text" as const, text: EMPTY_RESULT_TEXT })]);
const SYNTHESIZED_CONTENT: readonly WireUserBlock[] = Object.freeze([
  Object.freeze({ type: "text" as const, text: SYNTHESIZED_RESULT_TEXT }),
]);

function resultAsText(result: WireToolResult): WireUserBlock[] {
  const header = `[Tool result for ${sanitizeSurrogates(result.name)}${result.isError ? " (error)" : ""}]`;
  const blocks: WireUserBlock[] = [{ type: "text", text: header }];
  for (const block of result.content) blocks.push(block);
  return blocks;
}

/** One request's pass over the history (a class rather than closures: this is the hot path). */
export class HistoryPass {
  private readonly ids: IdAllocator;
  private readonly usedItemIds = new Set<string>();
  readonly out: WireMessage[] = [];
  private turn: OpenTurn | undefined;
  /** Index of the message being read (repairs name it). */
  private reading = 0;
  /** Reports a repair of the message being read; undefined when nobody collects repairs (made once per pass, not per message). */
  private readonly note: Note;

  /** `repairs`: where to report what the pass leaves out or changes (the pure path asks; the streaming path does not). */
  constructor(
    private readonly target: TransformTarget,
    repairs?: RequestRepair[],
  ) {
    this.ids = new IdAllocator(target.idRule);
    this.note = repairs === undefined ? undefined : (kind, detail) => this.addRepair(repairs, kind, detail);
  }

  /**
   * One line per kind and message is enough for the reviewer. Repairs are
   * appended in message order, so a duplicate can only be among the last
   * entries (those of the message being read): no scan of the whole list.
   */
  private addRepair(repairs: RequestRepair[], kind: RequestRepair["kind"], detail: string): void {
    const messageIndex = this.reading;
    for (let i = repairs.length - 1; i >= 0 && repairs[i].messageIndex === messageIndex; i--) {
      if (repairs[i].kind === kind) return;
    }
    repairs.push({ kind, messageIndex, detail });
  }

  get idMap(): ReadonlyMap<string, string> {
    return this.ids.idMap;
  }

  private pushUser(content: readonly WireUserBlock[]): void {
    const last = this.out[this.out.length - 1];
    if (last !== undefined && last.role === "user") {
      last.content = last.content.concat(content);
      return;
    }
    // Mistral: "Unexpected role 'user' after role 'tool'" — bridge with an assistant turn (opencode's "Done.").
    if (last !== undefined && last.role === "toolResults" && this.target.assistantAfterToolResult) {
      this.out.push({ role: "assistant", content: MISTRAL_BRIDGE });
    }
    this.out.push({ role: "user", content });
  }

  private pushAssistant(content: readonly WireAssistantBlock[]): void {
    const last = this.out[this.out.length - 1];
    if (last !== undefined && last.role === "assistant") last.content = last.content.concat(content);
    else this.out.push({ role: "assistant", content });
  }

  closeTurn(): void {
    const turn = this.turn;
    if (turn === undefined) return;
    this.turn = undefined;
    const results: WireToolResult[] = [];
    for (const call of turn.calls) {
      results.push(call.result ?? { id: call.wireId, name: call.storedName, isError: true, content: SYNTHESIZED_CONTENT });
    }
    if (!this.target.toolsOffered) {
      for (const result of results) this.pushUser(resultAsText(result));
    } else if (this.target.toolResultImages) {
      this.out.push({ role: "toolResults", results });
    } else {
      // Tool messages are text only ("Invalid value: 'image_url'. Supported values are: 'text'."): images follow in a user message.
      const images = moveResultImages(results);
      this.out.push({ role: "toolResults", results });
      if (images.length > 0) this.pushUser(images);
    }
    if (turn.deferred !== undefined) for (const content of turn.deferred) this.pushUser(content);
  }

  /** Reports a plan's repairs against the message being read. */
  private report(notes: readonly PlanNote[]): void {
    const note = this.note;
    if (note !== undefined) for (let i = 0; i < notes.length; i++) note(notes[i].kind, notes[i].detail);
  }

  assistant(message: AssistantMessage): void {
    this.closeTurn();
    const plan = assistantPlan(message, this.target);
    this.report(plan.notes);
    const planned = plan.calls;
    let blocks = plan.blocks;
    let copied = false;
    const calls: OpenCall[] = [];
    for (let c = 0; c < planned.length; c++) {
      const call = planned[c];
      if (call.index < 0) {
        // No tools offered: the call travels as text, its result too.
        calls.push({ storedId: call.storedId, storedName: call.storedName, wireId: "", result: undefined });
        continue;
      }
      const wireId = this.ids.allocate(call.storedId, call.preferred);
      let itemId: string | undefined;
      if (call.itemId !== undefined && wireId === call.preferred && !this.usedItemIds.has(call.itemId)) {
        itemId = call.itemId;
        this.usedItemIds.add(itemId);
      }
      calls.push({ storedId: call.storedId, storedName: call.storedName, wireId, result: undefined });
      // The planned block carries the natural id: kept unless this request already used that id (or item id).
      if (wireId === call.naturalId && itemId === call.itemId) continue;
      if (!copied) {
        blocks = blocks.slice();
        copied = true;
      }
      (blocks as WireAssistantBlock[])[call.index] =
        itemId !== undefined
          ? { type: "toolCall", id: wireId, itemId, name: call.name, arguments: call.args }
          : { type: "toolCall", id: wireId, name: call.name, arguments: call.args };
    }
    if (blocks.length > 0) this.pushAssistant(blocks);
    if (planned.length > 0) this.turn = { calls, unanswered: calls.length, deferred: undefined };
  }

  /** Feeds one message. */
  push(message: Message): void {
    if (message.role === "assistant") this.assistant(message);
    else if (message.role === "toolResult") this.toolResult(message);
    else this.user(message);
    this.reading++;
  }

  /**
   * Feeds every message and closes the last turn. The loop lives here, in a
   * method that does nothing after it: V8 optimises a long loop on stack
   * (OSR) and reuses that code on the next call, and code after the loop that
   * had not run yet when it was compiled deoptimised it on every request.
   */
  pushAll(messages: readonly Message[]): void {
    for (let i = 0; i < messages.length; i++) this.push(messages[i]);
    this.closeTurn();
  }

  /** Closes the open turn and returns the framed history (a new array; the pass's entries are shared, read-only). */
  finish(): WireMessage[] {
    this.closeTurn();
    return frame(this.out.slice());
  }

  toolResult(message: ToolResultMessage): void {
    // A result answers the first unanswered call with its id in the open turn
    // (same tool name preferred); anything else is an orphan and is dropped.
    const turn = this.turn;
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
    const plan = contentPlan(message, this.target);
    this.report(plan.notes);
    const content = plan.content;
    match.result = {
      id: match.wireId,
      name: match.storedName,
      isError: message.isError,
      content: content.length > 0 ? content : EMPTY_RESULT_CONTENT,
    };
    turn.unanswered--;
  }

  user(message: UserMessage): void {
    const plan = contentPlan(message, this.target);
    this.report(plan.notes);
    const content = plan.content;
    if (content.length === 0) return;
    if (this.turn !== undefined && this.turn.unanswered > 0) {
      (this.turn.deferred ??= []).push(content);
      return;
    }
    this.closeTurn();
    this.pushUser(content);
  }
}

export function transformHistory(messages: readonly Message[], target: TransformTarget): TransformResult {
  const repairs: RequestRepair[] = [];
  const pass = new HistoryPass(target, repairs);
  pass.pushAll(messages);
  return { messages: frame(pass.out), idMap: pass.idMap, repairs };
}

/** Takes the images out of results (in place: the results are this pass's own objects), leaving a note. */
function moveResultImages(results: WireToolResult[]): WireUserBlock[] {
  const images: WireUserBlock[] = [];
  for (let r = 0; r < results.length; r++) {
    const result = results[r];
    if (!result.content.some((b) => b.type === "image")) continue;
    const text: WireUserBlock[] = [];
    for (const block of result.content) {
      if (block.type === "image") images.push(block);
      else text.push(block);
    }
    text.push(SEE_ATTACHED_IMAGE_BLOCK);
    results[r] = { ...result, content: text };
  }
  return images;
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
