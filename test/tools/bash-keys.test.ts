/**
 * Keys out of reach of tools: a core process started with an API key in its
 * environment takes the key out of process.env and wipes it from its
 * start-up environment, so an approved bash command sees the key neither in
 * its own environment nor through /proc/$PPID/environ: sandboxed (its own
 * PID namespace) and unsandboxed (the core's start-up environment holds no
 * key any more).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const info = detectBashSandbox();
const repo = resolve(__dirname, "../..");
const PLANTED = "sk-ant-api03-PLANTED-KEY-0123456789";
const PLANTED_OPENAI = "sk-proj-PLANTED-OPENAI-0123456789";

/** The core's start-up, then one approved bash command; prints the outcome and what the key ring got. */
const CORE = `
import { takeKeysFromProcess } from ${JSON.stringify(join(repo, "electron/core/host/startup-environ"))};
import { createToolRuntime } from ${JSON.stringify(join(repo, "electron/core/tools"))};
const keys = takeKeysFromProcess(["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"]);
const runtime = createToolRuntime({ workspaceRoot: process.argv[2], env: process.env, outputDir: process.argv[3], bashSandbox: process.argv[4] });
const command = 'echo "parent:"; tr "\\\\0" "\\\\n" < /proc/$PPID/environ; echo "own:"; env; echo "var=[$ANTHROPIC_API_KEY]"';
const outcome = await runtime.run({ id: "k1", name: "bash", arguments: { command } }, { ask: async () => ({ approved: true }) });
process.stdout.write(JSON.stringify({ outcome, keyRing: [keys.ANTHROPIC_API_KEY, keys.OPENAI_API_KEY], left: process.env.ANTHROPIC_API_KEY ?? null }));
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function runCore(mode: "auto" | "off") {
  const dir = mkdtempSync(join(tmpdir(), "awb-keys-"));
  dirs.push(dir);
  const script = join(dir, "core.mts");
  writeFileSync(script, CORE);
  const ws = join(dir, "ws");
  mkdirSync(ws);
  // node, not the tsx CLI (which would stay as a parent holding the env): the core is bash's parent.
  const out = execFileSync(process.execPath, ["--import", "tsx", script, ws, join(dir, "out"), mode], {
    cwd: repo,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: PLANTED, OPENAI_API_KEY: PLANTED_OPENAI },
    encoding: "utf8",
    timeout: 150_000,
  });
  return JSON.parse(out) as {
    outcome: { ok: boolean; content?: { text: string }[]; details?: { sandbox?: string } };
    keyRing: string[];
    left: string | null;
  };
}

function expectNoKey(result: ReturnType<typeof runCore>, sandbox: string) {
  expect(result.outcome.ok).toBe(true);
  expect(result.outcome.details?.sandbox).toBe(sandbox);
  // The key ring still has the keys; process.env does not.
  expect(result.keyRing).toEqual([PLANTED, PLANTED_OPENAI]);
  expect(result.left).toBeNull();
  const seen = result.outcome.content?.map((c) => c.text).join("\n") ?? "";
  // The command really read its parent's start-up environment and its own.
  expect(seen).toMatch(/parent:\n(.+\n)*PATH=/);
  expect(seen).toMatch(/own:\n(.+\n)*PATH=/);
  expect(seen).toContain("var=[]");
  expect(seen).not.toContain("PLANTED");
}

describe("keys out of reach of bash", () => {
  it.skipIf(info.kind === "none")(
    info.kind === "none"
      ? `sandboxed — skipped: ${info.reason ?? "no sandbox"}`
      : "sandboxed: an approved command cannot read a planted key from /proc/$PPID/environ nor from its own environment",
    () => expectNoKey(runCore("auto"), info.kind),
    PROCESS_TEST_TIMEOUT_MS,
  );

  it.skipIf(process.platform !== "linux")(
    process.platform !== "linux"
      ? "unsandboxed — skipped: /proc/<pid>/environ is Linux's"
      : "unsandboxed (sandbox off): the core's start-up environment holds no key, so /proc/$PPID/environ and the command's own environment show none",
    () => expectNoKey(runCore("off"), "none"),
    PROCESS_TEST_TIMEOUT_MS,
  );
});
