/**
 * Scripted long turns against the faux provider on every wire API: models
 * with the windows a test asks for (the faux enforces them), a responder that
 * keeps calling tools for as long as the script says and answers compaction's
 * summary requests, and the checks every long-turn test shares.
 */
import { expect } from "vitest";
import type { ModelInfo } from "../../shared/models";
import type { CompactionEntry, ModelRef, StoredEntry } from "../../shared/protocol";
import type { FauxProviderOptions, FauxReply, FauxRequest } from "../../electron/core/faux";
import { fakeAwsCredentials } from "../providers/adapters-fixtures";
import { expectEveryCallAnswered, resultsOf, startHarness, TEST_KEYS, type Harness } from "./harness";

export type LongTurnApi = "anthropic" | "chat" | "responses" | "gemini" | "bedrock";
export const LONG_TURN_APIS: readonly LongTurnApi[] = ["anthropic", "chat", "responses", "gemini", "bedrock"];

const PROVIDER: Record<LongTurnApi, Pick<ModelInfo, "provider" | "api">> = {
  anthropic: { provider: "anthropic", api: "anthropic-messages" },
  chat: { provider: "openai", api: "openai-completions" },
  responses: { provider: "openai", api: "openai-responses" },
  gemini: { provider: "google", api: "google-generative-ai" },
  bedrock: { provider: "bedrock", api: "bedrock-converse-stream" },
};

/** A model on `api` with a `window`-token context (the faux is told the same window). */
export function testModel(api: LongTurnApi, id: string, window: number): ModelInfo {
  return {
    id,
    name: `${id} (test)`,
    ...PROVIDER[api],
    contextWindow: window,
    maxOutput: 4_096,
    input: ["text"],
    reasoning: false,
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  };
}

export const refOf = (m: ModelInfo): ModelRef => ({ provider: m.provider, api: m.api, id: m.id });

export async function startLongTurnHarness(
  models: ModelInfo[],
  files: Record<string, string>,
  faux?: FauxProviderOptions,
): Promise<Harness> {
  fakeAwsCredentials();
  const h = await startHarness({
    files,
    faux,
    model: refOf(models[0]),
    workbench: {
      extraModels: models,
      env: {
        ...TEST_KEYS,
        GEMINI_API_KEY: "gemini-test-0123456789abcdef",
        AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
      },
    },
  });
  // The harness's faux serves these routes too; the base URLs are only known once it runs.
  await h.call("settings.update", {
    baseUrls: { google: h.faux.baseUrls.gemini, bedrock: h.faux.baseUrls.bedrock },
    budget: { maxToolCalls: 5_000, maxOutputBytes: 1e9, maxDurationMs: 3_600_000, maxSideEffects: 10 },
  });
  for (const m of models) h.faux.setContextWindow(m.id, m.contextWindow);
  return h;
}

export const isSummaryRequest = (req: FauxRequest): boolean =>
  req.turns.some((t) => t.role === "system" && t.text.startsWith("You compact coding-agent conversations"));

export interface ToolLoopScript {
  /** Tool calls to make before answering. */
  calls: number;
  /** The call for step i (0-based). */
  call(i: number): { name: string; arguments: Record<string, unknown> };
  /** Runs before the reply to step i (a model switch mid-turn). */
  before?(i: number): Promise<void> | void;
  final: string;
}

/** What the responder saw, for the checks. */
export interface ToolLoopLog {
  steps: number;
  summaries: number;
  /** Whether the original prompt reached every request after the first summary, verbatim. */
  promptKeptAfterSummary: boolean;
}

/**
 * A responder that makes `script.calls` tool calls, one per request, then answers;
 * summary requests get a summary naming the steps so far. Each request after the
 * first must end with the result of the previous call (the loop went on from it).
 */
export function toolLoopResponder(script: ToolLoopScript, prompt: string, log: ToolLoopLog): (req: FauxRequest) => Promise<FauxReply> {
  let summarised = false;
  return async (req) => {
    if (isSummaryRequest(req)) {
      log.summaries++;
      summarised = true;
      return { type: "reply", content: [{ type: "text", text: `SUMMARY after ${log.steps} steps: reading files as asked.` }] };
    }
    if (summarised && !req.turns.some((t) => t.role === "user" && t.text.includes(prompt))) log.promptKeptAfterSummary = false;
    const i = log.steps++;
    if (i > 0 && req.lastTurn?.role !== "toolResult") {
      return { type: "reply", content: [{ type: "text", text: `unexpected: step ${i} did not follow a tool result` }] };
    }
    await script.before?.(i);
    if (i >= script.calls) return { type: "reply", content: [{ type: "text", text: script.final }] };
    const { name, arguments: args } = script.call(i);
    return { type: "reply", content: [{ type: "toolCall", id: `call_${i}`, name, arguments: args }] };
  };
}

export const compactionsOf = (entries: StoredEntry[]): { seq: number; entry: CompactionEntry }[] =>
  entries.flatMap((e) => (e.entry.type === "compaction" ? [{ seq: e.seq, entry: e.entry }] : []));

/** Every request the faux received fit its model's window and passed the strict validator. */
export function expectEveryRequestFit(h: Harness, models: ModelInfo[]): void {
  const windows = new Map(models.map((m) => [m.id, m.contextWindow]));
  const over = h.faux.requests.filter((r) => r.tokens > (windows.get(r.model ?? "") ?? Infinity)).map((r) => `#${r.seq} ${r.tokens}`);
  expect(over).toEqual([]);
  expect(h.faux.requests.filter((r) => !r.accepted).map((r) => `#${r.seq}: ${r.rejection?.message}`)).toEqual([]);
}

/** The turn ended with the final answer, every call answered, `calls` tool results stored, no error. */
export function expectFinished(h: Harness, entries: StoredEntry[], calls: number, final: string): void {
  expect(h.events.filter((e) => e.event === "turn.error").map((e) => e.payload)).toEqual([]);
  expectEveryCallAnswered(entries);
  const results = resultsOf(entries);
  expect(results).toHaveLength(calls);
  expect(results.filter((r) => r.isError).map((r) => JSON.stringify(r.content).slice(0, 200))).toEqual([]);
  const last = entries.at(-1)?.entry;
  expect(last?.type === "message" && last.message.role === "assistant" ? last.message.content : null).toEqual([
    { type: "text", text: final },
  ]);
}
