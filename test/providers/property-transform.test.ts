import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../shared/protocol";
import { findModel, findProvider } from "../../electron/core/providers/registry";
import { buildRequest } from "../../electron/core/providers/requests";
import { validateRequest } from "../../electron/core/providers/validate";
import { deepFreeze, demoteArb, historyArb, modelKey, reasoningArb, signatureOwner, toolChoiceArb, toolsArb } from "./property-arbitraries";

const RUNS = 1000;

const TARGETS = [
  { label: "anthropic", ref: "anthropic/claude-sonnet-4-5", api: "anthropic-messages", mistral: false },
  { label: "openai-completions", ref: "openai/gpt-4.1", api: "openai-completions", mistral: false },
  { label: "openai-responses", ref: "openai/gpt-5", api: "openai-responses", mistral: false },
  { label: "mistral-compatible completions", ref: "mistral/mistral-large-latest", api: "openai-completions", mistral: true },
  // Compat variants, fewer runs: DeepSeek (own reasoning back in reasoning_content), Ollama (no image input).
  // DeepSeek runs in thinking mode: reasoning_content on every tool-call message of the current loop.
  {
    label: "deepseek completions",
    ref: "deepseek/deepseek-reasoner",
    api: "openai-completions",
    mistral: false,
    runs: 300,
    thinkingMode: true,
  },
  { label: "ollama completions", ref: "ollama/llama3.1:8b", api: "openai-completions", mistral: false, runs: 300 },
  { label: "gemini", ref: "google/gemini-2.5-pro", api: "google-generative-ai", mistral: false },
  // Gemini 3 checks thought signatures on the current turn's calls.
  { label: "gemini 3", ref: "google/gemini-3-pro-preview", api: "google-generative-ai", mistral: false, runs: 300 },
  {
    label: "bedrock (Claude)",
    ref: "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    api: "bedrock-converse-stream",
    mistral: false,
  },
  {
    label: "bedrock (Llama, text only)",
    ref: "bedrock/us.meta.llama3-3-70b-instruct-v1:0",
    api: "bedrock-converse-stream",
    mistral: false,
    runs: 300,
  },
] as const;

/** Tool-call ids the body sends, in order, per API. */
function wireCallIds(api: string, body: unknown): string[] {
  const json = body as Record<string, unknown>;
  const out: string[] = [];
  if (api === "openai-responses") {
    for (const item of json.input as Record<string, unknown>[]) if (item.type === "function_call") out.push(item.call_id as string);
    return out;
  }
  if (api === "google-generative-ai") {
    for (const content of json.contents as Array<{ parts: Array<{ functionCall?: { id: string } }> }>) {
      for (const part of content.parts) if (part.functionCall) out.push(part.functionCall.id);
    }
    return out;
  }
  if (api === "bedrock-converse-stream") {
    for (const message of json.messages as Array<{ content: Array<{ toolUse?: { toolUseId: string } }> }>) {
      for (const block of message.content) if (block.toolUse) out.push(block.toolUse.toolUseId);
    }
    return out;
  }
  for (const message of json.messages as Record<string, unknown>[]) {
    if (api === "openai-completions") {
      for (const call of (message.tool_calls as Record<string, unknown>[] | undefined) ?? []) out.push(call.id as string);
    } else if (Array.isArray(message.content)) {
      for (const block of message.content as Record<string, unknown>[]) if (block.type === "tool_use") out.push(block.id as string);
    }
  }
  return out;
}

/** Stored ids of the calls that must reach the model: every call of a turn that did not fail or get aborted. */
function sentCallIds(history: readonly Message[]): string[] {
  const out: string[] = [];
  for (const m of history) {
    if (m.role !== "assistant" || m.stopReason === "error" || m.stopReason === "aborted") continue;
    for (const block of m.content) if (block.type === "toolCall") out.push(block.id);
  }
  return out;
}

describe("any stored history builds into a request the strict validator accepts", () => {
  for (const target of TARGETS) {
    const runs = "runs" in target ? target.runs : RUNS;
    it(`for ${target.label} (${runs} generated histories)`, () => {
      const model = findModel(target.ref, target.api);
      const provider = model && findProvider(model.provider);
      if (!model || !provider) throw new Error(`registry lacks ${target.ref}`);
      const key = modelKey(model);
      fc.assert(
        fc.property(
          historyArb,
          toolsArb,
          toolChoiceArb,
          reasoningArb,
          demoteArb,
          (history, tools, toolChoice, reasoning, demoteOtherReasoning) => {
            const frozen = deepFreeze(history);
            const before = JSON.stringify(frozen);
            const context = { systemPrompt: "You are helpful.", messages: frozen, tools, toolChoice };
            const built = buildRequest(model, provider, context, { reasoning, demoteOtherReasoning });
            const rejection = validateRequest(model.api, built.body, {
              signatureOwner,
              modelId: key,
              mistral: target.mistral,
              reasoningContentRequired: "thinkingMode" in target && target.thinkingMode,
            });
            expect(rejection?.message ?? null).toBeNull();
            expect(JSON.stringify(frozen)).toBe(before);

            const wireIds = wireCallIds(model.api, built.body);
            if (tools !== undefined && tools.length > 0) {
              // Every call of a sound turn reaches the model, in order, and maps back to its stored id.
              expect(wireIds.map((id) => built.idMap.get(id))).toEqual(sentCallIds(frozen));
            } else {
              expect(wireIds).toEqual([]);
            }
            expect(new Set(wireIds).size).toBe(wireIds.length);
          },
        ),
        { numRuns: runs },
      );
    });
  }
});
