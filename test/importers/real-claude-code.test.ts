/**
 * The real Claude Code CLI (pinned) runs headless against the faux provider
 * (ANTHROPIC_BASE_URL, a dummy key, a private HOME) doing a read, an edit and
 * a bash call; its transcript is then imported and checked against what the
 * faux provider served.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFauxProvider, reply, text, thinking, toolCall, type FauxProvider } from "../../electron/core/faux";
import { importClaudeCode } from "../../electron/core/importers/claude-code";
import { agentRoots, discover } from "../../electron/core/importers/discover";
import { importForeignFile } from "../../electron/core/importers/import-foreign";
import { loadOrigin } from "../../electron/core/importers/origin";
import { fileStatesAt } from "../../electron/core/review/file-history";
import { SessionStore } from "../../electron/core/store";
import { assistants, expectCallsPaired, shapeOf } from "./assertions";
import { ensureCli } from "./cli-cache";
import { fingerprint, runCli, usageTally } from "./run-cli";

const PKG = "@anthropic-ai/claude-code";
const VERSION = "2.1.332";
const MODEL = "claude-sonnet-4-5";

let faux: FauxProvider;
let root: string;
let home: string;
let ws: string;
let bin: string | null = null;
/** The first run's transcript and session id, for the compaction test. */
let firstRun: { file: string; sessionId: string; root: string } | null = null;
let why = "";
const { served, serve } = usageTally();

beforeAll(async () => {
  const cli = await ensureCli(PKG, VERSION);
  if ("error" in cli) {
    why = cli.error;
    return;
  }
  console.log(`claude-code ${VERSION}: install ${cli.installMs} ms (0 = cached)`);
  // The wrapper's postinstall copies the platform binary over bin/claude.exe; where it did not run, use that binary.
  const platform = join(cli.dir, "node_modules", "@anthropic-ai", `claude-code-${process.platform}-${process.arch}`, "claude");
  const wrapper = join(cli.dir, "node_modules", PKG, "bin", "claude.exe");
  bin = readFileSync(wrapper).subarray(0, 4).toString("latin1") === "\x7fELF" ? wrapper : platform;
  root = mkdtempSync(join(tmpdir(), "cc-real-"));
  home = join(root, "home");
  ws = join(root, "ws");
  mkdirSync(home);
  mkdirSync(ws);
  writeFileSync(join(ws, "notes.txt"), "hello world\n");
  faux = await startFauxProvider();
  let step = 0;
  faux.setDefaultResponder((req) => {
    // Side requests (titles, topic checks) carry no tools and are not in the transcript.
    if (!req.tools.some((t) => t.name === "Read")) return reply("ok");
    const last = req.lastTurn;
    if (last?.role === "user")
      return reply([thinking("Read it first."), text("Reading."), toolCall("Read", { file_path: join(ws, "notes.txt") })], serve(1200, 30));
    step++;
    if (step === 1)
      return reply(
        [thinking("Now the edit."), toolCall("Edit", { file_path: join(ws, "notes.txt"), old_string: "hello", new_string: "goodbye" })],
        serve(1500, 40),
      );
    if (step === 2)
      return reply([thinking("Show it."), toolCall("Bash", { command: "cat notes.txt", description: "Show the file" })], serve(1700, 25));
    return reply([thinking("Done."), text("notes.txt now says goodbye world.")], serve(1900, 12));
  });
}, 900_000);

afterAll(async () => {
  await faux?.close();
});

describe(`Claude Code ${VERSION} (real CLI) → import`, () => {
  it("imports the transcript it wrote: messages, paired calls, model, usage as served, signatures", async (ctx) => {
    if (bin === null) return ctx.skip(`the Claude Code CLI could not be installed here: ${why}`);
    const run = await runCli(
      bin,
      [
        "-p",
        "Change hello to goodbye in notes.txt, then show the file",
        "--model",
        MODEL,
        "--allowedTools",
        "Read,Edit,Bash",
        "--output-format",
        "json",
      ],
      {
        cwd: ws,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          ANTHROPIC_BASE_URL: faux.baseUrls.anthropic,
          ANTHROPIC_API_KEY: "sk-ant-faux-dummy",
          DISABLE_TELEMETRY: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_ERROR_REPORTING: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        },
      },
    );
    console.log(`claude-code run: ${run.ms} ms, exit ${run.code}`);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe("goodbye world\n");

    const [listing] = await discover(
      agentRoots({ CLAUDE_CONFIG_DIR: join(home, ".claude") }, home).filter((r) => r.agent === "claude-code"),
    );
    expect(listing?.exists).toBe(true);
    expect(listing?.sessions).toHaveLength(1);
    const file = listing.sessions[0].path;
    const before = await fingerprint([file]);

    const foreign = importClaudeCode({ path: file, text: readFileSync(file, "utf8") });
    const shape = shapeOf(foreign.entries);
    expect({ user: shape.user, assistant: shape.assistant, toolResult: shape.toolResult }).toEqual({
      user: 1,
      assistant: 4,
      toolResult: 3,
    });
    expect(shape.calls.map((c) => c.name)).toEqual(["Read", "Edit", "Bash"]);
    expectCallsPaired(foreign.entries);
    expect(new Set(shape.models)).toEqual(new Set([MODEL]));
    expect(served.replies).toBe(4);
    expect({ input: shape.input, output: shape.output }).toEqual({ input: served.input, output: served.output });
    // Thinking keeps the signature the provider issued, bound to the model that wrote it.
    for (const m of assistants(foreign.entries)) {
      const t = m.content.find((b) => b.type === "thinking");
      expect(t?.type === "thinking" && t.signature !== undefined && faux.signatureOwner(t.signature)).toBe(MODEL);
      expect(m.usage.cost.unknown).toBeUndefined();
      expect(m.usage.cost.total).toBeGreaterThan(0);
    }
    expect(foreign.cwd).toBe(ws);
    expect(foreign.title).toBe("Change hello to goodbye in notes.txt, then show the file");

    // Through the store: one visible session, labelled with its origin; the foreign file untouched.
    const store = SessionStore.open(":memory:");
    const workspaceId = store.addWorkspace(ws).id;
    const result = await importForeignFile(store, workspaceId, { agent: "claude-code", path: file, root: listing.folder });
    expect(result.session.entryCount).toBe(foreign.entries.length);
    expect(store.listSessions(workspaceId).sessions.map((s) => s.id)).toEqual([result.session.id]);
    expect(loadOrigin(store, result.session.id)).toMatchObject({
      agent: "claude-code",
      foreignId: foreign.foreignId,
      parentSessionId: null,
    });
    expect(store.loadEntries(result.session.id).map((e) => e.entry)).toEqual(foreign.entries);
    // Replay's files at the last step come from the recorded Edit: before and after, with its diff.
    const states = fileStatesAt(store.loadEntries(result.session.id), foreign.entries.length);
    expect(states.files).toMatchObject([
      { path: "notes.txt", before: "hello world\n", after: "goodbye world\n", changes: [{ toolName: "Edit", added: 1, removed: 1 }] },
    ]);
    expect(await fingerprint([file])).toEqual(before);
    expect(await readdir(join(home, ".claude", "projects"))).toHaveLength(1);
    store.close();
    firstRun = { file, sessionId: foreign.foreignId, root: listing.folder };
  });

  it("imports a compaction (/compact on the resumed session) as a compaction entry with Claude Code's summary", async (ctx) => {
    if (bin === null) return ctx.skip(`the Claude Code CLI could not be installed here: ${why}`);
    if (firstRun === null) return ctx.skip("the first run did not get that far");
    const SUMMARY = "The user asked to change hello to goodbye in notes.txt; it was edited and shown.";
    faux.setDefaultResponder(() => reply([text(`<summary>${SUMMARY}</summary>`)]));
    const run = await runCli(bin, ["-p", "/compact", "--resume", firstRun.sessionId, "--model", MODEL, "--output-format", "json"], {
      cwd: ws,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_BASE_URL: faux.baseUrls.anthropic,
        ANTHROPIC_API_KEY: "sk-ant-faux-dummy",
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const foreign = importClaudeCode({ path: firstRun.file, text: readFileSync(firstRun.file, "utf8") });
    const compactions = foreign.entries.flatMap((e, i) => (e.type === "compaction" ? [{ e, seq: i + 1 }] : []));
    expect(compactions).toHaveLength(1);
    const { e, seq } = compactions[0];
    expect(e).toMatchObject({ trigger: "manual", step: "summary", model: { id: MODEL } });
    expect(e.summary).toContain(SUMMARY);
    expect(e.tokensBefore).toBeGreaterThan(0);
    expect(e.firstKeptSeq).toBeGreaterThanOrEqual(1);
    expect(e.firstKeptSeq).toBeLessThanOrEqual(seq + 1);
    // Everything before the compaction is still there for replay.
    expect(shapeOf(foreign.entries).calls.map((c) => c.name)).toEqual(["Read", "Edit", "Bash"]);
    expectCallsPaired(foreign.entries);
    const store = SessionStore.open(":memory:");
    const result = await importForeignFile(store, store.addWorkspace(ws).id, {
      agent: "claude-code",
      path: firstRun.file,
      root: firstRun.root,
    });
    expect(store.loadEntries(result.session.id).map((x) => x.entry)).toEqual(foreign.entries);
    store.close();
  });

  it("imports a sub-agent's transcript (subagents/) as a child session linked to its parent", async (ctx) => {
    if (bin === null) return ctx.skip(`the Claude Code CLI could not be installed here: ${why}`);
    const subHome = join(root, "home-sub");
    const subWs = join(root, "ws-sub");
    mkdirSync(subHome);
    mkdirSync(subWs);
    writeFileSync(join(subWs, "notes.txt"), "hello world\n");
    const SUB_PROMPT = "Run cat notes.txt and report what it says.";
    const subFaux = await startFauxProvider();
    let main = 0;
    let sub = 0;
    subFaux.setDefaultResponder((req) => {
      if (!req.tools.some((t) => t.name === "Read")) return reply("ok");
      const first = req.turns.find((t) => t.role === "user");
      if (first?.role === "user" && first.text.includes(SUB_PROMPT)) {
        sub++;
        if (sub === 1) return reply([thinking("Run it."), toolCall("Bash", { command: "cat notes.txt", description: "Show the file" })]);
        return reply([thinking("Report."), text("It says hello world.")]);
      }
      main++;
      if (main === 1)
        return reply([
          thinking("Delegate."),
          toolCall("Agent", { description: "Read notes", prompt: SUB_PROMPT, subagent_type: "general-purpose" }),
        ]);
      return reply([thinking("Done."), text("The sub-agent says notes.txt holds hello world.")]);
    });
    try {
      const run = await runCli(
        bin,
        ["-p", "Ask a sub-agent what notes.txt says", "--model", MODEL, "--allowedTools", "Read,Bash,Agent", "--output-format", "json"],
        {
          cwd: subWs,
          env: {
            PATH: process.env.PATH,
            HOME: subHome,
            ANTHROPIC_BASE_URL: subFaux.baseUrls.anthropic,
            ANTHROPIC_API_KEY: "sk-ant-faux-dummy",
            DISABLE_TELEMETRY: "1",
            DISABLE_AUTOUPDATER: "1",
            DISABLE_ERROR_REPORTING: "1",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          },
        },
      );
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(sub).toBe(2);
    } finally {
      await subFaux.close();
    }
    const [listing] = await discover(
      agentRoots({ CLAUDE_CONFIG_DIR: join(subHome, ".claude") }, subHome).filter((r) => r.agent === "claude-code"),
    );
    // The sub-agent's transcript is not a session of its own in the listing.
    expect(listing?.sessions).toHaveLength(1);
    const store = SessionStore.open(":memory:");
    const workspaceId = store.addWorkspace(subWs).id;
    const result = await importForeignFile(store, workspaceId, {
      agent: "claude-code",
      path: listing.sessions[0].path,
      root: listing.folder,
    });
    expect(result.children).toHaveLength(1);
    const child = result.children[0];
    const childEntries = store.loadEntries(child.id).map((e) => e.entry);
    const childShape = shapeOf(childEntries);
    expect(childShape.calls.map((c) => c.name)).toEqual(["Bash"]);
    expectCallsPaired(childEntries);
    expect(JSON.stringify(childEntries)).toContain(SUB_PROMPT);
    const parentShape = shapeOf(store.loadEntries(result.session.id).map((e) => e.entry));
    expect(parentShape.calls.map((c) => c.name)).toEqual(["Agent"]);
    expect(loadOrigin(store, result.session.id)?.children).toEqual([child.id]);
    expect(loadOrigin(store, child.id)?.parentSessionId).toBe(result.session.id);
    store.close();
  });
});
