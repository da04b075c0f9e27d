/**
 * `npm run bench:provider-call`: CPU time, in this process, of one streamed
 * provider call that returns a small tool call (the agent loop's common case).
 *
 * The faux provider runs in a child process (bench/loop-faux-child.ts), so
 * only the client side is charged. Variants, interleaved round by round so
 * that machine load hits them alike:
 *   sdk        `new Anthropic({...}).messages.create({...stream: true})`, events
 *              iterated to the end: what the adapter did per call before.
 *   sdkReused  the same with one client for all calls.
 *   adapter    our transport + the Anthropic adapter (request building from
 *              the history, event handling, final message): the product path.
 *   transport  our transport alone, body pre-serialized, events read to the end.
 * Per variant: median over rounds of (CPU time of the round / calls).
 *
 * Ends with one line: RESULT {"sdkCpuMs":…,"adapterCpuMs":…,"ratio":…,…}
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import Anthropic from "@anthropic-ai/sdk";
import { anthropicAdapter } from "../electron/core/providers/adapters/anthropic";
import { postSse } from "../electron/core/providers/http";
import { anthropicHeaders, anthropicUrl } from "../electron/core/providers/adapters/wire";
import { findModel, findProvider } from "../electron/core/providers/registry";
import type { LlmContext, StreamOptions } from "../electron/core/providers/types";

const CALLS_PER_ROUND = Number(process.env.BENCH_CALLS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARMUP_CALLS = 100;
const API_KEY = "bench-key-0123456789";

type Variant = "sdk" | "sdkReused" | "adapter" | "transport";
const VARIANTS: readonly Variant[] = ["sdk", "sdkReused", "adapter", "transport"];

const CONTEXT: LlmContext = {
  systemPrompt: "You are a careful coding agent.",
  messages: [{ role: "user", content: [{ type: "text", text: "read a.txt" }], timestamp: 1 }],
  tools: [
    {
      name: "read",
      description: "Read a file.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
    },
    {
      name: "bash",
      description: "Run a command.",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false },
    },
  ],
};

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "loop-faux-child.ts"), String(1e9)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const baseUrl = (await new Promise<string>((resolve) => lines.once("line", resolve))).replace(/^READY /, "").trim();

  const model = findModel({ provider: "anthropic", api: "anthropic-messages", id: "claude-haiku-4-5" });
  const registered = findProvider("anthropic");
  if (!model || !registered) throw new Error("registry: claude-haiku-4-5 / anthropic not found");
  const provider = { ...registered, baseUrl };
  const options: StreamOptions = { apiKey: API_KEY };
  const body = anthropicAdapter.buildRequestBody(model, provider, CONTEXT, options) as Anthropic.MessageCreateParamsStreaming;
  const json = JSON.stringify(body);
  const sdkOptions = { apiKey: API_KEY, baseURL: baseUrl, maxRetries: 0, logLevel: "off" } as const;
  const reused = new Anthropic(sdkOptions);

  const calls: Record<Variant, () => Promise<void>> = {
    async sdk() {
      let last: unknown;
      for await (const event of await new Anthropic(sdkOptions).messages.create(body)) last = event;
      if ((last as { type?: string } | undefined)?.type !== "message_stop") throw new Error("sdk: stream did not end with message_stop");
    },
    async sdkReused() {
      let last: unknown;
      for await (const event of await reused.messages.create(body)) last = event;
      if ((last as { type?: string } | undefined)?.type !== "message_stop") throw new Error("sdkReused: stream did not end with message_stop");
    },
    async adapter() {
      let final: string | undefined;
      for await (const event of anthropicAdapter.stream(model, provider, CONTEXT, options)) {
        if (event.type === "done") final = event.message.stopReason;
        else if (event.type === "error") throw new Error(`adapter: ${event.message.errorMessage}`);
      }
      if (final !== "toolUse") throw new Error(`adapter: expected a tool call, got ${final}`);
    },
    async transport() {
      const response = await postSse({ url: anthropicUrl(provider, options), headers: anthropicHeaders(options), body: json });
      let last = "";
      for await (const event of response.events) last = event.event ?? "";
      if (last !== "message_stop") throw new Error("transport: stream did not end with message_stop");
    },
  };

  for (const variant of VARIANTS) for (let i = 0; i < WARMUP_CALLS; i++) await calls[variant]();

  const gc = (globalThis as { gc?: () => void }).gc;
  const perCall: Record<Variant, number[]> = { sdk: [], sdkReused: [], adapter: [], transport: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order so no variant always runs right after another's garbage.
    const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]);
    for (const variant of order) {
      gc?.();
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < CALLS_PER_ROUND; i++) await calls[variant]();
      const cpu = process.cpuUsage(cpu0);
      perCall[variant].push((cpu.user + cpu.system) / 1000 / CALLS_PER_ROUND);
    }
  }
  child.kill();

  const result = Object.fromEntries(VARIANTS.map((v) => [v, median(perCall[v])])) as Record<Variant, number>;
  for (const v of VARIANTS) {
    console.log(`${v.padEnd(10)} ${result[v].toFixed(3)} ms CPU/call (median of ${ROUNDS} rounds × ${CALLS_PER_ROUND} calls)`);
  }
  console.log(`sdk / adapter: ${(result.sdk / result.adapter).toFixed(2)}×`);
  console.log(
    `RESULT ${JSON.stringify({
      sdkCpuMs: Number(result.sdk.toFixed(3)),
      sdkReusedClientCpuMs: Number(result.sdkReused.toFixed(3)),
      adapterCpuMs: Number(result.adapter.toFixed(3)),
      transportCpuMs: Number(result.transport.toFixed(3)),
      ratio: Number((result.sdk / result.adapter).toFixed(2)),
      calls: ROUNDS * CALLS_PER_ROUND,
    })}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
