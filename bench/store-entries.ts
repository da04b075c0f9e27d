/**
 * Deterministic, realistic session entries for the store benchmarks: user
 * text, assistant text with tool calls, tool results with details (1–4 KB of
 * JSON each), from a seeded generator so every run stores the same bytes.
 */
import type { AssistantContent, SessionEntry } from "../shared/protocol";
import { seededRandom } from "./seeded-random";

export const { rand, pick } = seededRandom(0x9e3779b9);

const COMMON = (
  "the a to of and in is it that for on with as this be are not you can file function return const " +
  "error test value type import export string number line code change update fix read write path use should will"
).split(" ");
export const RARE = Array.from({ length: 20_000 }, (_, i) => {
  const syll = ["ka", "lo", "mi", "zu", "re", "po", "ta", "ne", "vi", "sh", "gr", "an", "el", "or", "ix"];
  let w = "";
  let n = i + 7;
  do {
    w += syll[n % syll.length];
    n = Math.floor(n / syll.length);
  } while (n > 0);
  return w;
});

function words(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    // Zipf-ish: half the words common, the rest spread over a large vocabulary skewed to the front
    out.push(rand() < 0.5 ? pick(COMMON) : RARE[Math.floor(RARE.length * rand() ** 3)]);
  }
  return out.join(" ");
}

function codeBlock(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`  const ${pick(RARE)} = ${pick(RARE)}(${pick(COMMON)}, ${Math.floor(rand() * 1000)});`);
  return out.join("\n");
}

const MODEL = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" } as const;
let callCounter = 0;
let pendingCalls: Array<{ id: string; name: string }> = [];

/** Starts a new conversation: no tool calls wait for results. */
export function resetPendingCalls(): void {
  pendingCalls = [];
}

/** The i-th entry of an endless realistic conversation: user → assistant(tool calls) → results → … */
export function nextEntry(i: number): SessionEntry {
  const timestamp = 1_700_000_000_000 + i * 1000;
  if (pendingCalls.length > 0) {
    const call = pendingCalls.shift()!;
    const body = codeBlock(20 + Math.floor(rand() * 60));
    return {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        isError: rand() < 0.05,
        content: [{ type: "text", text: `Showing lines 1-80 of 240 of src/${pick(RARE)}.ts\n${body}` }],
        details: { durationMs: Math.floor(rand() * 200), outputBytes: body.length, exitCode: 0 },
        timestamp,
      },
    };
  }
  if (i % 7 === 0) {
    return {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: words(60 + Math.floor(rand() * 150)) }], timestamp },
    };
  }
  const calls = 1 + Math.floor(rand() * 2);
  const content: AssistantContent[] = [{ type: "text", text: words(40 + Math.floor(rand() * 120)) }];
  for (let c = 0; c < calls; c++) {
    const id = `toolu_01${(callCounter++).toString(36).padStart(20, "x")}`;
    const name = pick(["read", "grep", "edit", "bash"]);
    pendingCalls.push({ id, name });
    content.push({
      type: "toolCall",
      id,
      name,
      arguments:
        name === "edit"
          ? { path: `src/${pick(RARE)}.ts`, oldText: codeBlock(3), newText: codeBlock(4) }
          : { path: `src/${pick(RARE)}.ts`, pattern: pick(RARE) },
    });
  }
  const input = 2000 + Math.floor(rand() * 30_000);
  const output = 50 + Math.floor(rand() * 800);
  return {
    type: "message",
    message: {
      role: "assistant",
      content,
      stopReason: "toolUse",
      model: MODEL,
      usage: {
        input,
        output,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: input + output,
        cost: { input: input * 3e-6, output: output * 15e-6, cacheRead: 0, cacheWrite: 0, total: input * 3e-6 + output * 15e-6 },
      },
      timestamp,
    },
  };
}
