/**
 * The streaming path builds each request body from a transform pass kept
 * between requests and from cached entry JSON. Whatever order requests come
 * in — growing prefixes of one history (the tool loop), a shorter or altered
 * history (compaction, a retry), another model in between — the text must be
 * exactly `JSON.stringify` of the pure builder's body.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../shared/protocol";
import { findModel, findProvider } from "../../electron/core/providers/registry";
import { buildRequest, buildRequestJson } from "../../electron/core/providers/requests";
import type { LlmContext } from "../../electron/core/providers/types";
import { bodyText } from "../../electron/core/providers/requests/json-body";
import { deepFreeze, historyArb, reasoningArb, toolChoiceArb, toolsArb } from "./property-arbitraries";

const TARGETS = [
  { ref: "anthropic/claude-sonnet-4-5", api: "anthropic-messages" },
  { ref: "openai/gpt-4.1", api: "openai-completions" },
  { ref: "openai/gpt-5", api: "openai-responses" },
  { ref: "mistral/mistral-large-latest", api: "openai-completions" },
  { ref: "deepseek/deepseek-reasoner", api: "openai-completions" },
  { ref: "ollama/llama3.1:8b", api: "openai-completions" },
] as const;

const resolved = TARGETS.map((t) => {
  const model = findModel(t.ref, t.api);
  const provider = model && findProvider(model.provider);
  if (!model || !provider) throw new Error(`registry lacks ${t.ref}`);
  return { model, provider };
});

/** Requests in any order: prefix lengths (as fractions of the history) and the target of each. */
const stepsArb = fc.array(fc.record({ upTo: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })), second: fc.boolean() }), {
  minLength: 1,
  maxLength: 12,
});

/** Bodies already built, with the text they had: a request may still be writing them. */
let sent: Array<{ chunks: readonly (string | Uint8Array)[]; text: string }> = [];

function expectSameBody(
  messages: readonly Message[],
  target: number,
  extra: Omit<LlmContext, "messages" | "systemPrompt">,
  reasoning: "off" | "low" | "medium" | "high" | undefined,
): void {
  const { model, provider } = resolved[target];
  const context: LlmContext = { systemPrompt: "You are helpful.", messages: messages as Message[], ...extra };
  const pure = JSON.stringify(buildRequest(model, provider, context, { reasoning }).body);
  const { chunks } = buildRequestJson(model, provider, context, { reasoning });
  expect(bodyText(chunks)).toBe(pure);
  // Bytes handed out earlier are never written again (the kept prefix only grows, into new buffers when full).
  for (const earlier of sent) expect(bodyText(earlier.chunks)).toBe(earlier.text);
  sent.push({ chunks, text: pure });
  if (sent.length > 6) sent = sent.slice(-6);
}

describe("the streaming path's JSON body equals the pure builder's body", () => {
  it("as the history grows one message at a time, with a switch to another API now and then (500 runs)", () => {
    fc.assert(
      fc.property(
        historyArb,
        fc.nat(TARGETS.length - 1),
        fc.array(fc.nat(TARGETS.length - 1), { maxLength: 40 }),
        fc.array(fc.boolean(), { maxLength: 40 }),
        toolsArb,
        toolChoiceArb,
        reasoningArb,
        (history, main, others, switches, tools, toolChoice, reasoning) => {
          const frozen = deepFreeze(history);
          for (let k = 1; k <= frozen.length; k++) {
            const prefix = frozen.slice(0, k);
            expectSameBody(prefix, main, { tools, toolChoice }, reasoning);
            if (switches[k] === true) expectSameBody(prefix, others[k] ?? 0, { tools, toolChoice }, reasoning);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("for requests in any order over shorter, longer and rewritten histories (500 runs)", () => {
    fc.assert(
      fc.property(
        historyArb,
        historyArb,
        stepsArb,
        fc.nat(TARGETS.length - 1),
        fc.nat(TARGETS.length - 1),
        toolsArb,
        toolChoiceArb,
        reasoningArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (history, other, steps, first, second, tools, toolChoice, reasoning, shared) => {
          const frozen = deepFreeze(history);
          // The same beginning with a different continuation (an edited history, a retry after compaction).
          const rewritten = [...frozen.slice(0, Math.max(1, Math.floor(shared * frozen.length))), ...deepFreeze(other)];
          for (const [i, step] of steps.entries()) {
            const source = i % 2 === 1 ? rewritten : frozen;
            expectSameBody(source.slice(0, Math.ceil(step.upTo * source.length)), step.second ? second : first, { tools, toolChoice }, reasoning);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
