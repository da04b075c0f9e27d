/**
 * Boundary-transform benchmark (`npm run bench:transform`). A script, not a
 * test: it prints figures and ends with one line `RESULT {json}`.
 *
 * History: 10,000 stored messages holding 3,000 tool calls (ids of mixed
 * origin: `toolu_…`, `call_…|fc_…`, `functions.Bash:N`, Mistral 9-char, 450-char
 * ids, duplicates), thinking with signatures from four models, 0.2–2 KB texts.
 * For each target API: the median time of the transform (the pass that pairs,
 * rewrites ids, converts thinking; `prepareRequest`) and its ratio to a
 * `structuredClone` of the same history, measured interleaved in the same run.
 * Also printed, not targeted: the transform's CPU time (robust when the
 * machine is shared), the clone's time, and the full body build (transform +
 * wire JSON). Tool-id rewrites are memoised across requests (every request
 * re-sends the same history), so warm rounds are what a session sees;
 * `coldCacheMs` times the same pass with that memo emptied (a first request).
 *
 * Target (issue #21): ratioToClone <= 0.2 per API.
 */
import type { AssistantContent, Message, ModelRef } from "../shared/protocol";
import { emptyUsage } from "../shared/protocol";
import { findModel, findProvider } from "../electron/core/providers/registry";
import { buildRequest } from "../electron/core/providers/requests";
import { prepareRequest } from "../electron/core/providers/requests/common";
import { clearWireIdCache } from "../electron/core/providers/transform/ids";
import type { LlmContext, ToolSpec } from "../electron/core/providers/types";

const ROUNDS = 41;

let seed = 0x2545f491;
function rand(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
}
const WORDS = "the file function returns value error path test module import export const let await async stream token".split(" ");
function prose(chars: number): string {
  let out = "";
  while (out.length < chars) out += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
  return out.slice(0, chars);
}

const MODELS: ModelRef[] = [
  { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" },
  { provider: "openai", api: "openai-responses", id: "gpt-5" },
  { provider: "openai", api: "openai-completions", id: "gpt-4.1" },
  { provider: "mistral", api: "openai-completions", id: "mistral-large-latest" },
];

function idFor(model: ModelRef, n: number): string {
  if (n % 97 === 0) return `mcp.server/${"x".repeat(430)}:${n}`; // 450-char ids, invalid everywhere
  if (n % 211 === 0) return "toolu_duplicate"; // the same stored id in many turns
  switch (model.api === "openai-completions" && model.provider === "mistral" ? "mistral" : model.api) {
    case "anthropic-messages":
      return `toolu_01${n.toString(36).padStart(22, "A")}`;
    case "openai-responses":
      return `call_${n.toString(36).padStart(24, "0")}|fc_${n.toString(16).padStart(48, "0")}`;
    case "mistral":
      return n.toString(36).padStart(9, "k").slice(-9);
    default:
      return n % 2 === 0 ? `functions.Bash:${n}` : `call_${n.toString(36).padStart(24, "q")}`;
  }
}

function thinkingFor(model: ModelRef, n: number): AssistantContent {
  if (model.api === "openai-responses") {
    const item = { type: "reasoning", id: `rs_${n}`, summary: [{ type: "summary_text", text: prose(200) }], encrypted_content: prose(400) };
    return { type: "thinking", thinking: prose(200), signature: JSON.stringify(item) };
  }
  if (model.api === "anthropic-messages") return { type: "thinking", thinking: prose(600), signature: prose(300) };
  return { type: "thinking", thinking: prose(400) };
}

function history(): Message[] {
  const messages: Message[] = [];
  let calls = 0;
  let turn = 0;
  const usage = emptyUsage();
  // 1,500 tool turns (user, assistant with 2 calls, 2 results, closing assistant) and 1,250 plain exchanges.
  for (let cycle = 0; cycle < 2_750; cycle++) {
    const model = MODELS[cycle % MODELS.length];
    messages.push({ role: "user", content: [{ type: "text", text: prose(200) }], timestamp: turn++ });
    if (cycle % 11 < 6 && calls < 3_000) {
      const ids = [idFor(model, calls), idFor(model, calls + 1)];
      calls += 2;
      const content: AssistantContent[] = [thinkingFor(model, cycle), { type: "text", text: prose(300) }];
      for (const id of ids)
        content.push({ type: "toolCall", id, name: cycle % 3 === 0 ? "bash" : "read", arguments: { path: `src/${cycle}.ts` } });
      messages.push({ role: "assistant", content, stopReason: "toolUse", model, usage, timestamp: turn++ });
      for (const id of ids) {
        messages.push({
          role: "toolResult",
          toolCallId: id,
          toolName: "read",
          isError: false,
          content: [{ type: "text", text: prose(2_000) }],
          timestamp: turn++,
        });
      }
      messages.push({
        role: "assistant",
        content: [{ type: "text", text: prose(500) }],
        stopReason: "stop",
        model,
        usage,
        timestamp: turn++,
      });
    } else {
      messages.push({
        role: "assistant",
        content: [thinkingFor(model, cycle), { type: "text", text: prose(500) }],
        stopReason: "stop",
        model,
        usage,
        timestamp: turn++,
      });
    }
  }
  if (messages.length !== 10_000 || calls !== 3_000) throw new Error(`history shape: ${messages.length} messages, ${calls} calls`);
  return messages;
}

const TOOLS: ToolSpec[] = ["read", "write", "edit", "list", "glob", "grep", "bash"].map((name) => ({
  name,
  description: `${name} tool`,
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
}));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const TARGETS = [
  { key: "anthropic-messages", ref: "anthropic/claude-sonnet-4-5", api: "anthropic-messages" },
  { key: "openai-completions", ref: "openai/gpt-4.1", api: "openai-completions" },
  { key: "openai-responses", ref: "openai/gpt-5", api: "openai-responses" },
  { key: "openai-completions-mistral", ref: "mistral/mistral-large-latest", api: "openai-completions" },
  { key: "google-generative-ai", ref: "google/gemini-2.5-pro", api: "google-generative-ai" },
  { key: "bedrock-converse-stream", ref: "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", api: "bedrock-converse-stream" },
] as const;

const messages = history();
const context: LlmContext = { systemPrompt: "You are a coding agent.", messages, tools: TOOLS };
const result: Record<string, { ms: number; ratioToClone: number; cpuMs: number; coldCacheMs: number; cloneMs: number; buildMs: number }> =
  {};
for (const target of TARGETS) {
  const model = findModel(target.ref, target.api);
  const provider = model && findProvider(model.provider);
  if (!model || !provider) throw new Error(`registry lacks ${target.ref}`);
  const transformTimes: number[] = [];
  const transformCpu: number[] = [];
  const cloneTimes: number[] = [];
  const buildTimes: number[] = [];
  const coldTimes: number[] = [];
  for (let round = 0; round < ROUNDS + 3; round++) {
    let t = performance.now();
    structuredClone(messages);
    const clone = performance.now() - t;
    const cpuBefore = process.cpuUsage();
    t = performance.now();
    prepareRequest(model, provider, context);
    const transform = performance.now() - t;
    const cpu = process.cpuUsage(cpuBefore);
    t = performance.now();
    buildRequest(model, provider, context, { reasoning: "high" });
    const build = performance.now() - t;
    clearWireIdCache();
    t = performance.now();
    prepareRequest(model, provider, context);
    const cold = performance.now() - t;
    if (round < 3) continue; // warm-up
    cloneTimes.push(clone);
    transformTimes.push(transform);
    transformCpu.push((cpu.user + cpu.system) / 1000);
    buildTimes.push(build);
    coldTimes.push(cold);
  }
  const ms = median(transformTimes);
  const cloneMs = median(cloneTimes);
  const cpuMs = median(transformCpu);
  const coldMs = median(coldTimes);
  result[target.key] = {
    ms: round2(ms),
    ratioToClone: round2(ms / cloneMs),
    cpuMs: round2(cpuMs),
    coldCacheMs: round2(coldMs),
    cloneMs: round2(cloneMs),
    buildMs: round2(median(buildTimes)),
  };
  console.log(
    `${target.key.padEnd(28)} transform ${ms.toFixed(2)} ms (cpu ${cpuMs.toFixed(2)} ms, id cache cold ${coldMs.toFixed(2)} ms)  clone ${cloneMs.toFixed(2)} ms  ratio ${(ms / cloneMs).toFixed(2)}  full build ${median(buildTimes).toFixed(2)} ms`,
  );
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

console.log(`RESULT ${JSON.stringify(result)}`);
