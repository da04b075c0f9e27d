/**
 * "What the model saw": the request body behind a stored assistant message as
 * it was recorded when sent (byte for byte, whatever changed since: AGENTS.md,
 * MCP servers, settings, the catalog). For a step without a record (sessions
 * stored before requests were recorded, imports) it is rebuilt, and says so,
 * with the loop's own context builder
 * (agent/request-context.ts): the history before it through `viewOf` (agent/context.ts),
 * the tool specs, the model stored on the message, then the pure request
 * builder with its boundary transform. Pure given its inputs.
 *
 * The system prompt's date comes from the time of the request: the timestamp
 * of the last message (or compaction) stored before the assistant message,
 * which the loop appended just before sending.
 *
 * It also lists what the request left out of or changed in the stored history
 * (other models' reasoning, repaired strings, images of types the model does
 * not take…), each with the entry it concerns.
 */
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import type { AssistantMessage, ModelRef, ReasoningLevel, StoredEntry } from "../../../shared/protocol";
import type { ModelView, PromptSource } from "../../../shared/review";
import { viewOf } from "../agent/context";
import { RequestContextBuilder } from "../agent/request-context";
import { buildRequest } from "../providers/requests";
import type { ToolSpec } from "../providers/types";
import { modelLabel } from "./timeline";
import type { ReviewResult } from "./result";

export interface ModelViewInput {
  /** The session's id: the loop sends it as the prompt-cache key where the API takes one. */
  sessionId?: string;
  /** The session's setting: other models' reasoning sent as text (never to Anthropic). */
  demoteOtherReasoning?: boolean;
  workspaceRoot: string;
  platform: string;
  /** The tools the session offers (the loop's `tools.specs()`). */
  toolSpecs: readonly ToolSpec[];
  /** The AGENTS.md section for a request made after `before` (the loop's instructions for the files touched by then). */
  instructions?(before: readonly StoredEntry[]): string;
  /** The files and images that reached the request made after `before` without a tool call (review/prompt-sources.ts). */
  sources?(before: readonly StoredEntry[]): PromptSource[];
  /** Ask mode at the time of the request made after `before`. */
  modeAt?(before: readonly StoredEntry[]): "agent" | "ask";
  /** Tools whose tier is side effect (Ask mode offers the others only). */
  isSideEffect?(name: string): boolean;
  /** The catalog's model and provider for a stored model ref. */
  resolve(ref: ModelRef): { model: ModelInfo; provider: ProviderConfig } | undefined;
  /** The body recorded when the request behind entry `seq` was sent (store/request-records.ts); undefined: none was. */
  recorded?(seq: number): string | undefined;
}

export function modelViewAt(entries: readonly StoredEntry[], seq: number, input: ModelViewInput): ReviewResult<ModelView> {
  const index = entries.findIndex((e) => e.seq === seq);
  if (index < 0) return { ok: false, error: { code: "NOT_FOUND", message: `no entry #${seq} in this session` } };
  const target = entries[index].entry;
  if (target.type !== "message" || target.message.role !== "assistant") {
    const kind = target.type === "message" ? target.message.role : target.type;
    return { ok: false, error: { code: "INVALID_REQUEST", message: `entry #${seq} is a ${kind} entry, not an assistant message` } };
  }
  const message = target.message;
  const before = entries.slice(0, index);
  const requestTime = requestTimeOf(before) ?? message.timestamp;
  const sources = input.sources?.(before) ?? [];
  const resolved = input.resolve(message.model);
  const recorded = input.recorded?.(seq);
  if (recorded !== undefined) {
    // What went out; a rebuild (when the model is still known) only names the wire ids and the repairs.
    const rebuilt = resolved ? rebuild(before, message, resolved, requestTime, input) : undefined;
    const { idMap, toolNames, repairs } = rebuilt?.ok ? rebuilt.value : { idMap: {}, toolNames: {}, repairs: [] };
    return {
      ok: true,
      value: {
        seq,
        model: message.model,
        body: parseBody(recorded),
        recorded: true,
        raw: recorded,
        requestTime,
        sources,
        idMap,
        toolNames,
        repairs,
      },
    };
  }
  if (!resolved) {
    return {
      ok: false,
      error: {
        code: "UNSUPPORTED",
        message: `model ${modelLabel(message.model)} is no longer in the model catalog and this request was not recorded (the session predates recording); it cannot be rebuilt`,
      },
    };
  }
  const rebuilt = rebuild(before, message, resolved, requestTime, input);
  if (!rebuilt.ok) return rebuilt;
  const { body, ...parts } = rebuilt.value;
  return { ok: true, value: { seq, model: message.model, body, recorded: false, requestTime, sources, ...parts } };
}

/** A recorded body is JSON on every wire we speak; anything else is shown as the text it was. */
function parseBody(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

type Rebuilt = Pick<ModelView, "body" | "idMap" | "toolNames" | "repairs">;

/** The request rebuilt from the stored entries with the loop's builders and today's instructions, tools and settings. */
function rebuild(
  before: readonly StoredEntry[],
  message: AssistantMessage,
  resolved: { model: ModelInfo; provider: ProviderConfig },
  requestTime: number,
  input: ModelViewInput,
): ReviewResult<Rebuilt> {
  const mode = input.modeAt?.(before) ?? "agent";
  const isSideEffect = (name: string) => input.isSideEffect?.(name) ?? false;
  const view = viewOf(before);
  const offered = new RequestContextBuilder({ workspaceRoot: input.workspaceRoot, platform: input.platform, isSideEffect }).build({
    model: resolved.model,
    now: requestTime,
    tools: [...input.toolSpecs],
    mode,
    instructions: input.instructions?.(before) ?? "",
    history: view.messages,
  });
  // The answer to a turn's final request at a limit was asked for without tools.
  const context = message.limit ? { ...offered, tools: [] } : offered;
  try {
    const reasoning = reasoningAt(before);
    const built = buildRequest(resolved.model, resolved.provider, context, {
      demoteOtherReasoning: input.demoteOtherReasoning === true,
      reasoning: reasoning === "default" ? undefined : reasoning,
      ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    });
    const seqs = view.seqs;
    const repairs = built.repairs.map((r) => ({ ...r, seq: r.messageIndex === null ? null : (seqs[r.messageIndex] ?? null) }));
    return { ok: true, value: { body: built.body, idMap: Object.fromEntries(built.idMap), toolNames: built.toolNames, repairs } };
  } catch (e) {
    // The builders are pure and should not throw; if one does, report it rather than crash the request.
    return {
      ok: false,
      error: { code: "INTERNAL", message: `could not rebuild the request: ${e instanceof Error ? e.message : String(e)}` },
    };
  }
}

/** The session's reasoning level when the request was sent: the last change before it (sessions start at "default"). */
function reasoningAt(before: readonly StoredEntry[]): ReasoningLevel {
  for (let i = before.length - 1; i >= 0; i--) {
    const e = before[i].entry;
    if (e.type === "reasoningChange") return e.to;
  }
  return "default";
}

function requestTimeOf(before: readonly StoredEntry[]): number | null {
  for (let i = before.length - 1; i >= 0; i--) {
    const e = before[i].entry;
    if (e.type === "message") return e.message.timestamp;
    if (e.type === "compaction") return e.timestamp;
  }
  return null;
}
