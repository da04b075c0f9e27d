/**
 * Where compaction cuts, and what the model sees after it, on histories shaped
 * as the loop stores them (one prompt, then any number of steps with parallel
 * calls, failed requests, messages typed mid-turn, the target's own signed
 * thinking): the kept part starts at a step, holds no result without its call
 * and no call without its result, and builds into a request every API's strict
 * validator accepts, with thinking on. Pruned results keep their call and name it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AssistantContent, CompactionEntry, Message, ModelRef, StoredEntry } from "../../shared/protocol";
import { emptyUsage } from "../../shared/protocol";
import { compactionCut, viewOf } from "../../electron/core/agent/context";
import { pruneBoundary } from "../../electron/core/agent/prune";
import { findModel, findProvider } from "../../electron/core/providers/registry";
import { buildRequest } from "../../electron/core/providers/requests";
import { validateRequest } from "../../electron/core/providers/validate";
import { DEFAULT_TOOL_SPECS, modelKey, signatureOwner } from "../providers/property-arbitraries";

const TARGETS = [
  "anthropic/claude-sonnet-4-5",
  "openai/gpt-4.1",
  "openai/gpt-5",
  "google/gemini-3-pro-preview",
  "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
] as const;
const APIS = ["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai", "bedrock-converse-stream"] as const;

type Step =
  { kind: "calls"; calls: number; thinking: boolean; text: string; output: number } | { kind: "failed" } | { kind: "typed"; text: string };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("calls" as const),
      calls: fc.integer({ min: 0, max: 3 }),
      thinking: fc.boolean(),
      text: fc.string({ maxLength: 40 }),
      output: fc.integer({ min: 0, max: 3_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "failed" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("typed" as const), text: fc.string({ minLength: 1, maxLength: 40 }) }) },
);

/** Entries as the loop appends them for `steps` after one prompt, the assistant messages written by `model`. */
function entriesFor(steps: Step[], model: ModelRef): StoredEntry[] {
  const entries: StoredEntry[] = [];
  let seq = 0;
  let callN = 0;
  const push = (message: Message) => entries.push({ seq: ++seq, entry: { type: "message", message } });
  push({ role: "user", content: [{ type: "text", text: "Do the long task." }], timestamp: 1 });
  for (const step of steps) {
    if (step.kind === "typed") {
      push({ role: "user", content: [{ type: "text", text: step.text }], timestamp: seq });
      continue;
    }
    if (step.kind === "failed") {
      push({ role: "assistant", content: [], stopReason: "error", model, usage: emptyUsage(), errorMessage: "500", timestamp: seq });
      continue;
    }
    const content: AssistantContent[] = [];
    if (step.thinking) content.push({ type: "thinking", thinking: "plan", signature: `sig~${modelKey(model)}~${seq}` });
    if (step.text) content.push({ type: "text", text: step.text });
    const ids = Array.from({ length: step.calls }, () => `toolu_${++callN}`);
    for (const id of ids) content.push({ type: "toolCall", id, name: "read", arguments: { path: `f${id}.ts` } });
    if (content.length === 0) content.push({ type: "text", text: "ok" });
    push({ role: "assistant", content, stopReason: ids.length > 0 ? "toolUse" : "stop", model, usage: emptyUsage(), timestamp: seq });
    for (const id of ids) {
      push({
        role: "toolResult",
        toolCallId: id,
        toolName: "read",
        isError: false,
        content: [{ type: "text", text: "x".repeat(step.output) }],
        timestamp: seq,
      });
    }
  }
  return entries;
}

function compaction(partial: Partial<CompactionEntry>, model: ModelRef): CompactionEntry {
  return { type: "compaction", summary: "SUMMARY", firstKeptSeq: 0, tokensBefore: 1, model, timestamp: 1, ...partial };
}

/** Every result follows its call, every call has its result, in the part after the summary. */
function expectPaired(messages: readonly Message[]): void {
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant" && m.stopReason !== "error") for (const b of m.content) if (b.type === "toolCall") open.add(b.id);
    if (m.role === "toolResult") {
      expect(open.has(m.toolCallId)).toBe(true);
      answered.add(m.toolCallId);
    }
  }
  expect([...open].filter((id) => !answered.has(id))).toEqual([]);
}

describe("compaction cuts", () => {
  it("cut anywhere the cut allows, with any prune boundary: the view is paired and every API accepts it", () => {
    for (const ref of TARGETS) {
      const [provider] = ref.split("/");
      const model = findModel(ref, APIS[TARGETS.indexOf(ref)]);
      const config = findProvider(provider);
      if (!model || !config) throw new Error(`registry lacks ${ref}`);
      const modelRef = { provider: model.provider, api: model.api, id: model.id };
      fc.assert(
        fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), fc.nat(20_000), fc.nat(4_000), (steps, keep, pruneKeep) => {
          const entries = entriesFor(steps, modelRef);
          const view = viewOf(entries);
          const cut = compactionCut(view, keep);
          if (cut === null) return;
          const first = view.messages[cut];
          // The kept part starts at a step: a user message or an answer that did not fail.
          expect(first.role === "user" || (first.role === "assistant" && first.stopReason !== "error")).toBe(true);
          const firstKeptSeq = view.seqs[cut]!;
          const boundary = pruneBoundary(view, pruneKeep, undefined);
          const entry = compaction({ firstKeptSeq, prunedBeforeSeq: boundary.beforeSeq }, modelRef);
          const after = viewOf([...entries, { seq: entries.length + 1, entry }]);
          expect(after.seqs[0]).toBeNull();
          expect(after.seqs[1]).toBe(firstKeptSeq);
          expectPaired(after.messages.slice(1));
          for (const m of after.messages) {
            // A stub names its call and how to see it again.
            if (m.role === "toolResult" && JSON.stringify(m.content).includes("Output pruned")) {
              expect(JSON.stringify(m.content)).toContain(`read {\\"path\\":\\"f${m.toolCallId}.ts\\"}`);
            }
          }
          const built = buildRequest(
            model,
            config,
            { systemPrompt: "sys", messages: after.messages, tools: DEFAULT_TOOL_SPECS },
            { reasoning: "high" },
          );
          const rejection = validateRequest(model.api, built.body, { signatureOwner, modelId: modelKey(model) });
          expect(rejection?.message ?? null).toBeNull();
        }),
        { numRuns: 150 },
      );
    }
  });

  it("keeps at least the newest step, and keeps as much as fits the budget", () => {
    const model: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" };
    const steps: Step[] = Array.from({ length: 10 }, () => ({ kind: "calls", calls: 1, thinking: false, text: "", output: 400 }));
    const view = viewOf(entriesFor(steps, model));
    // No budget: the newest step only (its call and its result).
    const tight = compactionCut(view, 0)!;
    expect(view.messages.slice(tight).map((m) => m.role)).toEqual(["assistant", "toolResult"]);
    // Room for about three steps of ~110 tokens each.
    const roomy = compactionCut(view, 350)!;
    expect(view.messages.length - roomy).toBe(6);
    // Everything fits the budget: nothing to summarise.
    expect(compactionCut(view, 1e9)).toBeNull();
  });

  it("never cuts when only the prompt precedes the newest step", () => {
    const model: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" };
    const one = viewOf(entriesFor([], model));
    expect(compactionCut(one, 0)).toBeNull();
  });
});

describe("prune boundary", () => {
  it("never stubs the results the model has not seen yet, however small the budget", () => {
    const model: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" };
    const steps: Step[] = [
      { kind: "calls", calls: 2, thinking: false, text: "", output: 2_000 },
      { kind: "calls", calls: 3, thinking: false, text: "", output: 2_000 },
    ];
    const entries = entriesFor(steps, model);
    const view = viewOf(entries);
    const { beforeSeq, pruned } = pruneBoundary(view, 0, undefined);
    expect(pruned).toBe(2);
    const entry = compaction({ summary: "", firstKeptSeq: 0, prunedBeforeSeq: beforeSeq, step: "prune" }, model);
    const after = viewOf([...entries, { seq: entries.length + 1, entry }]);
    const results = after.messages.filter((m) => m.role === "toolResult");
    expect(results.map((r) => JSON.stringify(r.content).includes("Output pruned"))).toEqual([true, true, false, false, false]);
    // No summary yet and nothing carried: no summary message, the prompt comes first as it was.
    expect(after.seqs[0]).toBe(1);
  });
});
