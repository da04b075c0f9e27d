/**
 * The per-message plans of the boundary transform are memoised for frozen
 * stored messages (transform/message-plans.ts). A session re-sends its
 * history with every request, switches models, forks, rewinds and compacts:
 * through any such sequence, the request built from the frozen (memoised)
 * history must be byte-identical — body, repairs, id map, tool names — to the
 * one built from an unfrozen copy, which is planned afresh every time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Api, Message } from "../../shared/protocol";
import { findModel, findProvider } from "../../electron/core/providers/registry";
import { buildRequest } from "../../electron/core/providers/requests";
import type { LlmContext, StreamOptions, ToolSpec } from "../../electron/core/providers/types";
import { deepFreeze, demoteArb, historyArb, reasoningArb, toolsArb } from "./property-arbitraries";

/** Targets as `provider/model@api`. */
const MODELS = [
  "anthropic/claude-sonnet-4-5@anthropic-messages",
  "openai/gpt-4.1@openai-completions",
  "openai/gpt-5@openai-responses",
  "mistral/mistral-large-latest@openai-completions",
  "deepseek/deepseek-reasoner@openai-completions",
  "ollama/llama3.1:8b@openai-completions",
  "google/gemini-2.5-pro@google-generative-ai",
  "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0@bedrock-converse-stream",
] as const;

function resolve(target: string) {
  const [ref, api] = target.split("@") as [string, Api];
  const model = findModel(ref, api);
  const provider = model && findProvider(model.provider);
  if (!model || !provider) throw new Error(`registry lacks ${target}`);
  return { model, provider };
}

/** Everything a built request carries, as text. */
function built(ref: string, context: LlmContext, options: Partial<StreamOptions>): string {
  const { model, provider } = resolve(ref);
  const r = buildRequest(model, provider, context, options);
  return JSON.stringify({ body: r.body, repairs: r.repairs, idMap: [...r.idMap], toolNames: r.toolNames });
}

/** How the next request's history comes from the session's: what a session does between requests. */
type Edit =
  | { kind: "same" }
  | { kind: "append"; from: number; count: number }
  | { kind: "rewind"; keep: number }
  | { kind: "fork"; keep: number; from: number; count: number }
  | { kind: "compact"; drop: number };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.constant<Edit>({ kind: "same" }),
  fc.record({ kind: fc.constant("append" as const), from: fc.nat(), count: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant("rewind" as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant("fork" as const), keep: fc.nat(), from: fc.nat(), count: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant("compact" as const), drop: fc.nat() }),
);

const SUMMARY: Message = deepFreeze({
  role: "user",
  content: [{ type: "text", text: "Summary of the conversation so far: files were read and edited." }],
  timestamp: 1,
});

/**
 * Applies an edit. Appended messages are the same frozen objects again (a
 * fork re-sends its parent's messages; a duplicated call id must then get a
 * derived wire id, not the memoised one).
 */
function apply(history: readonly Message[], pool: readonly Message[], edit: Edit): Message[] {
  const n = history.length;
  const taken = (from: number, count: number) => (pool.length === 0 ? [] : pool.slice(from % pool.length, (from % pool.length) + count));
  switch (edit.kind) {
    case "same":
      return [...history];
    case "append":
      return [...history, ...taken(edit.from, edit.count)];
    case "rewind":
      return history.slice(0, n === 0 ? 0 : edit.keep % (n + 1));
    case "fork":
      return [...history.slice(0, n === 0 ? 0 : edit.keep % (n + 1)), ...taken(edit.from, edit.count)];
    case "compact":
      return [SUMMARY, ...history.slice(n === 0 ? 0 : edit.drop % (n + 1))];
  }
}

const stepArb = fc.record({
  model: fc.constantFrom(...MODELS),
  edit: editArb,
  tools: toolsArb,
  reasoning: reasoningArb,
  demote: demoteArb,
});

describe("memoised message plans", () => {
  it("build byte-identical requests across model switches, forks, rewinds and compactions (300 generated sessions)", () => {
    fc.assert(
      fc.property(historyArb, fc.array(stepArb, { minLength: 2, maxLength: 8 }), (generated, steps) => {
        const pool = deepFreeze(generated);
        let history: Message[] = [...pool];
        for (const step of steps) {
          history = apply(history, pool, step.edit);
          const tools: ToolSpec[] | undefined = step.tools;
          const options = { reasoning: step.reasoning, demoteOtherReasoning: step.demote };
          const memoised = built(step.model, { systemPrompt: "You are helpful.", messages: history, tools }, options);
          // Twice: the second build reads every plan from the memo.
          const again = built(step.model, { systemPrompt: "You are helpful.", messages: history, tools }, options);
          const fresh = built(step.model, { systemPrompt: "You are helpful.", messages: structuredClone(history), tools }, options);
          expect(memoised).toBe(fresh);
          expect(again).toBe(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("plans a message again for another target, and for the same target with other tools", () => {
    const call: Message = deepFreeze({
      role: "assistant",
      content: [{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a.ts" } }],
      stopReason: "toolUse",
      model: { provider: "openai", api: "openai-responses", id: "gpt-5" },
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      timestamp: 2,
    });
    const result: Message = deepFreeze({
      role: "toolResult",
      toolCallId: "call_1|fc_1",
      toolName: "read",
      content: [{ type: "text", text: "x" }],
      isError: false,
      timestamp: 3,
    });
    const messages = [SUMMARY, call, result];
    const read: ToolSpec[] = [{ name: "read", description: "Read.", parameters: { type: "object", properties: {} } }];
    const sequence: [string, ToolSpec[] | undefined][] = [
      ["openai/gpt-5@openai-responses", read],
      ["anthropic/claude-sonnet-4-5@anthropic-messages", read],
      ["openai/gpt-5@openai-responses", read],
      ["openai/gpt-5@openai-responses", undefined],
      ["mistral/mistral-large-latest@openai-completions", read],
      ["openai/gpt-5@openai-responses", read],
    ];
    const bodies = sequence.map(([ref, tools]) => {
      const memoised = built(ref, { systemPrompt: "s", messages, tools }, {});
      expect(memoised).toBe(built(ref, { systemPrompt: "s", messages: structuredClone(messages), tools }, {}));
      return memoised;
    });
    // The call keeps its item id for its own model, loses it elsewhere, and becomes text without tools.
    expect(bodies[0]).toContain('"id":"fc_1"');
    expect(bodies[1]).toContain('"id":"call_1_fc_1"');
    expect(bodies[3]).toContain("[Tool call: read");
    expect(bodies[5]).toBe(bodies[0]);
  });
});
