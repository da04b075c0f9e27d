/**
 * Scoped approvals and saved rules through the WorkbenchApi: what "approve for
 * this session" and "always" allow, that the rule is stored with the decision
 * and in the audit, and that rules are listed, edited and revoked per workspace.
 */
import { afterEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FauxStep } from "../../electron/core/faux";
import { MODELS, expectEveryCallAnswered, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
let dir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const bash = (id: string, command: string): FauxStep => ({
  type: "reply",
  content: [{ type: "toolCall", id, name: "bash", arguments: { command } }],
});
const done: FauxStep = { type: "reply", content: [{ type: "text", text: "done" }] };

async function askedFor(harness: Harness, toolCallId: string, from: number) {
  return harness.waitFor("turn.state", (s) => s.status === "awaitingApproval" && s.pendingApproval?.toolCallId === toolCallId, from);
}

describe("scoped approvals", () => {
  it("approve for the session with the exact command, then asks again for a longer line", async () => {
    dir = mkdtempSync(join(tmpdir(), "wb-rules-"));
    const dbPath = join(dir, "store.db");
    h = await startHarness({ dbPath });
    h.faux.script([bash("t1", "echo hi"), bash("t2", "echo hi"), bash("t3", "echo hi; echo rm"), done]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    const state = await askedFor(h, "t1", from);
    expect(state.pendingApproval?.suggestedRules).toEqual(["echo hi", "echo *"]);
    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "t1", decision: "approveForSession", rule: "echo hi" });
    await askedFor(h, "t3", from);
    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "t3", decision: "deny" });
    await h.waitIdle(from);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expectEveryCallAnswered(entries);
    const decisions = entries.flatMap((e) => (e.entry.type === "approval" ? [e.entry] : []));
    expect(decisions.map((d) => [d.toolCallId, d.decision])).toEqual([
      ["t1", "approvedForSession"],
      ["t2", "autoApproved"],
      ["t3", "denied"],
    ]);
    expect(decisions[1].rules).toEqual([{ tool: "bash", action: "allow", pattern: "echo hi", source: "session" }]);
    // The audit row of the auto-approved call names the rule.
    const db = new Database(dbPath, { readonly: true });
    const row = db
      .prepare(`SELECT approval_decision, decided_by, decided_by_rule FROM tool_calls WHERE tool_call_id = 't2'`)
      .get() as Record<string, string>;
    db.close();
    expect(row.approval_decision).toBe("autoApproved");
    expect(JSON.parse(row.decided_by_rule)).toEqual([{ tool: "bash", action: "allow", pattern: "echo hi", source: "session" }]);
  });

  it("refuses a rule that does not cover the call it answers, and keeps asking", async () => {
    h = await startHarness();
    h.faux.script([bash("t1", "npm test"), done]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    await askedFor(h, "t1", from);
    const res = await h.workbench.handle("approval.answer", {
      sessionId: h.sessionId,
      toolCallId: "t1",
      decision: "approveForSession",
      rule: "ls *",
    });
    expect(res).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    const wide = await h.workbench.handle("approval.answer", {
      sessionId: h.sessionId,
      toolCallId: "t1",
      decision: "approveAlways",
      rule: "* *",
    });
    expect(wide).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "t1", decision: "deny" });
    await h.waitIdle(from);
  });

  it("always allow saves a workspace rule that decides later calls in every session, shown and audited; revoking it asks again", async () => {
    h = await startHarness();
    h.faux.script([bash("t1", "echo one"), done]);
    let from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    await askedFor(h, "t1", from);
    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "t1", decision: "approveAlways", rule: "echo *" });
    await h.waitIdle(from);
    const rules = await h.call("rules.list", { workspaceId: h.workspaceId });
    expect(rules).toMatchObject([{ tool: "bash", action: "allow", pattern: "echo *", source: "workspace" }]);

    const s2 = await h.call("session.create", { workspaceId: h.workspaceId, model: MODELS.anthropic });
    h.faux.script([bash("t2", "echo two"), done]);
    from = h.events.length;
    await h.call("chat.send", { sessionId: s2.id, text: "again" });
    await h.waitFor("stream.end", (p) => p.sessionId === s2.id, from);
    const { entries } = await h.call("session.load", { sessionId: s2.id });
    const decision = entries.find((e) => e.entry.type === "approval")?.entry;
    expect(decision).toMatchObject({ decision: "autoApproved", decidedBy: "policy", rules: [{ pattern: "echo *", source: "workspace" }] });

    // Edit it to deny: deny wins from now on.
    await h.call("rules.update", { workspaceId: h.workspaceId, id: rules[0].id, action: "deny" });
    h.faux.script([bash("t3", "echo three"), done]);
    from = h.events.length;
    await h.call("chat.send", { sessionId: s2.id, text: "once more" });
    await h.waitFor("stream.end", (p) => p.sessionId === s2.id, from);
    const after = (await h.call("session.load", { sessionId: s2.id })).entries.filter((e) => e.entry.type === "approval").at(-1)?.entry;
    expect(after).toMatchObject({ decision: "autoDenied", rules: [{ action: "deny", pattern: "echo *" }] });

    await h.call("rules.remove", { workspaceId: h.workspaceId, id: rules[0].id });
    expect(await h.call("rules.list", { workspaceId: h.workspaceId })).toEqual([]);
    h.faux.script([bash("t4", "echo four"), done]);
    from = h.events.length;
    await h.call("chat.send", { sessionId: s2.id, text: "last" });
    await h.waitFor("turn.state", (s) => s.sessionId === s2.id && s.status === "awaitingApproval", from);
    await h.call("approval.answer", { sessionId: s2.id, toolCallId: "t4", decision: "deny" });
    await h.waitFor("stream.end", (p) => p.sessionId === s2.id, from);
  });

  it("rules.add refuses a bash allow rule without a program", async () => {
    h = await startHarness();
    const res = await h.workbench.handle("rules.add", { workspaceId: h.workspaceId, tool: "bash", action: "allow", pattern: "*" });
    expect(res).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    const ok = await h.call("rules.add", { workspaceId: h.workspaceId, tool: "edit", action: "allow", pattern: "docs/**" });
    expect(ok).toMatchObject({ tool: "edit", pattern: "docs/**" });
  });
});
