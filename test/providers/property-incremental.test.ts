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
import { emptyUsage } from "../../shared/protocol";
import { findModel, findProvider } from "../../electron/core/providers/registry";
import { buildRequest, buildRequestJson } from "../../electron/core/providers/requests";
import type { LlmContext } from "../../electron/core/providers/types";
import { bodyText } from "../../electron/core/providers/requests/json-body";
import { DEFAULT_TOOL_SPECS, deepFreeze, historyArb, reasoningArb, toolChoiceArb, toolsArb } from "./property-arbitraries";

const TARGETS = [
  { ref: "anthropic/claude-sonnet-4-5", api: "anthropic-messages" },
  { ref: "openai/gpt-4.1", api: "openai-completions" },
  { ref: "openai/gpt-5", api: "openai-responses" },
  { ref: "mistral/mistral-large-latest", api: "openai-completions" },
  { ref: "deepseek/deepseek-reasoner", api: "openai-completions" },
  { ref: "ollama/llama3.1:8b", api: "openai-completions" },
] as const;

const MISTRAL = TARGETS.findIndex((t) => t.ref.startsWith("mistral/"));

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

  it("as the history grows a few messages at a time, the pass resumed across several new messages (500 runs)", () => {
    fc.assert(
      fc.property(
        historyArb,
        // Mistral half the time, with tools: its bridge is an assistant entry after the checkpoint (a kept prefix may end there).
        fc.oneof({ weight: 3, arbitrary: fc.constant(MISTRAL) }, { weight: 2, arbitrary: fc.nat(TARGETS.length - 1) }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 40 }),
        fc.oneof({ weight: 3, arbitrary: fc.constant(DEFAULT_TOOL_SPECS) }, { weight: 1, arbitrary: toolsArb }),
        toolChoiceArb,
        reasoningArb,
        (history, target, jumps, tools, toolChoice, reasoning) => {
          const frozen = deepFreeze(history);
          let k = 0;
          for (const jump of jumps) {
            if (k >= frozen.length) break;
            k = Math.min(frozen.length, k + jump);
            // A new array each time, as the agent passes its history.
            expectSameBody(frozen.slice(0, k), target, { tools, toolChoice }, reasoning);
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

describe("a kept prefix is reused only while it is still right", () => {
  const tools = DEFAULT_TOOL_SPECS;
  const mistral = resolved[MISTRAL].model;
  const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
  const call = (id: string): Message => ({
    role: "assistant",
    content: [{ type: "toolCall", id, name: "read", arguments: { path: `${id}.txt` } }],
    stopReason: "toolUse",
    model: { provider: mistral.provider, api: mistral.api, id: mistral.id },
    usage: emptyUsage(),
    timestamp: 1,
  });
  const result = (id: string, text: string): Message => ({
    role: "toolResult",
    toolCallId: id,
    toolName: "read",
    isError: false,
    content: [{ type: "text", text }],
    timestamp: 1,
  });

  it("re-encodes tool results sent before the pass's checkpoint settled (a Mistral bridge after a synthesized result)", () => {
    sent = [];
    // First request: the call has no result yet, so it gets a synthesized one; the user message after it needs a bridge.
    const history = deepFreeze([user("go"), call("abcdefgh1"), user("also this"), result("abcdefgh1", "real result"), call("abcdefgh2")]);
    expectSameBody(history.slice(0, 3), MISTRAL, { tools }, undefined);
    // The same pass resumed two messages later: the real result replaces the synthesized one.
    expectSameBody(history, MISTRAL, { tools }, undefined);
    expectSameBody([...history, result("abcdefgh2", "second")], MISTRAL, { tools }, undefined);
  });

  it("does not send a reasoning item again when a later turn repeats one sent many turns before (Responses)", () => {
    sent = [];
    const RESPONSES = TARGETS.findIndex((t) => t.api === "openai-responses");
    const gpt = resolved[RESPONSES].model;
    const reasoningCall = (n: number, rs: number): Message => ({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "", signature: JSON.stringify({ type: "reasoning", id: `rs_${rs}`, summary: [], encrypted_content: `e${rs}` }) },
        { type: "toolCall", id: `call_${n}|fc_${n}`, name: "read", arguments: {} },
      ],
      stopReason: "toolUse",
      model: { provider: gpt.provider, api: gpt.api, id: gpt.id },
      usage: emptyUsage(),
      timestamp: 1,
    });
    const history: Message[] = [deepFreeze(user("go"))];
    for (let n = 0; n < 6; n++) history.push(deepFreeze(reasoningCall(n, n === 4 ? 0 : n)), deepFreeze(result(`call_${n}|fc_${n}`, `r${n}`)));
    for (let k = 1; k <= history.length; k++) expectSameBody(history.slice(0, k), RESPONSES, { tools }, "medium");
  });

  it("notices an early message replaced by another object, whether its content differs or not", () => {
    for (let target = 0; target < resolved.length; target++) {
      sent = [];
      const turns = [user("go")];
      for (let i = 0; i < 6; i++) turns.push(call(`abcdefgh${i}`), result(`abcdefgh${i}`, `result ${i}`));
      const history = deepFreeze(turns);
      expectSameBody(history, target, { tools }, undefined);
      const edited = deepFreeze([...history.slice(0, 4), result("abcdefgh1", "edited"), ...history.slice(5), call("abcdefgh9")]);
      expectSameBody(edited, target, { tools }, undefined);
      const copied = deepFreeze([...edited.slice(0, 2), { ...edited[2] }, ...edited.slice(3), result("abcdefgh9", "more")]);
      expectSameBody(copied, target, { tools }, undefined);
      expectSameBody(history, target, { tools }, undefined);
    }
  });

  it("notices a change to the array it was given last time (the caller may reuse its array)", () => {
    for (let target = 0; target < resolved.length; target++) {
      sent = [];
      const messages: Message[] = deepFreeze([user("go"), call("abcdefgh1"), result("abcdefgh1", "one"), call("abcdefgh2"), result("abcdefgh2", "two")]);
      const mutable = messages.slice();
      expectSameBody(mutable, target, { tools }, undefined);
      mutable[2] = deepFreeze(result("abcdefgh1", "changed in place"));
      mutable.push(deepFreeze(call("abcdefgh3")));
      expectSameBody(mutable, target, { tools }, undefined);
    }
  });
});
