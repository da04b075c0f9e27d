/**
 * What a recorded response says, read straight from its chunks with no state
 * machine (a second, plain reading to hold the adapters to): the text and the
 * reasoning concatenated, the signatures, the tool calls with their parsed
 * arguments, the stop reason and the token counts, on each wire's own terms.
 */
import type { StopReason } from "../../shared/protocol";
import type { Wire } from "./recorded-replay";

export interface ExpectedCall {
  /** The provider's id (Responses: the call_id), when it sent one. */
  id?: string;
  name: string;
  arguments: unknown;
}

export interface Expected {
  text: string;
  thinking: string;
  /** Signatures (and redacted data, encrypted reasoning) that must be stored byte for byte. */
  signatures: string[];
  calls: ExpectedCall[];
  stopReason: StopReason;
  /** True when the response must end as a failure a retry may fix. */
  retryable?: boolean;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number; reasoningTokens?: number };
  /** Anthropic's `stop_details` (a refusal's category and explanation). */
  stopDetails?: { category?: string; explanation?: string };
}

type Chunk = Record<string, unknown>;
const rec = (v: unknown): Chunk => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Chunk) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

function parseArgs(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { unparsable: text };
  }
}

export function expectedOf(wire: Wire, chunks: Chunk[], reasoningField?: "reasoning_content" | "reasoning" | "none"): Expected {
  switch (wire) {
    case "anthropic":
      return anthropic(chunks);
    case "responses":
      return responses(chunks);
    case "chat":
      return chat(chunks, reasoningField ?? "none");
    case "gemini":
      return gemini(chunks);
    case "bedrock":
      return bedrock(chunks);
  }
}

const ANTHROPIC_STOP: Record<string, StopReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  tool_use: "toolUse",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "error",
};

function anthropic(chunks: Chunk[]): Expected {
  const out: Expected = { text: "", thinking: "", signatures: [], calls: [], stopReason: "error", usage: zero() };
  const blocks = new Map<number, { type: string; sig: string; args: string; call?: ExpectedCall }>();
  let firstId: string | undefined;
  for (const chunk of chunks) {
    const type = str(chunk.type);
    if (type === "message_start") {
      const message = rec(chunk.message);
      if (firstId !== undefined && (message.id !== firstId || blocks.size > 0)) {
        // Another message began inside this one: it must end failed, and a retry may fix it.
        return { ...out, stopReason: "error", retryable: true };
      }
      firstId = str(message.id);
      usageAnthropic(out, rec(message.usage));
    } else if (type === "content_block_start") {
      const block = rec(chunk.content_block);
      const entry = { type: str(block.type), sig: str(block.signature), args: "", call: undefined as ExpectedCall | undefined };
      if (entry.type === "text") out.text += str(block.text);
      if (entry.type === "thinking") out.thinking += str(block.thinking);
      if (entry.type === "redacted_thinking") out.signatures.push(str(block.data));
      if (entry.type === "tool_use") {
        entry.call = { id: str(block.id), name: str(block.name), arguments: {} };
        const input = rec(block.input);
        if (Object.keys(input).length > 0) entry.args = JSON.stringify(input);
      }
      blocks.set(num(chunk.index) ?? -1, entry);
    } else if (type === "content_block_delta") {
      const entry = blocks.get(num(chunk.index) ?? -1);
      const delta = rec(chunk.delta);
      if (entry === undefined) continue;
      if (delta.type === "text_delta" && entry.type === "text") out.text += str(delta.text);
      if (delta.type === "thinking_delta" && entry.type === "thinking") out.thinking += str(delta.thinking);
      if (delta.type === "signature_delta" && entry.type === "thinking") entry.sig += str(delta.signature);
      if (delta.type === "input_json_delta" && entry.type === "tool_use") entry.args += str(delta.partial_json);
    } else if (type === "content_block_stop") {
      const entry = blocks.get(num(chunk.index) ?? -1);
      if (entry?.type === "thinking" && entry.sig !== "") out.signatures.push(entry.sig);
      if (entry?.call) out.calls.push({ ...entry.call, arguments: parseArgs(entry.args) });
    } else if (type === "message_delta") {
      const reason = str(rec(chunk.delta).stop_reason);
      if (reason !== "") out.stopReason = ANTHROPIC_STOP[reason] ?? "error";
      const details = rec(rec(chunk.delta).stop_details);
      if (Object.keys(details).length > 0) out.stopDetails = { category: str(details.category), explanation: str(details.explanation) };
      usageAnthropic(out, rec(chunk.usage));
    }
  }
  return out;
}

function usageAnthropic(out: Expected, usage: Chunk): void {
  out.usage.input = num(usage.input_tokens) ?? out.usage.input;
  out.usage.output = num(usage.output_tokens) ?? out.usage.output;
  out.usage.cacheRead = num(usage.cache_read_input_tokens) ?? out.usage.cacheRead;
  out.usage.cacheWrite = num(usage.cache_creation_input_tokens) ?? out.usage.cacheWrite;
}

function responses(chunks: Chunk[]): Expected {
  const out: Expected = { text: "", thinking: "", signatures: [], calls: [], stopReason: "error", usage: zero() };
  let final: Chunk | undefined;
  for (const chunk of chunks) {
    const type = str(chunk.type);
    if (type === "response.output_text.delta") out.text += str(chunk.delta);
    if (type === "response.reasoning_summary_text.delta") out.thinking += str(chunk.delta);
    if (type === "response.output_item.done") {
      const item = rec(chunk.item);
      if (item.type === "function_call")
        out.calls.push({ id: str(item.call_id), name: str(item.name), arguments: parseArgs(str(item.arguments)) });
      if (item.type === "reasoning" && typeof item.encrypted_content === "string") out.signatures.push(item.encrypted_content);
    }
    if (["response.completed", "response.incomplete", "response.failed"].includes(type)) final = rec(chunk.response);
    if (type === "error") final = { status: "failed" };
  }
  const status = str(final?.status);
  const reason = str(rec(final?.incomplete_details).reason);
  out.stopReason =
    status === "completed"
      ? out.calls.length > 0
        ? "toolUse"
        : "stop"
      : status === "incomplete" && reason === "max_output_tokens"
        ? "length"
        : "error";
  const usage = rec(final?.usage);
  const cached = num(rec(usage.input_tokens_details).cached_tokens) ?? 0;
  out.usage = { input: (num(usage.input_tokens) ?? 0) - cached, output: num(usage.output_tokens) ?? 0, cacheRead: cached, cacheWrite: 0 };
  const reasoning = num(rec(usage.output_tokens_details).reasoning_tokens);
  if (reasoning !== undefined) out.usage.reasoningTokens = reasoning;
  return out;
}

function chat(chunks: Chunk[], reasoningField: "reasoning_content" | "reasoning" | "none"): Expected {
  const out: Expected = { text: "", thinking: "", signatures: [], calls: [], stopReason: "error", usage: zero() };
  const calls = new Map<number, { id?: string; name: string; args: string }>();
  let finish = "";
  for (const chunk of chunks) {
    const usage = rec(chunk.usage);
    if (Object.keys(usage).length > 0) {
      const prompt = num(usage.prompt_tokens) ?? 0;
      const cached = num(rec(usage.prompt_tokens_details).cached_tokens) ?? num(usage.prompt_cache_hit_tokens) ?? 0;
      const completion = num(usage.completion_tokens) ?? 0;
      const reasoning = num(rec(usage.completion_tokens_details).reasoning_tokens);
      // Reasoning counted beside the completion (total = prompt + completion + reasoning) is output too.
      const beside = reasoning !== undefined && reasoning > 0 && usage.total_tokens === prompt + completion + reasoning;
      out.usage = { input: prompt - cached, output: beside ? completion + (reasoning ?? 0) : completion, cacheRead: cached, cacheWrite: 0 };
      if (reasoning !== undefined) out.usage.reasoningTokens = reasoning;
    }
    const choice = rec(arr(chunk.choices)[0]);
    const delta = rec(choice.delta);
    if (reasoningField !== "none") out.thinking += str(delta[reasoningField]);
    if (typeof delta.content === "string") out.text += delta.content;
    for (const part of arr(delta.content)) {
      const p = rec(part);
      if (p.type === "text") out.text += str(p.text);
      if (p.type === "thinking")
        out.thinking += arr(p.thinking)
          .map((t) => str(rec(t).text))
          .join("");
    }
    arr(delta.tool_calls).forEach((raw, position) => {
      const call = rec(raw);
      const index = num(call.index) ?? position;
      const fn = rec(call.function);
      const known = calls.get(index);
      if (known === undefined) {
        const id = str(call.id);
        calls.set(index, { ...(id !== "" && id !== "null" ? { id } : {}), name: str(fn.name), args: str(fn.arguments) });
      } else {
        if (str(fn.name) !== "") known.name = str(fn.name);
        known.args += str(fn.arguments);
      }
    });
    if (str(choice.finish_reason) !== "") finish = str(choice.finish_reason);
  }
  out.calls = [...calls.values()].map((c) => ({ ...(c.id !== undefined ? { id: c.id } : {}), name: c.name, arguments: parseArgs(c.args) }));
  out.stopReason =
    finish === "tool_calls" || (finish === "stop" && out.calls.length > 0)
      ? "toolUse"
      : finish === "stop"
        ? "stop"
        : finish === "length"
          ? "length"
          : "error";
  return out;
}

function gemini(chunks: Chunk[]): Expected {
  const out: Expected = { text: "", thinking: "", signatures: [], calls: [], stopReason: "error", usage: zero() };
  let finish = "";
  for (const chunk of chunks) {
    const usage = rec(chunk.usageMetadata);
    if (Object.keys(usage).length > 0) {
      const cached = num(usage.cachedContentTokenCount) ?? 0;
      const thoughts = num(usage.thoughtsTokenCount);
      out.usage = {
        input: (num(usage.promptTokenCount) ?? 0) - cached,
        output: (num(usage.candidatesTokenCount) ?? 0) + (thoughts ?? 0),
        cacheRead: cached,
        cacheWrite: 0,
      };
      if (thoughts !== undefined) out.usage.reasoningTokens = thoughts;
    }
    const candidate = rec(arr(chunk.candidates)[0]);
    for (const raw of arr(rec(candidate.content).parts)) {
      const part = rec(raw);
      if (typeof part.thoughtSignature === "string") out.signatures.push(part.thoughtSignature);
      if (part.thought === true) out.thinking += str(part.text);
      else if (part.functionCall !== undefined) {
        const call = rec(part.functionCall);
        out.calls.push({ ...(str(call.id) !== "" ? { id: str(call.id) } : {}), name: str(call.name), arguments: call.args ?? {} });
      } else out.text += str(part.text);
    }
    if (str(candidate.finishReason) !== "") finish = str(candidate.finishReason);
  }
  out.stopReason = finish === "STOP" ? (out.calls.length > 0 ? "toolUse" : "stop") : finish === "MAX_TOKENS" ? "length" : "error";
  return out;
}

const BEDROCK_STOP: Record<string, StopReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "toolUse",
  max_tokens: "length",
  model_context_window_exceeded: "length",
};

function bedrock(chunks: Chunk[]): Expected {
  const out: Expected = { text: "", thinking: "", signatures: [], calls: [], stopReason: "error", usage: zero() };
  const blocks = new Map<number, { sig: string; args: string; call?: ExpectedCall }>();
  const block = (index: number) => {
    let entry = blocks.get(index);
    if (entry === undefined) blocks.set(index, (entry = { sig: "", args: "" }));
    return entry;
  };
  for (const chunk of chunks) {
    const start = rec(chunk.contentBlockStart);
    const tool = rec(rec(start.start).toolUse);
    if (Object.keys(tool).length > 0)
      block(num(start.contentBlockIndex) ?? -1).call = { id: str(tool.toolUseId), name: str(tool.name), arguments: {} };
    const d = rec(chunk.contentBlockDelta);
    const delta = rec(d.delta);
    const entry = block(num(d.contentBlockIndex) ?? -1);
    out.text += str(delta.text);
    const reasoning = rec(delta.reasoningContent);
    out.thinking += str(reasoning.text);
    entry.sig += str(reasoning.signature);
    entry.args += str(rec(delta.toolUse).input);
    const stop = rec(chunk.contentBlockStop);
    if (stop.contentBlockIndex !== undefined) {
      const ended = block(num(stop.contentBlockIndex) ?? -1);
      if (ended.sig !== "") out.signatures.push(ended.sig);
      if (ended.call) out.calls.push({ ...ended.call, arguments: parseArgs(ended.args) });
      blocks.delete(num(stop.contentBlockIndex) ?? -1);
    }
    const messageStop = rec(chunk.messageStop);
    if (typeof messageStop.stopReason === "string") out.stopReason = BEDROCK_STOP[messageStop.stopReason] ?? "error";
    const usage = rec(rec(chunk.metadata).usage);
    if (Object.keys(usage).length > 0) {
      out.usage = {
        input: num(usage.inputTokens) ?? 0,
        output: num(usage.outputTokens) ?? 0,
        cacheRead: num(usage.cacheReadInputTokens) ?? 0,
        cacheWrite: num(usage.cacheWriteInputTokens) ?? 0,
      };
    }
  }
  return out;
}

/** A Converse (non-streaming) answer as the chunks ConverseStream would send, for the same reading. */
export function bedrockJsonAsChunks(body: unknown): Chunk[] {
  const json = rec(body);
  const content = arr(rec(rec(rec(json.output).message)).content);
  const chunks: Chunk[] = [{ messageStart: { role: "assistant" } }];
  content.forEach((raw, contentBlockIndex) => {
    const b = rec(raw);
    if (b.toolUse !== undefined) {
      const t = rec(b.toolUse);
      chunks.push({ contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId: t.toolUseId, name: t.name } } } });
      chunks.push({ contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input: JSON.stringify(t.input ?? {}) } } } });
    } else if (typeof b.text === "string") chunks.push({ contentBlockDelta: { contentBlockIndex, delta: { text: b.text } } });
    else if (b.reasoningContent !== undefined) {
      const r = rec(rec(b.reasoningContent).reasoningText);
      chunks.push({ contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { text: str(r.text) } } } });
      if (typeof r.signature === "string")
        chunks.push({ contentBlockDelta: { contentBlockIndex, delta: { reasoningContent: { signature: r.signature } } } });
    }
    chunks.push({ contentBlockStop: { contentBlockIndex } });
  });
  chunks.push({ messageStop: { stopReason: json.stopReason } }, { metadata: { usage: json.usage } });
  return chunks;
}

function zero(): Expected["usage"] {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}
