/**
 * Transcript readers for the Gemini and Bedrock Converse request bodies (see
 * transcript.ts for the other wires). Lenient: the strict validator has
 * already judged the request.
 */
import { z } from "zod";
import type { FauxToolInfo, FauxTurn } from "./types";

const Schema = z.record(z.string(), z.unknown());

const GeminiPart = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: z.looseObject({ id: z.string().optional(), name: z.string(), args: z.unknown().optional() }).optional(),
  functionResponse: z
    .looseObject({ id: z.string().optional(), name: z.string(), response: z.record(z.string(), z.unknown()).optional() })
    .optional(),
});
const GeminiBody = z.looseObject({
  systemInstruction: z.looseObject({ parts: z.array(GeminiPart).default([]) }).optional(),
  contents: z.array(z.looseObject({ role: z.string().optional(), parts: z.array(GeminiPart).default([]) })).default([]),
  tools: z
    .array(
      z.looseObject({
        functionDeclarations: z
          .array(z.looseObject({ name: z.string(), description: z.string().optional(), parameters: Schema.optional() }))
          .optional(),
      }),
    )
    .optional(),
});

function responseText(response: Record<string, unknown> | undefined): { text: string; isError: boolean } {
  if (response === undefined) return { text: "", isError: false };
  if (typeof response.error === "string") return { text: response.error, isError: true };
  if (typeof response.output === "string") return { text: response.output, isError: false };
  return { text: JSON.stringify(response), isError: false };
}

export function readGemini(body: unknown): { turns: FauxTurn[]; tools: FauxToolInfo[] } {
  const parsed = GeminiBody.safeParse(body);
  if (!parsed.success) return { turns: [], tools: [] };
  const turns: FauxTurn[] = [];
  const system = (parsed.data.systemInstruction?.parts ?? []).map((p) => p.text ?? "").join("");
  if (system) turns.push({ role: "system", text: system });
  for (const content of parsed.data.contents) {
    if (content.role === "model") {
      turns.push({
        role: "assistant",
        text: content.parts.map((p) => (p.thought ? "" : (p.text ?? ""))).join(""),
        thinking: content.parts.map((p) => (p.thought ? (p.text ?? "") : "")).join(""),
        toolCalls: content.parts.flatMap((p) =>
          p.functionCall
            ? [{ id: p.functionCall.id ?? "", name: p.functionCall.name, arguments: JSON.stringify(p.functionCall.args ?? {}) }]
            : [],
        ),
      });
      continue;
    }
    for (const p of content.parts) {
      if (p.functionResponse)
        turns.push({ role: "toolResult", toolCallId: p.functionResponse.id ?? "", ...responseText(p.functionResponse.response) });
    }
    const text = content.parts.map((p) => p.text ?? "").join("");
    if (text !== "" || !content.parts.some((p) => p.functionResponse)) turns.push({ role: "user", text });
  }
  const tools = (parsed.data.tools ?? [])
    .flatMap((t) => t.functionDeclarations ?? [])
    .map((d) => ({ name: d.name, description: d.description ?? "", parameters: d.parameters ?? {} }));
  return { turns, tools };
}

const BedrockText = z.looseObject({ text: z.string().optional() });
const BedrockBlock = z.looseObject({
  text: z.string().optional(),
  toolUse: z.looseObject({ toolUseId: z.string(), name: z.string(), input: z.unknown().optional() }).optional(),
  toolResult: z.looseObject({ toolUseId: z.string(), content: z.array(BedrockText).default([]), status: z.string().optional() }).optional(),
  reasoningContent: z.looseObject({ reasoningText: z.looseObject({ text: z.string() }).optional() }).optional(),
});
const BedrockBody = z.looseObject({
  system: z.array(BedrockText).optional(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.array(BedrockBlock).default([]) })).default([]),
  toolConfig: z
    .looseObject({
      tools: z.array(
        z.looseObject({
          toolSpec: z
            .looseObject({
              name: z.string(),
              description: z.string().optional(),
              inputSchema: z.looseObject({ json: Schema.optional() }).optional(),
            })
            .optional(),
        }),
      ),
    })
    .optional(),
});

export function readBedrock(body: unknown): { turns: FauxTurn[]; tools: FauxToolInfo[] } {
  const parsed = BedrockBody.safeParse(body);
  if (!parsed.success) return { turns: [], tools: [] };
  const turns: FauxTurn[] = [];
  const system = (parsed.data.system ?? []).map((b) => b.text ?? "").join("");
  if (system) turns.push({ role: "system", text: system });
  for (const message of parsed.data.messages) {
    const blocks = message.content;
    if (message.role === "assistant") {
      turns.push({
        role: "assistant",
        text: blocks.map((b) => b.text ?? "").join(""),
        thinking: blocks.map((b) => b.reasoningContent?.reasoningText?.text ?? "").join(""),
        toolCalls: blocks.flatMap((b) =>
          b.toolUse ? [{ id: b.toolUse.toolUseId, name: b.toolUse.name, arguments: JSON.stringify(b.toolUse.input ?? {}) }] : [],
        ),
      });
      continue;
    }
    for (const b of blocks) {
      if (b.toolResult) {
        turns.push({
          role: "toolResult",
          toolCallId: b.toolResult.toolUseId,
          text: b.toolResult.content.map((c) => c.text ?? "").join("\n"),
          isError: b.toolResult.status === "error",
        });
      }
    }
    const text = blocks.map((b) => b.text ?? "").join("");
    if (text !== "" || !blocks.some((b) => b.toolResult)) turns.push({ role: "user", text });
  }
  const tools = (parsed.data.toolConfig?.tools ?? []).flatMap((t) =>
    t.toolSpec
      ? [{ name: t.toolSpec.name, description: t.toolSpec.description ?? "", parameters: t.toolSpec.inputSchema?.json ?? {} }]
      : [],
  );
  return { turns, tools };
}
