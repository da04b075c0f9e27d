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
import type {
  AssistantMessage,
  Message,
  ModelRef,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserContent,
  UserMessage,
} from "../../../../shared/protocol";
import type { RequestRepair } from "../../../../shared/review";
import { decodeResponsesToolCallId } from "./responses-ids";
import { IdAllocator } from "./ids";
import { isBlank, sanitizeArguments, sanitizeSurrogates } from "./text";
import type { TransformResult, TransformTarget, WireAssistantBlock, WireMessage, WireToolResult, WireUserBlock } from "./wire-types";

export const SYNTHESIZED_RESULT_TEXT = "No result was recorded for this tool call (it was interrupted). Do not assume it ran.";
export const EMPTY_RESULT_TEXT = "(no output)";
export const IMAGE_OMITTED_TEXT = "(image omitted: this model does not accept images)";
export const SEE_ATTACHED_IMAGE_TEXT = "(see attached image)";
export const CONTINUE_TEXT = "Continue.";
export const LEADING_USER_TEXT = "(The earlier part of this conversation is omitted.)";
export const MISTRAL_BRIDGE_TEXT = "Done.";

export function imageTypeOmittedText(mimeType: string): string {
  return `(image omitted: this model does not accept ${mimeType} images)`;
}

function refLabel(ref: ModelRef): string {
  return `${ref.provider}/${ref.id}`;
}

/** Where the repairs of one message go (undefined: nobody asked, as on the streaming path). */
type Note = ((kind: RequestRepair["kind"], detail: string) => void) | undefined;

const RESPONSES_ITEM_ID = /^fc[a-zA-Z0-9_-]{0,62}$/;

/** A stored thinking block that has the wire shape already (`redacted` set). */
function isWireThinking(block: ThinkingContent): block is ThinkingContent & { redacted: boolean } {
  return typeof block.redacted === "boolean";
}

function sameModel(message: AssistantMessage, target: TransformTarget): boolean {
  const m = message.model;
  return m.id === target.model.id && m.api === target.model.api && m.provider === target.model.provider;
}

const IMAGE_OMITTED_BLOCK: WireUserBlock = Object.freeze({ type: "text", text: IMAGE_OMITTED_TEXT });
const SEE_ATTACHED_IMAGE_BLOCK: WireUserBlock = Object.freeze({ type: "text", text: SEE_ATTACHED_IMAGE_TEXT });
const MISTRAL_BRIDGE: readonly WireAssistantBlock[] = Object.freeze([Object.freeze({ type: "text" as const, text: MISTRAL_BRIDGE_TEXT })]);
const EMPTY_RESULT_CONTENT: readonly WireUserBlock[] = Object.freeze([Object.freeze({ type: "text" as const, text: EMPTY_RESULT_TEXT })]);
const SYNTHESIZED_CONTENT: readonly WireUserBlock[] = Object.freeze([
  Object.freeze({ type: "text" as const, text: SYNTHESIZED_RESULT_TEXT }),
]);

/**
 * User or result content for the wire. Blocks that need no change are shared
 * with the stored history (never written to), and so is the array when nothing
 * changed: the transform allocates only for what it rewrites.
 */
function userBlocks(content: readonly UserContent[], target: TransformTarget, note: Note): readonly WireUserBlock[] {
  let out: WireUserBlock[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    let next: WireUserBlock | undefined = block;
    if (block.type === "text") {
      if (isBlank(block.text)) next = undefined;
      else {
        const text = sanitizeSurrogates(block.text);
        if (text !== block.text) {
          next = { type: "text", text };
          note?.("surrogatesReplaced", "lone UTF-16 surrogates in the text replaced with U+FFFD");
        }
      }
    } else if (!target.acceptsImages) {
      next = IMAGE_OMITTED_BLOCK;
    } else if (!target.imageTypes.has(block.mimeType)) {
      // Anthropic: "image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'";
      // OpenAI: "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp']."
      next = { type: "text", text: imageTypeOmittedText(block.mimeType) };
      note?.("imageOmitted", `a ${block.mimeType} image was left out: this model takes ${[...target.imageTypes].join(", ")}`);
    }
    if (next !== block && out === undefined) out = content.slice(0, i);
    if (out !== undefined && next !== undefined) out.push(next);
  }
  return out ?? content;
}

function callAsText(name: string, args: Record<string, unknown>): string {
  return `[Tool call: ${name} ${JSON.stringify(args)}]`;
}

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
  private readonly labels = new Map<string, Map<string, string>>();
  readonly out: WireMessage[] = [];
  /**
   * The open turn: the assistant message whose calls wait for results, and
   * one result per call in call order (the j-th result answers the message's
   * j-th tool call). A result is the synthesized one until answered: its
   * content is `SYNTHESIZED_CONTENT` exactly while it waits. Fields of the
   * pass, not an object per turn, and no per-call record: a request re-reads
   * the whole history, so what is made per message is made thousands of times.
   */
  private turnMessage: AssistantMessage | undefined;
  private turnResults: WireToolResult[] | undefined;
  private unanswered = 0;
  /** User messages that arrived while results were still missing; sent after the results (made when needed). */
  private deferred: (readonly WireUserBlock[])[] | undefined;
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
    const results = this.turnResults;
    if (results === undefined) return;
    const deferred = this.deferred;
    this.turnMessage = undefined;
    this.turnResults = undefined;
    this.unanswered = 0;
    this.deferred = undefined;
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
    if (deferred !== undefined) for (const content of deferred) this.pushUser(content);
  }

  assistant(message: AssistantMessage): void {
    this.closeTurn();
    const target = this.target;
    // An errored or aborted turn keeps only its visible text: its thinking may be
    // unsigned and its calls never ran, so results that follow it are dropped too.
    const broken = message.stopReason === "error" || message.stopReason === "aborted";
    const own = sameModel(message, target);
    const note = this.note;
    const content = message.content;
    // Copy on write, as in `userBlocks`: undefined while every block so far goes out as stored.
    let blocks: WireAssistantBlock[] | undefined;
    // One result per call, synthesized until a stored result answers it (see `turnResults`).
    let results: WireToolResult[] | undefined;
    let otherThinking = 0;
    for (let b = 0; b < content.length; b++) {
      const block = content[b];
      // What goes out for this block: itself when unchanged, undefined when left out.
      let next: WireAssistantBlock | undefined;
      if (block.type === "text") {
        if (!isBlank(block.text)) {
          const text = sanitizeSurrogates(block.text);
          if (text !== block.text) note?.("surrogatesReplaced", "lone UTF-16 surrogates in the text replaced with U+FFFD");
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
              note?.(
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
        let wireId = "";
        if (!target.toolsOffered) {
          const args = sanitizeArguments(block.arguments);
          if (args !== block.arguments)
            note?.("surrogatesReplaced", "lone UTF-16 surrogates in a tool call's arguments replaced with U+FFFD");
          next = { type: "text", text: callAsText(target.toolName(block.name), args) };
        } else {
          const wire = this.toolCall(block, own);
          wireId = wire.id;
          next = wire;
        }
        const result: WireToolResult = { id: wireId, name: block.name, isError: true, content: SYNTHESIZED_CONTENT };
        // A literal for the first call: an empty array's first push reserves room for 16.
        if (results === undefined) results = [result];
        else results.push(result);
      }
      if (next !== block && blocks === undefined) blocks = content.slice(0, b) as WireAssistantBlock[];
      if (blocks !== undefined && next !== undefined) blocks.push(next);
    }
    if (otherThinking > 0 && note !== undefined) {
      const what = `${otherThinking} reasoning block${otherThinking === 1 ? "" : "s"} by ${this.label(message.model)}`;
      if (target.otherThinking === "text")
        note("otherReasoningDemoted", `${what} sent as plain text (the demotion setting is on); signatures left out`);
      else note("otherReasoningDropped", `${what} left out: only ${this.label(target.model)}'s own reasoning is sent back to it`);
    }
    // Every block went out as stored: so does the array (the builders only read it).
    const out = blocks ?? (content as readonly WireAssistantBlock[]);
    if (out.length > 0) this.pushAssistant(out);
    if (results !== undefined) {
      this.turnMessage = message;
      this.turnResults = results;
      this.unanswered = results.length;
    }
  }

  /** A tool call for the wire (tools offered): its id allocated, its name mapped; the stored block when nothing changes. */
  private toolCall(block: ToolCall, own: boolean): WireAssistantBlock & { type: "toolCall" } {
    const target = this.target;
    let wireId: string;
    let itemId: string | undefined;
    if (own && target.idRule === "responses") {
      const decoded = decodeResponsesToolCallId(block.id);
      wireId = this.ids.allocate(block.id, decoded.callId);
      // Replay the `fc_…` item id only when the call id survived unchanged and the item id is unique.
      if (
        decoded.itemId !== undefined &&
        wireId === decoded.callId &&
        RESPONSES_ITEM_ID.test(decoded.itemId) &&
        !this.usedItemIds.has(decoded.itemId)
      ) {
        itemId = decoded.itemId;
        this.usedItemIds.add(itemId);
      }
    } else {
      wireId = this.ids.allocate(block.id);
    }
    const name = target.toolName(block.name);
    // Histories from an import or another tool may hold lone surrogates in arguments:
    // Anthropic refuses the whole body ("no low surrogate in string").
    const args = sanitizeArguments(block.arguments);
    if (args !== block.arguments)
      this.note?.("surrogatesReplaced", `lone UTF-16 surrogates in the arguments of a ${name} call replaced with U+FFFD`);
    if (itemId !== undefined) return { type: "toolCall", id: wireId, itemId, name, arguments: args };
    // The stored block has the wire shape: shared when nothing about it changes (the usual case)
    // and it carries none of the stored-only fields about unparsable arguments.
    const same = wireId === block.id && name === block.name && args === block.arguments;
    return same && block.rawArguments === undefined && block.argumentsError === undefined
      ? block
      : { type: "toolCall", id: wireId, name, arguments: args };
  }

  /** `provider/id` of a model, made once per model per pass (one repair line per message names it). */
  private label(ref: ModelRef): string {
    let byId = this.labels.get(ref.provider);
    if (byId === undefined) this.labels.set(ref.provider, (byId = new Map<string, string>()));
    let label = byId.get(ref.id);
    if (label === undefined) byId.set(ref.id, (label = refLabel(ref)));
    return label;
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
    const results = this.turnResults;
    const calls = this.turnMessage?.content;
    if (results === undefined || calls === undefined || this.unanswered === 0) return;
    let match: WireToolResult | undefined;
    // The j-th result belongs to the j-th tool call of the message.
    for (let b = 0, j = 0; b < calls.length && j < results.length; b++) {
      const call = calls[b];
      if (call.type !== "toolCall") continue;
      const result = results[j++];
      if (result.content !== SYNTHESIZED_CONTENT || call.id !== message.toolCallId) continue;
      if (call.name === message.toolName) {
        match = result;
        break;
      }
      match ??= result;
    }
    if (match === undefined) return;
    const content = userBlocks(message.content, this.target, this.note);
    match.isError = message.isError;
    match.content = content.length > 0 ? content : EMPTY_RESULT_CONTENT;
    this.unanswered--;
  }

  user(message: UserMessage): void {
    const content = userBlocks(message.content, this.target, this.note);
    if (content.length === 0) return;
    if (this.turnResults !== undefined && this.unanswered > 0) {
      (this.deferred ??= []).push(content);
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
