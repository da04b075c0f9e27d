/**
 * The real pi coding agent (pinned) runs `pi -p` against the faux provider's
 * Anthropic route (a custom provider in a private PI_CODING_AGENT_DIR's
 * models.json, a dummy key; pi's per-tool `eager_input_streaming` turned off
 * by its documented compat flag, which the faux validators do not know)
 * doing a read, an edit and a bash call; its session file is then imported
 * and checked against what the faux provider served.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFauxProvider, reply, text, thinking, toolCall, type FauxProvider } from "../../electron/core/faux";
import { agentRoots, discover } from "../../electron/core/importers/discover";
import { importForeignFile } from "../../electron/core/importers/import-foreign";
import { loadOrigin } from "../../electron/core/importers/origin";
import { importPi } from "../../electron/core/importers/pi";
import { SessionStore } from "../../electron/core/store";
import { assistants, expectCallsPaired, shapeOf } from "./assertions";
import { ensureCli } from "./cli-cache";
import { fingerprint, runCli, usageTally } from "./run-cli";

const PKG = "@mariozechner/pi-coding-agent";
const VERSION = "0.73.1";
const MODEL = "claude-sonnet-4-5";

let faux: FauxProvider;
let agentDir: string;
let home: string;
let ws: string;
let script: string | null = null;
let why = "";
const { served, serve } = usageTally();

beforeAll(async () => {
  const cli = await ensureCli(PKG, VERSION);
  if ("error" in cli) {
    why = cli.error;
    return;
  }
  console.log(`pi ${VERSION}: install ${cli.installMs} ms (0 = cached)`);
  script = join(cli.dir, "node_modules", PKG, "dist", "cli.js");
  const root = mkdtempSync(join(tmpdir(), "pi-real-"));
  agentDir = join(root, "agent");
  home = join(root, "home");
  ws = join(root, "ws");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(home);
  mkdirSync(ws);
  writeFileSync(join(ws, "notes.txt"), "hello world\n");
  faux = await startFauxProvider();
  writeFileSync(
    join(agentDir, "models.json"),
    JSON.stringify({
      providers: {
        faux: {
          baseUrl: faux.baseUrls.anthropic,
          api: "anthropic-messages",
          apiKey: "sk-ant-faux-dummy",
          compat: { supportsEagerToolInputStreaming: false },
          models: [{ id: MODEL, reasoning: true }],
        },
      },
    }),
  );
  let step = 0;
  faux.setDefaultResponder((req) => {
    if (!req.tools.some((t) => t.name === "read")) return reply("ok");
    if (req.lastTurn?.role === "user")
      return reply([thinking("Read it first."), text("Reading."), toolCall("read", { path: "notes.txt" })], serve(900, 30));
    step++;
    if (step === 1)
      return reply(
        [thinking("Edit."), toolCall("edit", { path: "notes.txt", edits: [{ oldText: "hello", newText: "goodbye" }] })],
        serve(1100, 40),
      );
    if (step === 2) return reply([thinking("Show."), toolCall("bash", { command: "cat notes.txt" })], serve(1300, 20));
    return reply([thinking("Done."), text("notes.txt now says goodbye world.")], serve(1500, 12));
  });
}, 900_000);

afterAll(async () => {
  await faux?.close();
});

describe(`pi ${VERSION} (real CLI) → import`, () => {
  it("imports the session it wrote: messages, paired calls, model, usage as served, signatures", async (ctx) => {
    if (script === null) return ctx.skip(`the pi CLI could not be installed here: ${why}`);
    const run = await runCli(
      process.execPath,
      [script, "-p", "Change hello to goodbye in notes.txt, then show the file", "--provider", "faux", "--model", `${MODEL}:low`],
      {
        cwd: ws,
        env: { PATH: process.env.PATH, HOME: home, PI_CODING_AGENT_DIR: agentDir },
      },
    );
    console.log(`pi run: ${run.ms} ms, exit ${run.code}`);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe("goodbye world\n");
    expect(faux.requests.every((r) => r.accepted)).toBe(true);

    const [listing] = await discover(agentRoots({ PI_CODING_AGENT_DIR: agentDir }, home).filter((r) => r.agent === "pi"));
    expect(listing?.sessions).toHaveLength(1);
    const file = listing.sessions[0].path;
    const before = await fingerprint([file]);
    const foreign = importPi(file, readFileSync(file, "utf8"));
    const shape = shapeOf(foreign.entries);
    expect({ user: shape.user, assistant: shape.assistant, toolResult: shape.toolResult }).toEqual({
      user: 1,
      assistant: 4,
      toolResult: 3,
    });
    expect(shape.calls.map((c) => c.name)).toEqual(["read", "edit", "bash"]);
    expectCallsPaired(foreign.entries);
    expect(new Set(shape.models)).toEqual(new Set([MODEL]));
    expect({ input: shape.input, output: shape.output }).toEqual({ input: served.input, output: served.output });
    for (const m of assistants(foreign.entries)) {
      const t = m.content.find((b) => b.type === "thinking");
      expect(t?.type === "thinking" && t.signature !== undefined && faux.signatureOwner(t.signature)).toBe(MODEL);
    }
    expect(foreign.cwd).toBe(ws);

    const store = SessionStore.open(":memory:");
    const result = await importForeignFile(store, store.addWorkspace(ws).id, { agent: "pi", path: file, root: listing.folder });
    expect(store.loadEntries(result.session.id).map((e) => e.entry)).toEqual(foreign.entries);
    expect(loadOrigin(store, result.session.id)).toMatchObject({ agent: "pi", foreignId: foreign.foreignId });
    expect(await fingerprint([file])).toEqual(before);
    store.close();
  });

  it("a session tree with two branches imports the last one as the session and the other beside it", () => {
    const line = (o: object) => JSON.stringify(o);
    const T = "2026-03-01T10:00:00.000Z";
    const msg = (id: string, parentId: string | null, message: object) =>
      line({ type: "message", id, parentId, timestamp: T, message: { timestamp: 1772359200000, ...message } });
    const a = {
      role: "assistant",
      api: "anthropic-messages",
      provider: "anthropic",
      model: MODEL,
      usage: { input: 5, output: 2, cacheRead: 0, cacheWrite: 0 },
      stopReason: "stop",
    };
    const text = [
      line({ type: "session", version: 3, id: "tree", timestamp: T, cwd: "/w" }),
      msg("u1", null, { role: "user", content: "first" }),
      msg("a1", "u1", { ...a, content: [{ type: "text", text: "one" }] }),
      msg("u2", "a1", { role: "user", content: "left branch" }),
      msg("a2", "u2", { ...a, content: [{ type: "text", text: "left" }] }),
      msg("u3", "a1", { role: "user", content: "right branch" }),
      msg("a3", "u3", { ...a, content: [{ type: "text", text: "right" }] }),
    ].join("\n");
    const s = importPi("t.jsonl", text);
    const texts = (entries: typeof s.entries) =>
      entries.map((e) => (e.type === "message" && e.message.content[0]?.type === "text" ? e.message.content[0].text : "?"));
    expect(texts(s.entries)).toEqual(["first", "one", "right branch", "right"]);
    expect(s.children.map((c) => texts(c.entries))).toEqual([["first", "one", "left branch", "left"]]);
    expect(s.children[0]?.title).toBe("first (branch 1)");
    expect(s.notHeld.join("\n")).toContain("2 branches");
  });
});
