/**
 * Checkpoints recorded by real turns (faux provider, real tools) and rewinds
 * through the WorkbenchApi: write, edit and bash changes restored byte-exact
 * with modes and symlinks, the user's .git untouched, conflicts, undo.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../agent/harness";
import { filesOnly, picture } from "./fs-snapshot";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let h: Harness | null = null;
let dataDir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
});

async function start(files: Record<string, string>): Promise<Harness> {
  dataDir = mkdtempSync(join(tmpdir(), "wb-cp-data-"));
  const harness = await startHarness({ files, workbench: { checkpointDir: join(dataDir, "checkpoints") } });
  await harness.call("settings.update", {
    approvalPolicy: { write: "allow", edit: "allow", bash: "allow", bashAllow: [], bashDeny: [] },
  });
  return harness;
}

/** One turn: write a new file, edit one, then a bash command doing everything else. */
function scriptTurn(harness: Harness, command: string, id = "1"): void {
  harness.faux.script([
    {
      type: "reply",
      content: [
        { type: "toolCall", id: `toolu_write_${id}`, name: "write", arguments: { path: "new.txt", content: "created by write\n" } },
        {
          type: "toolCall",
          id: `toolu_edit_${id}`,
          name: "edit",
          arguments: { path: "a.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] },
        },
        { type: "toolCall", id: `toolu_bash_${id}`, name: "bash", arguments: { command } },
      ],
    },
    { type: "reply", content: [{ type: "text", text: "done" }] },
  ]);
}

const BASH_CHANGES = [
  "mv old.txt renamed.txt",
  "chmod +x script.sh",
  "rm gone.txt",
  "printf '\\000\\001\\377\\376' > blob.bin",
  "ln -sf renamed.txt link.txt",
  "mkdir -p sub && echo made-by-bash > sub/third.txt",
  "echo dep > node_modules/added.js",
].join(" && ");

function seedWorkspace(root: string): void {
  writeFileSync(join(root, "blob.bin"), Buffer.from([0xff, 0x00, 0x10, 0x80]));
  chmodSync(join(root, "script.sh"), 0o644);
  symlinkSync("a.txt", join(root, "link.txt"));
}

// Each side effect records a checkpoint (two git processes): 12-15 s a test on a quiet CI run, 31 s at
// load 16 on 2 cores. Generous; no timing is asserted.
describe("checkpoints recorded by turns, and rewind", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("restores write, edit and bash changes (create, modify, delete, rename, chmod, binary, symlink) byte-exact, in a folder that is not a git repository", async () => {
    h = await start({
      "a.txt": "alpha\n",
      "old.txt": "old\n",
      "gone.txt": "bye\n",
      "script.sh": "echo hi\n",
      "node_modules/dep.js": "x\n",
    });
    seedWorkspace(h.workspace);
    const before = filesOnly(picture(h.workspace));
    scriptTurn(h, BASH_CHANGES);
    await h.turn("change things");
    const after = filesOnly(picture(h.workspace));
    expect(after["renamed.txt"]).toBeDefined();
    expect(after["script.sh"]).toMatch(/^file 755 /);

    const list = await h.call("checkpoint.list", { sessionId: h.sessionId });
    expect(list.map((c) => c.kind)).toEqual(["turnStart", "afterTool", "afterTool", "afterTool"]);
    expect(list.map((c) => c.toolCallId)).toEqual(["toolu_write_1", "toolu_write_1", "toolu_edit_1", "toolu_bash_1"]);

    // The bash step's checkpoint holds what bash did, not only what write/edit reported.
    const bashDiff = await h.call("checkpoint.diff", { from: list[2].id, to: list[3].id });
    expect(bashDiff.map((f) => `${f.status} ${f.path}`).sort()).toEqual(
      [
        "added renamed.txt",
        "deleted old.txt",
        "deleted gone.txt",
        "modified script.sh",
        "modified blob.bin",
        "modified link.txt",
        "added sub/third.txt",
      ].sort(),
    );

    const preview = await h.call("rewind.preview", { sessionId: h.sessionId, target: { seq: 0 } });
    expect(preview.conflicts).toBe(0);
    expect(preview.files.map((f) => f.path).sort()).toEqual(
      ["a.txt", "new.txt", "renamed.txt", "old.txt", "gone.txt", "script.sh", "blob.bin", "link.txt", "sub/third.txt"].sort(),
    );
    expect(preview.files.find((f) => f.path === "a.txt")).toMatchObject({ before: "ALPHA\n", after: "alpha\n", conflict: false });
    expect(preview.files.find((f) => f.path === "blob.bin")).toMatchObject({ binary: true, textShown: false });

    const applied = await h.call("rewind.apply", { sessionId: h.sessionId, target: { seq: 0 }, mode: "files" });
    expect(applied.forked).toBeNull();
    const restored = picture(h.workspace);
    // Ignored files are never touched: the dependency bash added stays.
    expect(restored["node_modules/added.js"]).toBeDefined();
    delete restored["node_modules/added.js"];
    expect(filesOnly(restored)).toEqual(before);
    expect(restored["sub/"]).toBeUndefined();

    // Rewind of the rewind: back to the state the turn left.
    expect(applied.undoCheckpointId).not.toBeNull();
    await h.call("rewind.apply", { sessionId: h.sessionId, target: { checkpointId: applied.undoCheckpointId! }, mode: "files" });
    expect(filesOnly(picture(h.workspace))).toEqual(after);
  });

  it("restore both forks the conversation before the turn and hands back the message as a draft", async () => {
    h = await start({
      "a.txt": "alpha\n",
      "old.txt": "old\n",
      "gone.txt": "bye\n",
      "script.sh": "echo hi\n",
      "node_modules/dep.js": "x\n",
    });
    seedWorkspace(h.workspace);
    await h.turn("hello there");
    h.faux.script([]);
    const before = filesOnly(picture(h.workspace));
    const { entries: firstTurn } = await h.call("session.load", { sessionId: h.sessionId });
    scriptTurn(h, "echo third > third.txt");
    await h.turn("make three files");
    const atSeq = firstTurn.length; // the step before the second user message

    // Review reads the checkpoints: the file bash created is among the files at the last step, and in the export's diff.
    const { entries: all } = await h.call("session.load", { sessionId: h.sessionId });
    const states = await h.call("review.fileStates", { sessionId: h.sessionId, seq: all.length });
    expect(states.files.find((f) => f.path === "third.txt")).toMatchObject({ before: null, after: "third\n", created: true });
    expect(states.files.find((f) => f.path === "a.txt")).toMatchObject({ before: "alpha\n", after: "ALPHA\n" });
    expect(states.untracked).toEqual([]);
    const earlier = await h.call("review.fileStates", { sessionId: h.sessionId, seq: atSeq });
    expect(earlier.files.find((f) => f.path === "third.txt")).toBeUndefined();
    const md = await h.call("review.export", { sessionId: h.sessionId, format: "markdown", includeWorkspaceDiff: true });
    expect(md.content).toMatch(/## Workspace diff\n\n```diff\ndiff --git a\/a.txt b\/a.txt[\s\S]*\+third/);
    const json = JSON.parse(
      (await h.call("review.export", { sessionId: h.sessionId, format: "json", includeWorkspaceDiff: true })).content,
    ) as { workspaceDiff: string };
    expect(json.workspaceDiff).toContain("+++ b/new.txt");

    const preview = await h.call("rewind.preview", { sessionId: h.sessionId, target: { seq: atSeq } });
    expect(preview.files.map((f) => f.path).sort()).toEqual(["a.txt", "new.txt", "third.txt"]);
    const applied = await h.call("rewind.apply", { sessionId: h.sessionId, target: { seq: atSeq }, mode: "both" });
    expect(filesOnly(picture(h.workspace))).toEqual(before);
    expect(applied.draft).toBe("make three files");
    const fork = await h.call("session.load", { sessionId: applied.forked!.id });
    expect(fork.session.parentSessionId).toBe(h.sessionId);
    expect(fork.session.parentSeq).toBe(atSeq);
    expect(fork.entries.slice(0, atSeq).map((e) => e.entry)).toEqual(firstTurn.map((e) => e.entry));
    // The original session is kept whole.
    const original = await h.call("session.load", { sessionId: h.sessionId });
    expect(original.entries.length).toBeGreaterThan(atSeq + 3);
  });

  it("never touches the user's own .git: HEAD, index, refs and stash are byte-identical after checkpoints and a restore", async () => {
    h = await start({
      "a.txt": "alpha\n",
      "old.txt": "old\n",
      "gone.txt": "bye\n",
      "script.sh": "echo hi\n",
      "node_modules/dep.js": "x\n",
    });
    const g = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: h!.workspace,
        env: {
          ...process.env,
          GIT_CONFIG_GLOBAL: "/dev/null",
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@t",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@t",
        },
      });
    g("init", "-q");
    writeFileSync(join(h.workspace, ".gitignore"), "secret.env\n");
    writeFileSync(join(h.workspace, "secret.env"), "TOKEN=1\n");
    g("add", "-A");
    g("commit", "-qm", "first");
    writeFileSync(join(h.workspace, "a.txt"), "alpha\nstashed\n");
    g("stash", "-q");
    writeFileSync(join(h.workspace, "old.txt"), "old\nstaged\n");
    g("add", "old.txt");
    const gitBefore = picture(join(h.workspace, ".git"));
    const before = filesOnly(picture(h.workspace, [".git"]));

    scriptTurn(h, "echo third > third.txt && rm secret.env");
    await h.turn("change things");
    expect(picture(join(h.workspace, ".git"))).toEqual(gitBefore);
    await h.call("rewind.apply", { sessionId: h.sessionId, target: { seq: 0 }, mode: "files" });
    expect(picture(join(h.workspace, ".git"))).toEqual(gitBefore);
    const restored = filesOnly(picture(h.workspace, [".git"]));
    // The ignored secret.env was never recorded, so a rewind cannot bring it back; everything else is exact.
    delete before["secret.env"];
    expect(restored).toEqual(before);
    expect(g("stash", "list").toString()).toContain("stash@{0}");
  });

  it("flags files changed outside the agent as conflicts, restores over them only when confirmed, and can undo that", async () => {
    h = await start({ "a.txt": "alpha\n", "b.txt": "beta\n" });
    scriptTurn(h, "echo third > third.txt");
    await h.turn("change things");
    writeFileSync(join(h.workspace, "b.txt"), "beta edited by the user\n");

    const preview = await h.call("rewind.preview", { sessionId: h.sessionId, target: { seq: 0 } });
    const byPath = Object.fromEntries(preview.files.map((f) => [f.path, f.conflict]));
    expect(byPath).toEqual({ "a.txt": false, "new.txt": false, "third.txt": false, "b.txt": true });
    expect(preview.conflicts).toBe(1);

    const refused = await h.workbench.handle("rewind.apply", { sessionId: h.sessionId, target: { seq: 0 }, mode: "files" });
    expect(refused).toMatchObject({ ok: false, error: { code: "CONFLICT" } });
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("ALPHA\n");

    const applied = await h.call("rewind.apply", { sessionId: h.sessionId, target: { seq: 0 }, mode: "files", confirmConflicts: true });
    expect(readFileSync(join(h.workspace, "b.txt"), "utf8")).toBe("beta\n");
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("alpha\n");
    // The user's edit was checkpointed first: undoing the rewind brings it back.
    await h.call("rewind.apply", { sessionId: h.sessionId, target: { checkpointId: applied.undoCheckpointId! }, mode: "files" });
    expect(readFileSync(join(h.workspace, "b.txt"), "utf8")).toBe("beta edited by the user\n");
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("ALPHA\n");
  });

  it("refuses a rewind while a turn is running, with a clear error", async () => {
    h = await start({ "a.txt": "alpha\n" });
    await h.call("settings.update", { approvalPolicy: { write: "ask", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] } });
    scriptTurn(h, "true");
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    await h.waitFor("turn.state", (s) => s.status === "awaitingApproval", from);
    const refused = await h.workbench.handle("rewind.apply", { sessionId: h.sessionId, target: { seq: 0 }, mode: "both" });
    expect(refused).toMatchObject({ ok: false, error: { code: "CONFLICT", message: expect.stringMatching(/turn is running/) } });
    await h.call("chat.abort", { sessionId: h.sessionId });
    await h.waitIdle(from);
  });
});
