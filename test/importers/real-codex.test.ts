/**
 * The real Codex CLI (pinned) runs `codex exec` against the faux provider's
 * Responses route (a custom model provider in a private CODEX_HOME, a dummy
 * key; the features that reach the network or send tool types the faux
 * validators do not know are turned off) doing a read, an edit (apply_patch)
 * and a bash call; its rollout is then imported and checked against what the
 * faux provider served.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFauxProvider, reply, text, thinking, toolCall, type FauxProvider } from "../../electron/core/faux";
import { importCodex } from "../../electron/core/importers/codex";
import { decodeText } from "../../electron/core/importers/decode";
import { agentRoots, discover } from "../../electron/core/importers/discover";
import { importForeignFile } from "../../electron/core/importers/import-foreign";
import { loadOrigin } from "../../electron/core/importers/origin";
import { onPath } from "../../scripts/chromium-path";
import { SessionStore } from "../../electron/core/store";
import { assistants, expectCallsPaired, shapeOf } from "./assertions";
import { ensureCli } from "./cli-cache";
import { fingerprint, runCli } from "./run-cli";

const PKG = "@openai/codex";
const VERSION = "0.171.0";
const MODEL = "gpt-5-codex";

let faux: FauxProvider;
let home: string;
let codexHome: string;
let ws: string;
let script: string | null = null;
let rollout: string | null = null;
let why = "";
const served = { input: 0, cached: 0, output: 0, replies: 0 };

function serve(input: number, cacheRead: number, output: number) {
  served.input += input + cacheRead;
  served.cached += cacheRead;
  served.output += output;
  served.replies++;
  return { usage: { input, cacheRead, output } };
}

beforeAll(async () => {
  const cli = await ensureCli(PKG, VERSION);
  if ("error" in cli) {
    why = cli.error;
    return;
  }
  console.log(`codex ${VERSION}: install ${cli.installMs} ms (0 = cached)`);
  script = join(cli.dir, "node_modules", PKG, "bin", "codex.js");
  const root = mkdtempSync(join(tmpdir(), "codex-real-"));
  home = join(root, "home");
  codexHome = join(home, ".codex");
  ws = join(root, "ws");
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(ws);
  writeFileSync(join(ws, "notes.txt"), "hello world\n");
  faux = await startFauxProvider();
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      `model = "${MODEL}"`,
      `model_provider = "faux"`,
      `web_search = "disabled"`,
      `[model_providers.faux]`,
      `name = "faux"`,
      `base_url = "${faux.baseUrls.openai}"`,
      `env_key = "FAUX_OPENAI_KEY"`,
      `wire_api = "responses"`,
      // Sub-agent tools come as a `namespace` tool; plugins sync from GitHub at start.
      `[features]`,
      `multi_agent = false`,
      `plugins = false`,
      `remote_plugin = false`,
      `goals = false`,
      "",
    ].join("\n"),
  );
  let step = 0;
  const patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: notes.txt\n@@\n-hello world\n+goodbye world\n*** End Patch\nEOF\n";
  faux.setDefaultResponder((req) => {
    if (!req.tools.some((t) => t.name === "exec_command")) return reply("ok");
    if (req.lastTurn?.role === "user")
      return reply([thinking("Read it first."), toolCall("exec_command", { cmd: "cat notes.txt" })], serve(1100, 0, 30));
    step++;
    if (step === 1) return reply([toolCall("exec_command", { cmd: patch })], serve(300, 1000, 40));
    if (step === 2) return reply([toolCall("exec_command", { cmd: "cat notes.txt" })], serve(400, 1200, 20));
    return reply([text("notes.txt now says goodbye world.")], serve(500, 1400, 12));
  });
}, 900_000);

afterAll(async () => {
  await faux?.close();
});

describe(`Codex ${VERSION} (real CLI) → import`, () => {
  it("imports the rollout it wrote: messages, paired calls, model, usage as served, encrypted reasoning", async (ctx) => {
    if (script === null) return ctx.skip(`the Codex CLI could not be installed here: ${why}`);
    const run = await runCli(
      process.execPath,
      [
        script,
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "Change hello to goodbye in notes.txt, then show the file",
      ],
      {
        cwd: ws,
        env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: codexHome, FAUX_OPENAI_KEY: "sk-faux-dummy", RUST_LOG: "error" },
      },
    );
    console.log(`codex run: ${run.ms} ms, exit ${run.code}`);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe("goodbye world\n");
    expect(faux.requests.every((r) => r.accepted)).toBe(true);

    const [listing] = await discover(agentRoots({ CODEX_HOME: codexHome }, home).filter((r) => r.agent === "codex"));
    expect(listing?.sessions).toHaveLength(1);
    const file = listing.sessions[0].path;
    const before = await fingerprint([file]);

    const foreign = importCodex(file, readFileSync(file, "utf8"));
    const shape = shapeOf(foreign.entries);
    expect({ user: shape.user, assistant: shape.assistant, toolResult: shape.toolResult }).toEqual({
      user: 1,
      assistant: 4,
      toolResult: 3,
    });
    expect(shape.calls.map((c) => c.name)).toEqual(["exec_command", "exec_command", "exec_command"]);
    expectCallsPaired(foreign.entries);
    expect(new Set(shape.models)).toEqual(new Set([MODEL]));
    expect(served.replies).toBe(4);
    expect({ input: shape.input, output: shape.output }).toEqual({ input: served.input, output: served.output });
    expect(assistants(foreign.entries).reduce((n, m) => n + m.usage.cacheRead, 0)).toBe(served.cached);
    // The reasoning item keeps its encrypted content, issued for the model that wrote it.
    const reasoning = assistants(foreign.entries)[0].content.find((b) => b.type === "thinking");
    expect(reasoning?.type === "thinking" && reasoning.thinking).toBe("Read it first.");
    const item = JSON.parse(reasoning?.type === "thinking" ? (reasoning.signature ?? "{}") : "{}") as { encrypted_content?: string };
    expect(faux.signatureOwner(item.encrypted_content ?? "")).toBe(MODEL);
    expect(foreign.notHeld.join("\n")).toContain("approval policy never");

    const store = SessionStore.open(":memory:");
    const workspaceId = store.addWorkspace(ws).id;
    const result = await importForeignFile(store, workspaceId, { agent: "codex", path: file, root: listing.folder });
    expect(store.loadEntries(result.session.id).map((e) => e.entry)).toEqual(foreign.entries);
    expect(loadOrigin(store, result.session.id)).toMatchObject({ agent: "codex", foreignId: foreign.foreignId });
    expect(await fingerprint([file])).toEqual(before);
    store.close();
    rollout = file;
  });

  it("reads the same rollout compressed as .jsonl.zst", async (ctx) => {
    if (rollout === null) return ctx.skip("no rollout: the run above did not get that far");
    if (onPath("zstd") === null) return ctx.skip("the zstd program is not installed here (apt-get install zstd) to compress the rollout");
    const zst = join(tmpdir(), `rollout-${process.pid}.jsonl.zst`);
    execFileSync("zstd", ["-q", "-f", rollout, "-o", zst]);
    const plain = importCodex(rollout, readFileSync(rollout, "utf8"));
    expect(importCodex(zst, decodeText(readFileSync(zst), zst)).entries).toEqual(plain.entries);
    await Promise.resolve();
  });
});
