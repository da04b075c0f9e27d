import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadDefaultToolSpecs, runWire } from "../../scripts/wire";
import { validateRequest } from "../../electron/core/providers/validate";
import { assistant, call, GPT5, result, user } from "./transform-fixtures";

const HISTORY = JSON.stringify([
  user("list"),
  assistant(GPT5, [call("call_abc|fc_123", "bash", { command: "ls" })]),
  result("call_abc|fc_123", "a.txt", "bash"),
]);

describe("npm run wire", () => {
  it("prints the exact body the adapter would send, ids rewritten for the target", async () => {
    const outcome = await runWire(["--target", "mistral/mistral-large-latest", "--tools", "default"], HISTORY);
    expect(outcome.code).toBe(0);
    const body: unknown = JSON.parse(outcome.stdout);
    expect(validateRequest("openai-completions", body, { mistral: true })).toBeNull();
    expect(outcome.stdout).toMatch(/"tool_call_id": "[a-zA-Z0-9]{9}"/);
  });

  it("with --id-map, also prints the wire-to-stored id mapping", async () => {
    const outcome = await runWire(["--target", "anthropic/claude-sonnet-4-5", "--tools", "default", "--id-map"], HISTORY);
    const parsed = JSON.parse(outcome.stdout) as { idMap: Record<string, string> };
    expect(parsed.idMap).toEqual({ call_abc_fc_123: "call_abc|fc_123" });
  });

  it("sends earlier tool calls as text when no tools are offered", async () => {
    const outcome = await runWire(["--target", "anthropic/claude-sonnet-4-5"], HISTORY);
    expect(outcome.stdout).not.toContain("tool_use");
    expect(validateRequest("anthropic-messages", JSON.parse(outcome.stdout))).toBeNull();
  });

  it("offers the eight default tools", async () => {
    const { specs } = await loadDefaultToolSpecs();
    expect(specs.map((s) => s.name).sort()).toEqual(["bash", "edit", "glob", "grep", "list", "read", "webfetch", "write"]);
  });

  it("exits 2 with a clear message on input that is not stored messages, or an unknown model", async () => {
    const bad = await runWire(["--target", "anthropic/claude-sonnet-4-5"], '[{"role":"robot"}]');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not an array of stored messages/);
    const notJson = await runWire(["--target", "anthropic/claude-sonnet-4-5"], "{oops");
    expect(notJson.stderr).toMatch(/not JSON/);
    const unknown = await runWire(["--target", "acme/model-9"], "[]");
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toMatch(/unknown model "acme\/model-9"/);
  });

  it("runs as a command: exit status 2 on bad input", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/wire.ts", "--target", "openai/gpt-5"], {
      input: "not json",
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^wire: standard input is not JSON/);
    // Starts tsx and loads the request builders: slow on a loaded machine; no timing is asserted.
  }, 120_000);
});
