/**
 * The model's call order is kept: in one message, a read after an edit of
 * the same file sees the edit (only consecutive read-only calls run in
 * parallel), and results are stored in the order of the calls. Settings
 * changes apply at the next decision, also in the middle of a turn.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FauxBlock } from "../../electron/core/faux";
import type { ApprovalPolicy } from "../../shared/api";
import type { ToolResultMessage } from "../../shared/protocol";
import { expectAllAccepted, expectEveryCallAnswered, resultsOf, startHarness, type Harness } from "./harness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ALLOW_EDITS: ApprovalPolicy = { write: "allow", edit: "allow", bash: "ask", bashAllow: [], bashDeny: [] };

const edit = (id: string, path: string, oldText: string, newText: string): FauxBlock => ({
  type: "toolCall",
  id,
  name: "edit",
  arguments: { path, edits: [{ oldText, newText }] },
});
const read = (id: string, path: string): FauxBlock => ({ type: "toolCall", id, name: "read", arguments: { path } });
const textOf = (r: ToolResultMessage | undefined) => (r?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");

describe("the model's call order", () => {
  it("in [edit a.ts, read a.ts] the read sees the new content", async () => {
    h = await startHarness({ files: { "a.ts": "export const v = 'one';\n" } });
    await h.call("settings.update", { approvalPolicy: ALLOW_EDITS });
    h.faux.script([
      { type: "reply", content: [edit("toolu_e1", "a.ts", "'one'", "'two'"), read("toolu_r1", "a.ts")] },
      { type: "reply", content: [{ type: "text", text: "done" }] },
    ]);
    await h.turn("change one to two and show me");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const results = resultsOf(entries);
    expect(results.map((r) => r.toolCallId)).toEqual(["toolu_e1", "toolu_r1"]);
    expect(textOf(results[1])).toContain("export const v = 'two';");
    expect(readFileSync(join(h.workspace, "a.ts"), "utf8")).toBe("export const v = 'two';\n");
    expectEveryCallAnswered(entries);
    expectAllAccepted(h);
  });

  it("stores results in call order: reads before an edit see the old text, reads after it the new", async () => {
    h = await startHarness({ files: { "a.ts": "let x = 1;\n", "b.ts": "let y = 2;\n" } });
    await h.call("settings.update", { approvalPolicy: ALLOW_EDITS });
    h.faux.script([
      {
        type: "reply",
        content: [
          read("toolu_1", "a.ts"),
          read("toolu_2", "b.ts"),
          edit("toolu_3", "a.ts", "x = 1", "x = 10"),
          read("toolu_4", "a.ts"),
          edit("toolu_5", "a.ts", "x = 10", "x = 100"),
          read("toolu_6", "a.ts"),
        ],
      },
      { type: "reply", content: [{ type: "text", text: "done" }] },
    ]);
    await h.turn("go");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const results = resultsOf(entries);
    expect(results.map((r) => r.toolCallId)).toEqual(["toolu_1", "toolu_2", "toolu_3", "toolu_4", "toolu_5", "toolu_6"]);
    expect(textOf(results[0])).toContain("let x = 1;");
    expect(textOf(results[3])).toContain("let x = 10;");
    expect(textOf(results[5])).toContain("let x = 100;");
    expectEveryCallAnswered(entries);
  });
});

describe("settings changes during a turn", () => {
  it("write set to deny in Settings applies to the next write of the same turn", async () => {
    h = await startHarness({ files: {} });
    const harness = h;
    await h.call("settings.update", { approvalPolicy: ALLOW_EDITS });
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_w1", name: "write", arguments: { path: "first.txt", content: "1\n" } }] },
      async () => {
        // The user sets write to deny while the turn runs.
        await harness.call("settings.update", { approvalPolicy: { ...ALLOW_EDITS, write: "deny" } });
        return {
          type: "reply",
          content: [{ type: "toolCall", id: "toolu_w2", name: "write", arguments: { path: "second.txt", content: "2\n" } }],
        };
      },
      { type: "reply", content: [{ type: "text", text: "done" }] },
    ]);
    await h.turn("write two files");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(readFileSync(join(h.workspace, "first.txt"), "utf8")).toBe("1\n");
    expect(() => readFileSync(join(h!.workspace, "second.txt"))).toThrow();
    const approvals = entries.flatMap((e) => (e.entry.type === "approval" ? [[e.entry.toolCallId, e.entry.decision]] : []));
    expect(approvals).toEqual([
      ["toolu_w1", "autoApproved"],
      ["toolu_w2", "autoDenied"],
    ]);
    expectEveryCallAnswered(entries);
  });

  it("a lower tool-call budget in Settings applies to the next call of the same turn", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    const harness = h;
    await h.call("settings.update", { budget: { maxToolCalls: 100, maxOutputBytes: 1e9, maxDurationMs: 3_600_000, maxSideEffects: 10 } });
    h.faux.script([
      { type: "reply", content: [read("toolu_1", "a.txt")] },
      { type: "reply", content: [read("toolu_2", "a.txt")] },
      async () => {
        await harness.call("settings.update", {
          budget: { maxToolCalls: 2, maxOutputBytes: 1e9, maxDurationMs: 3_600_000, maxSideEffects: 10 },
        });
        return { type: "reply", content: [read("toolu_3", "a.txt")] };
      },
      { type: "reply", content: [{ type: "text", text: "summary of where it stands" }] },
    ]);
    await h.turn("read a lot");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const results = resultsOf(entries);
    expect(results.map((r) => r.isError)).toEqual([false, false, true]);
    expect(textOf(results[2])).toContain("TOOL_BUDGET_EXCEEDED");
  });
});
