/**
 * Reads a wire request back into neutral turns, so scripted responders can
 * react to the conversation ("the last turn is a tool result: answer with
 * text") without knowing which API it came in on. Lenient: the strict
 * validator has already judged the request; this only has to read it.
 */
import { z } from "zod";
import type { FauxRoute, FauxToolInfo, FauxTurn } from "./types";
import { readBedrock, readGemini } from "./transcript-google-aws";

const Text = z.union([z.string(), z.array(z.looseObject({ type: z.string().optional(), text: z.string().optional() }))]).nullish();

function textOf(content: z.infer<typeof Text>): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((p) => p.text ?? "")
    .filter((t) => t !== "")
    .join("\n");
}

const Schema = z.record(z.string(), z.unknown());

// ------------------------------------------------------------------ Anthropic

const AnthropicBlock = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  tool_use_id: z.string().optional(),
  content: Text,
  is_error: z.boolean().optional(),
});
const AnthropicBody = z.looseObject({
  system: Text,
  messages: z.array(z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(AnthropicBlock)]) })).default([]),
  tools: z.array(z.looseObject({ name: z.string(), description: z.string().optional(), input_schema: Schema.optional() })).optional(),
});

function readAnthropic(body: unknown): { turns: FauxTurn[]; tools: FauxToolInfo[] } {
  const parsed = AnthropicBody.safeParse(body);
  if (!parsed.success) return { turns: [], tools: [] };
  const turns: FauxTurn[] = [];
  const system = textOf(parsed.data.system);
  if (system) turns.push({ role: "system", text: system });
  for (const message of parsed.data.messages) {
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    if (message.role === "assistant") {
      const toolCalls = blocks
        .filter((b) => b.type === "tool_use")
        .map((b) => ({ id: b.id ?? "", name: b.name ?? "", arguments: JSON.stringify(b.input ?? {}) }));
      turns.push({
        role: "assistant",
        text: blocks.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join(""),
        thinking: blocks.map((b) => (b.type === "thinking" ? (b.thinking ?? "") : "")).join(""),
        toolCalls,
      });
      continue;
    }
    for (const b of blocks) {
      if (b.type === "tool_result") {
        turns.push({ role: "toolResult", toolCallId: b.tool_use_id ?? "", text: textOf(b.content), isError: b.is_error === true });
      }
    }
    const text = blocks.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");
    if (text !== "" || !blocks.some((b) => b.type === "tool_result")) turns.push({ role: "user", text });
  }
  const tools = (parsed.data.tools ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? "",
    parameters: t.input_schema ?? {},
  }));
  return { turns, tools };
}

// ------------------------------------------------------------------ Chat Completions

const ChatBody = z.looseObject({
  messages: z
    .array(
      z.looseObject({
        role: z.string(),
        content: Text,
        reasoning_content: z.string().nullish(),
        tool_call_id: z.string().optional(),
        tool_calls: z
          .array(z.looseObject({ id: z.string(), function: z.looseObject({ name: z.string(), arguments: z.string() }) }))
          .nullish(),
      }),
    )
    .default([]),
  tools: z
    .array(
      z.looseObject({ function: z.looseObject({ name: z.string(), description: z.string().optional(), parameters: Schema.optional() }) }),
    )
    .optional(),
});

function readChat(body: unknown): { turns: FauxTurn[]; tools: FauxToolInfo[] } {
  const parsed = ChatBody.safeParse(body);
  if (!parsed.success) return { turns: [], tools: [] };
  const turns: FauxTurn[] = parsed.data.messages.map((m): FauxTurn => {
    const text = textOf(m.content);
    if (m.role === "system" || m.role === "developer") return { role: "system", text };
    if (m.role === "tool") return { role: "toolResult", toolCallId: m.tool_call_id ?? "", text, isError: false };
    if (m.role === "assistant") {
      const toolCalls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      return { role: "assistant", text, thinking: m.reasoning_content ?? "", toolCalls };
    }
    return { role: "user", text };
  });
  const tools = (parsed.data.tools ?? []).map((t) => ({
    name: t.function.name,
    description: t.function.description ?? "",
    parameters: t.function.parameters ?? {},
  }));
  return { turns, tools };
}

// ------------------------------------------------------------------ Responses

const ResponsesItem = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: Text,
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  output: Text,
  summary: z.array(z.looseObject({ text: z.string() })).optional(),
});
const ResponsesBody = z.looseObject({
  instructions: z.string().nullish(),
  input: z.union([z.string(), z.array(ResponsesItem)]).default([]),
  tools: z
    .array(
      z.looseObject({ type: z.string(), name: z.string().optional(), description: z.string().nullish(), parameters: Schema.nullish() }),
    )
    .optional(),
});

function readResponses(body: unknown): { turns: FauxTurn[]; tools: FauxToolInfo[] } {
  const parsed = ResponsesBody.safeParse(body);
  if (!parsed.success) return { turns: [], tools: [] };
  const turns: FauxTurn[] = [];
  if (parsed.data.instructions) turns.push({ role: "system", text: parsed.data.instructions });
  const items = typeof parsed.data.input === "string" ? [{ type: "message", role: "user", content: parsed.data.input }] : parsed.data.input;
  // Consecutive assistant items (reasoning, message, function calls) form one assistant turn.
  let assistant: Extract<FauxTurn, { role: "assistant" }> | null = null;
  const assistantTurn = () => {
    if (assistant === null) {
      assistant = { role: "assistant", text: "", thinking: "", toolCalls: [] };
      turns.push(assistant);
    }
    return assistant;
  };
  for (const item of items) {
    const type = item.type ?? "message";
    if (type === "reasoning") {
      assistantTurn().thinking += (item.summary ?? []).map((s) => s.text).join("\n\n");
    } else if (type === "function_call") {
      assistantTurn().toolCalls.push({ id: item.call_id ?? "", name: item.name ?? "", arguments: item.arguments ?? "" });
    } else if (type === "function_call_output") {
      assistant = null;
      turns.push({ role: "toolResult", toolCallId: item.call_id ?? "", text: textOf(item.output), isError: false });
    } else if (item.role === "assistant") {
      assistantTurn().text += textOf(item.content);
    } else {
      assistant = null;
      const text = textOf(item.content);
      turns.push(item.role === "system" || item.role === "developer" ? { role: "system", text } : { role: "user", text });
    }
  }
  const tools = (parsed.data.tools ?? [])
    .filter((t) => t.type === "function" && t.name !== undefined)
    .map((t) => ({ name: t.name ?? "", description: t.description ?? "", parameters: t.parameters ?? {} }));
  return { turns, tools };
}

export function readTranscript(route: FauxRoute, body: unknown): { turns: FauxTurn[]; tools: FauxToolInfo[] } {
  if (route === "anthropic") return readAnthropic(body);
  if (route === "openai-responses") return readResponses(body);
  if (route === "gemini") return readGemini(body);
  if (route === "bedrock") return readBedrock(body);
  return readChat(body);
}
