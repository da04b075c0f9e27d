/**
 * A realistic 10,000-entry session for the UI benchmark: user questions,
 * assistant markdown with code, tool calls (read, grep, edit with diffs, bash
 * with exit codes), results with details, approvals and a few model switches.
 */
import type { ModelRef, SessionEntry } from "../shared/protocol";
import { emptyUsage } from "../shared/protocol";

export const BENCH_MODEL: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-6" };
const OTHER_MODEL: ModelRef = { provider: "openai", api: "openai-responses", id: "gpt-5" };

const CODE = [
  "export function total(items: Item[]): number {",
  "  let sum = 0;",
  "  for (const item of items) sum += item.price * item.quantity;",
  "  return Math.round(sum * 100) / 100;",
  "}",
];

function fileText(i: number): string {
  return Array.from({ length: 30 }, (_, l) => `const value${l} = compute(${i}, ${l}); // line ${l + 1}`).join("\n") + "\n";
}

function unified(path: string, i: number): { unifiedDiff: string; before: string; after: string; added: number; removed: number } {
  const before = fileText(i);
  const lines = before.split("\n");
  lines[10] = `const value10 = computeFaster(${i}, 10); // changed`;
  lines.splice(12, 0, `// note ${i}: faster path`);
  const after = lines.join("\n");
  const diff = [
    `--- a/${path}`,
    `+++ b/${path}`,
    "@@ -8,7 +8,8 @@",
    ...before
      .split("\n")
      .slice(7, 10)
      .map((l) => ` ${l}`),
    `-${before.split("\n")[10]}`,
    `+${lines[10]}`,
    ` ${before.split("\n")[11]}`,
    `+${lines[12]}`,
    ...before
      .split("\n")
      .slice(12, 14)
      .map((l) => ` ${l}`),
    "",
  ].join("\n");
  return { unifiedDiff: diff, before, after, added: 2, removed: 1 };
}

/** Exactly `count` entries, deterministic. */
export function benchEntries(count: number, start = 1_700_000_000_000): SessionEntry[] {
  const out: SessionEntry[] = [];
  let t = start;
  let model = BENCH_MODEL;
  const usage = () => {
    const u = emptyUsage();
    u.input = 1200;
    u.output = 300;
    u.totalTokens = 1500;
    u.cost = { input: 0.0036, output: 0.0045, cacheRead: 0, cacheWrite: 0, total: 0.0081 };
    return u;
  };
  for (let i = 0; out.length < count; i++) {
    t += 1000;
    const path = `src/module-${i % 50}.ts`;
    out.push({
      type: "message",
      message: {
        role: "user",
        content: [{ type: "text", text: `Step ${i}: please review \`${path}\` and make \`total\` faster.` }],
        timestamp: t,
      },
    });
    const kind = i % 4;
    const callId = `toolu_${i.toString(36)}`;
    const text =
      `Looking at **${path}** (iteration ${i}). The loop can be simplified:\n\n` +
      "```ts\n" +
      CODE.join("\n") +
      "\n```\n\n" +
      `- keeps rounding\n- avoids an allocation\n\nNext I will ${kind === 0 ? "read the file" : kind === 1 ? "edit it" : kind === 2 ? "run the tests" : "search for callers"}.`;
    const call =
      kind === 0
        ? { type: "toolCall" as const, id: callId, name: "read", arguments: { path } }
        : kind === 1
          ? { type: "toolCall" as const, id: callId, name: "edit", arguments: { path, edits: [{ oldText: "a", newText: "b" }] } }
          : kind === 2
            ? { type: "toolCall" as const, id: callId, name: "bash", arguments: { command: "npm test -- --run total" } }
            : { type: "toolCall" as const, id: callId, name: "grep", arguments: { pattern: "total\\(", path: "src" } };
    out.push({
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "thinking", thinking: `Plan for step ${i}.` }, { type: "text", text }, call],
        stopReason: "toolUse",
        model,
        usage: usage(),
        timestamp: t + 200,
      },
    });
    if (kind === 1)
      out.push({ type: "approval", toolCallId: callId, toolName: "edit", decision: "approved", decidedBy: "user", timestamp: t + 300 });
    const d = unified(path, i);
    const details =
      kind === 0
        ? { path, bytes: 900, startLine: 1, endLine: 30, totalLines: 30, truncated: false }
        : kind === 1
          ? {
              path,
              created: false,
              bytes: 950,
              diff: { unifiedDiff: d.unifiedDiff, added: d.added, removed: d.removed },
              before: d.before,
              after: d.after,
            }
          : kind === 2
            ? { command: "npm test -- --run total", exitCode: i % 8 === 2 ? 1 : 0, durationMs: 1234, truncated: i % 16 === 2 }
            : { pattern: "total\\(", matches: 3, truncated: false };
    const output =
      kind === 0
        ? fileText(i)
        : kind === 1
          ? `Edited ${path}: 1 replacement (+2 -1 lines).`
          : kind === 2
            ? "✓ total (3 tests)\n\nExit code: 0"
            : `${path}:3: total(items)`;
    out.push({
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: callId,
        toolName: call.name,
        isError: false,
        content: [{ type: "text", text: output }],
        details,
        timestamp: t + 500,
      },
    });
    if (i % 97 === 96) {
      const to = model === BENCH_MODEL ? OTHER_MODEL : BENCH_MODEL;
      out.push({ type: "modelSwitch", from: model, to, timestamp: t + 600 });
      model = to;
    }
  }
  return out.slice(0, count);
}
