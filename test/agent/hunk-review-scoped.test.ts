/**
 * Per-hunk review through the WorkbenchApi together with the approval card's
 * scopes: "approve for this session" with a review applies only the accepted
 * hunks of that call (the rule decides later calls), the decision per hunk is
 * stored in the log and the audit, and a review that does not fit is refused.
 */
import { afterEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FauxStep } from "../../electron/core/faux";
import { expectEveryCallAnswered, resultsOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
let dir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");
const THREE = [
  { oldText: "line 2\n", newText: "LINE TWO\n" },
  { oldText: "line 10\n", newText: "LINE TEN\n" },
  { oldText: "line 18\n", newText: "LINE EIGHTEEN\n" },
];
const edit = (id: string, edits: unknown): FauxStep => ({
  type: "reply",
  content: [{ type: "toolCall", id, name: "edit", arguments: { path: "hunks.txt", edits } }],
});
const done: FauxStep = { type: "reply", content: [{ type: "text", text: "done" }] };

async function askedFor(harness: Harness, toolCallId: string, from: number) {
  return harness.waitFor("turn.state", (s) => s.status === "awaitingApproval" && s.pendingApproval?.toolCallId === toolCallId, from);
}

describe("per-hunk review with scoped approvals", () => {
  it("approve for the session with hunk 2 rejected: that call applies hunks 1 and 3 only, the rule approves the next edit whole", async () => {
    dir = mkdtempSync(join(tmpdir(), "wb-hunks-"));
    const dbPath = join(dir, "store.db");
    h = await startHarness({ dbPath, files: { "hunks.txt": lines(20) } });
    h.faux.script([edit("t1", THREE), edit("t2", [{ oldText: "line 5\n", newText: "LINE FIVE\n" }]), done]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    const state = await askedFor(h, "t1", from);
    const preview = state.pendingApproval?.preview;
    expect(preview?.kind === "diff" ? preview.hunks?.length : null).toBe(3);
    const rule = state.pendingApproval?.suggestedRules?.[0];
    expect(rule).toBe("hunks.txt");
    await h.call("approval.answer", {
      sessionId: h.sessionId,
      toolCallId: "t1",
      decision: "approveForSession",
      rule,
      review: { kind: "hunks", decisions: ["accepted", "rejected", "accepted"] },
    });
    await h.waitIdle(from);

    expect(readFileSync(join(h.workspace, "hunks.txt"), "utf8")).toBe(
      lines(20).replace("line 2\n", "LINE TWO\n").replace("line 5\n", "LINE FIVE\n").replace("line 18\n", "LINE EIGHTEEN\n"),
    );
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expectEveryCallAnswered(entries);
    const decisions = entries.flatMap((e) => (e.entry.type === "approval" ? [e.entry] : []));
    expect(decisions.map((d) => [d.toolCallId, d.decision, d.hunks ?? null])).toEqual([
      ["t1", "approvedForSession", ["accepted", "rejected", "accepted"]],
      ["t2", "autoApproved", null],
    ]);
    expect(decisions[0].rules).toEqual([{ tool: "edit", action: "allow", pattern: "hunks.txt", source: "session" }]);
    const told = resultsOf(entries).find((r) => r.toolCallId === "t1");
    const toldText = told?.content.map((c) => (c.type === "text" ? c.text : "")).join("") ?? "";
    expect(toldText).toContain("Applied 2 of 3 hunks (hunks 1 and 3). The user REJECTED hunk 2: NOT applied");

    const db = new Database(dbPath, { readonly: true });
    const row = db
      .prepare(`SELECT approval_decision, hunk_decisions, decided_by_rule FROM tool_calls WHERE tool_call_id = 't1'`)
      .get() as Record<string, string>;
    db.close();
    expect(row.approval_decision).toBe("approvedForSession");
    expect(JSON.parse(row.hunk_decisions)).toEqual(["accepted", "rejected", "accepted"]);
    expect(JSON.parse(row.decided_by_rule)).toEqual([{ tool: "edit", action: "allow", pattern: "hunks.txt", source: "session" }]);
  });

  it("refuses a review with a denial or the wrong hunk count, keeps asking, and writes nothing on deny", async () => {
    h = await startHarness({ files: { "hunks.txt": lines(20) } });
    h.faux.script([edit("t1", THREE), done]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    await askedFor(h, "t1", from);
    const review = { kind: "hunks" as const, decisions: ["accepted" as const, "rejected" as const, "accepted" as const] };
    const onDeny = await h.workbench.handle("approval.answer", {
      sessionId: h.sessionId,
      toolCallId: "t1",
      decision: "denyAlways",
      rule: "hunks.txt",
      review,
    });
    expect(onDeny).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    const short = await h.workbench.handle("approval.answer", {
      sessionId: h.sessionId,
      toolCallId: "t1",
      decision: "approve",
      review: { kind: "hunks", decisions: ["accepted", "rejected"] },
    });
    expect(short).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "t1", decision: "deny" });
    await h.waitIdle(from);
    expect(readFileSync(join(h.workspace, "hunks.txt"), "utf8")).toBe(lines(20));
  });
});
