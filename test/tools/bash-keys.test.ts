/**
 * Keys out of reach of tools: a core process started with an API key in its
 * environment takes the key out of process.env, and an approved bash command
 * sees neither the key in its own environment nor the core's start-up
 * environment through /proc/$PPID/environ (the sandbox's own PID namespace).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";

const info = detectBashSandbox();
const repo = resolve(__dirname, "../..");
const PLANTED = "sk-ant-api03-PLANTED-KEY-0123456789";

const CORE = `
import { takeKeysFromEnv } from ${JSON.stringify(join(repo, "electron/core/api/keys"))};
import { createToolRuntime } from ${JSON.stringify(join(repo, "electron/core/tools"))};
const env = takeKeysFromEnv(process.env, ["ANTHROPIC_API_KEY"]);
if (process.env.ANTHROPIC_API_KEY !== undefined || env.ANTHROPIC_API_KEY === undefined) throw new Error("key not moved out of process.env");
const runtime = createToolRuntime({ workspaceRoot: process.argv[2], env: process.env, outputDir: process.argv[3] });
const command = 'echo "parent:"; tr "\\\\0" "\\\\n" < /proc/$PPID/environ; echo "own:"; env; echo "var=[$ANTHROPIC_API_KEY]"';
const outcome = await runtime.run({ id: "k1", name: "bash", arguments: { command } }, { ask: async () => ({ approved: true }) });
process.stdout.write(JSON.stringify(outcome));
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(info.kind === "none")(
  info.kind === "none" ? `keys out of reach of bash — skipped: ${info.reason ?? "no sandbox"}` : "keys out of reach of bash",
  () => {
    it("an approved bash command cannot read a planted key from /proc/$PPID/environ nor from its own environment", () => {
      const dir = mkdtempSync(join(tmpdir(), "awb-keys-"));
      dirs.push(dir);
      const script = join(dir, "core.mts");
      writeFileSync(script, CORE);
      const ws = join(dir, "ws");
      execFileSync("mkdir", [ws]);
      const out = execFileSync(join(repo, "node_modules", ".bin", "tsx"), [script, ws, join(dir, "out")], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: PLANTED },
        encoding: "utf8",
        timeout: 60_000,
      });
      const outcome = JSON.parse(out) as { ok: boolean; content?: { text: string }[] };
      expect(outcome.ok).toBe(true);
      const seen = outcome.content?.map((c) => c.text).join("\n") ?? "";
      // The command really read its parent's start-up environment and its own.
      expect(seen).toMatch(/parent:\n(.+\n)*PATH=/);
      expect(seen).toMatch(/own:\n(.+\n)*PATH=/);
      expect(seen).toContain("var=[]");
      expect(seen).not.toContain("PLANTED");
    }, 90_000);
  },
);
