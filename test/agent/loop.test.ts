import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FauxRequest, FauxTurn } from "../../electron/core/faux";
import { MODELS, expectAllAccepted, expectEveryCallAnswered, messagesOf, resultsOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const messages = messagesOf;
const results = resultsOf;

const lastTurn = (r: FauxRequest): FauxTurn | null => r.lastTurn;
const isToolResult = (t: FauxTurn | null): t is Extract<FauxTurn, { role: "toolResult" }> => t?.role === "toolResult";

/** An answer long enough that summarising it frees room (a summary of a tiny conversation would not shrink it). */
const LONG_TEXT = "details of the first answer ".repeat(400);

describe("agent loop", () => {
  it("runs parallel reads and a sequential edit in one turn, with approval", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n", "b.txt": "beta\n" } });
    h.faux.script([
      {
        type: "reply",
        content: [
          { type: "text", text: "Reading both files." },
          { type: "toolCall", id: "toolu_read_a", name: "read", arguments: { path: "a.txt" } },
          { type: "toolCall", id: "toolu_read_b", name: "read", arguments: { path: "b.txt" } },
          {
            type: "toolCall",
            id: "toolu_edit_a",
            name: "edit",
            arguments: { path: "a.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] },
          },
        ],
      },
      { type: "reply", content: [{ type: "text", text: "Done: a.txt now says ALPHA." }] },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "uppercase a.txt" });
    const state = await h.waitFor("turn.state", (s) => s.status === "awaitingApproval", from);
    expect(state.pendingApproval?.toolName).toBe("edit");
    expect(state.pendingApproval?.preview).toMatchObject({ kind: "diff", path: "a.txt" });
    // Reads ran before the approval was asked for.
    const before = await h.call("session.load", { sessionId: h.sessionId });
    expect(
      results(before.entries)
        .map((r) => r.toolCallId)
        .sort(),
    ).toEqual(["toolu_read_a", "toolu_read_b"]);
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("alpha\n");

    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "toolu_edit_a", decision: "approve" });
    await h.waitIdle(from);
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("ALPHA\n");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expectEveryCallAnswered(entries);
    expect(entries.some((e) => e.entry.type === "approval" && e.entry.decision === "approved")).toBe(true);
    const last = messages(entries).at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "stop" });
    // One audit row per call, with its outcome; the edit's with the user's approval.
    const exported = await h.call("review.export", { sessionId: h.sessionId, format: "json" });
    const { toolCalls } = JSON.parse(exported.content) as { toolCalls: Array<Record<string, unknown>> };
    const byId = new Map(toolCalls.map((c) => [c.toolCallId, c]));
    expect(toolCalls).toHaveLength(3);
    for (const id of ["toolu_read_a", "toolu_read_b"]) {
      expect(byId.get(id)).toMatchObject({
        toolName: "read",
        status: "done",
        args: { path: id.endsWith("a") ? "a.txt" : "b.txt" },
        errorCode: null,
      });
      expect(byId.get(id)?.outputBytes).toBeGreaterThan(0);
    }
    expect(byId.get("toolu_edit_a")).toMatchObject({ toolName: "edit", status: "done", approvalDecision: "approved", decidedBy: "user" });
    expectAllAccepted(h);
  });

  it("turns invalid tool arguments into an error result the model corrects on the next step", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_bad", name: "read", arguments: '{"path": "a.txt"' }] },
      (req) => {
        const t = lastTurn(req);
        if (!isToolResult(t) || !t.isError) return { type: "reply", content: [{ type: "text", text: "expected an error result" }] };
        return { type: "reply", content: [{ type: "toolCall", id: "toolu_good", name: "read", arguments: { path: "a.txt" } }] };
      },
      { type: "reply", content: [{ type: "text", text: "It says alpha." }] },
    ]);
    await h.turn("what is in a.txt?");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const [bad, good] = results(entries);
    expect(bad).toMatchObject({ toolCallId: "toolu_bad", isError: true });
    expect(good).toMatchObject({ toolCallId: "toolu_good", isError: false });
    expect(JSON.stringify(good.content)).toContain("alpha");
    expectAllAccepted(h);
  });

  it("approve for the session stops asking for that tool; deny passes the user's reason to the model", async () => {
    h = await startHarness({ files: { "a.txt": "one\n" } });
    const edit = (id: string, from: string, to: string) => ({
      type: "toolCall" as const,
      id,
      name: "edit",
      arguments: { path: "a.txt", edits: [{ oldText: from, newText: to }] },
    });
    h.faux.script([
      { type: "reply", content: [edit("toolu_e1", "one", "two")] },
      { type: "reply", content: [edit("toolu_e2", "two", "three")] },
      { type: "reply", content: [{ type: "text", text: "ok" }] },
    ]);
    let from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "count up" });
    await h.waitFor("turn.state", (s) => s.status === "awaitingApproval", from);
    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "toolu_e1", decision: "approveForSession" });
    await h.waitIdle(from);
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("three\n");
    const asked = h.events
      .slice(from)
      .filter((e) => e.event === "turn.state" && (e.payload as { status: string }).status === "awaitingApproval");
    expect(asked).toHaveLength(1);

    // A new session asks again (approval for the session does not leak) and the denial reaches the model.
    const s2 = await h.call("session.create", { workspaceId: h.workspaceId, model: MODELS.anthropic });
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_w", name: "write", arguments: { path: "b.txt", content: "x" } }] },
      (req) => {
        const t = lastTurn(req);
        return { type: "reply", content: [{ type: "text", text: isToolResult(t) ? `saw: ${t.text}` : "no result" }] };
      },
    ]);
    from = h.events.length;
    await h.call("chat.send", { sessionId: s2.id, text: "write b" });
    await h.waitFor("turn.state", (s) => s.sessionId === s2.id && s.status === "awaitingApproval", from);
    await h.call("approval.answer", { sessionId: s2.id, toolCallId: "toolu_w", decision: "deny", reason: "use the docs folder instead" });
    await h.waitFor("stream.end", (p) => p.sessionId === s2.id, from);
    const { entries } = await h.call("session.load", { sessionId: s2.id });
    const denied = results(entries)[0];
    expect(denied.isError).toBe(true);
    expect(JSON.stringify(denied.content)).toContain("use the docs folder instead");
    const answer = messages(entries).at(-1);
    expect(JSON.stringify(answer)).toContain("use the docs folder instead");
    expect(() => readFileSync(join(h!.workspace, "b.txt"))).toThrow();
    expectAllAccepted(h);
  });

  it("answers calls past the run budget with TOOL_BUDGET_EXCEEDED and lets the model finish", async () => {
    h = await startHarness({ files: { "a.txt": "a\n" } });
    await h.call("settings.update", { budget: { maxToolCalls: 2, maxOutputBytes: 1_000_000, maxDurationMs: 600_000, maxSideEffects: 5 } });
    h.faux.script([
      {
        type: "reply",
        content: [1, 2, 3].map((i) => ({ type: "toolCall" as const, id: `toolu_r${i}`, name: "read", arguments: { path: "a.txt" } })),
      },
      { type: "reply", content: [{ type: "text", text: "answering from what I have" }] },
    ]);
    await h.turn("read three times");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const rs = results(entries);
    expect(rs).toHaveLength(3);
    const over = rs.filter((r) => r.isError);
    expect(over).toHaveLength(1);
    expect(JSON.stringify(over[0])).toContain("TOOL_BUDGET_EXCEEDED");
    expectAllAccepted(h);
  });

  it("retries a 429 and succeeds; a non-retryable error is stored and the session goes on", async () => {
    h = await startHarness();
    h.faux.script([
      { type: "rateLimit", retryAfterSeconds: 1 },
      { type: "reply", content: [{ type: "text", text: "hello after retry" }] },
    ]);
    await h.turn("hi");
    expect(h.events.some((e) => e.event === "turn.retry")).toBe(true);
    let { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(messages(entries).at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });

    h.faux.script([{ type: "authError" }]);
    await h.turn("again");
    ({ entries } = await h.call("session.load", { sessionId: h.sessionId }));
    const failed = messages(entries).at(-1);
    expect(failed).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(JSON.stringify(failed)).not.toContain("sk-ant-test");
    expect(h.events.some((e) => e.event === "turn.error")).toBe(true);

    h.faux.script([{ type: "reply", content: [{ type: "text", text: "still here" }] }]);
    await h.turn("and again");
    ({ entries } = await h.call("session.load", { sessionId: h.sessionId }));
    expect(messages(entries).at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
    expectAllAccepted(h);
  });

  it("compacts on a context overflow and completes the turn", async () => {
    h = await startHarness();
    h.faux.script([{ type: "reply", content: [{ type: "text", text: `first answer ${LONG_TEXT}` }] }]);
    await h.turn("first question");
    h.faux.script([
      { type: "contextOverflow" },
      (req) => {
        const system = req.turns.find((t) => t.role === "system");
        const isCompaction = system?.role === "system" && system.text.includes("You compact");
        return { type: "reply", content: [{ type: "text", text: isCompaction ? "SUMMARY: user asked a first question." : "unexpected" }] };
      },
      (req) => {
        const first = req.turns.find((t) => t.role === "user");
        const sawSummary = first?.role === "user" && first.text.includes("SUMMARY: user asked a first question.");
        return { type: "reply", content: [{ type: "text", text: sawSummary ? "second answer with summary" : "no summary" }] };
      },
    ]);
    await h.turn("second question");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(entries.some((e) => e.entry.type === "compaction")).toBe(true);
    expect(messages(entries).at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "second answer with summary" }] });
    expectAllAccepted(h);
  });

  it("after a compaction, later requests of the same live session start from the summary and carry every newer message", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: `first answer ${LONG_TEXT}` }] }]);
    await h.turn("first question");
    h.faux.script([
      { type: "contextOverflow" },
      { type: "reply", content: [{ type: "text", text: "SUMMARY: the user asked something earlier." }] },
      { type: "reply", content: [{ type: "text", text: "second answer" }] },
    ]);
    await h.turn("second question");
    const seen: string[][] = [];
    const record = (req: FauxRequest) => {
      seen.push(
        req.turns
          .filter((t) => t.role !== "system")
          .map((t) =>
            t.role === "toolResult"
              ? `result:${t.text}`
              : `${t.role}:${t.role === "assistant" ? t.text || t.toolCalls.map((c) => c.name).join(",") : t.text}`,
          ),
      );
    };
    h.faux.script([
      (req) => {
        record(req);
        return { type: "reply", content: [{ type: "toolCall", id: "toolu_after", name: "read", arguments: { path: "a.txt" } }] };
      },
      (req) => {
        record(req);
        return { type: "reply", content: [{ type: "text", text: "third answer" }] };
      },
    ]);
    await h.turn("third question");
    expect(seen).toHaveLength(2);
    const [first, second] = seen;
    // The summary and the first kept message arrive as one user turn (consecutive user messages are merged).
    expect(first[0]).toMatch(/^user:Summary of the earlier part[\s\S]*SUMMARY: the user asked something earlier\.[\s\S]*second question$/);
    expect(first.join("\n")).not.toMatch(/first answer/);
    // The user's request is kept word for word beside the summary.
    expect(first[0]).toContain("The user's request, verbatim:\n\nfirst question");
    expect(first.slice(1)).toEqual(["assistant:second answer", "user:third question"]);
    expect(second.slice(0, first.length)).toEqual(first);
    expect(second.slice(first.length)).toEqual(["assistant:read", "result:1\talpha"]);
    expectAllAccepted(h);
  });

  it("queues a message typed during a turn as a follow-up: it starts its own turn once the running one ends", async () => {
    h = await startHarness({ files: { "a.txt": "a\n" } });
    const usersSoFar = (req: FauxRequest) => {
      const users = req.turns.filter((t) => t.role === "user").map((t) => (t.role === "user" ? t.text : ""));
      return { type: "reply" as const, content: [{ type: "text" as const, text: `users so far: ${users.join(" | ")}` }] };
    };
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a.txt" } }], chunkDelayMs: 20 },
      usersSoFar,
      usersSoFar,
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "first" });
    await h.waitFor("stream.partial", () => true, from);
    const queued = await h.call("chat.send", { sessionId: h.sessionId, text: "also this" });
    expect(queued).toEqual({ queued: true });
    const state = await h.waitFor("turn.state", (s) => s.queued.includes("also this"), from);
    expect(state.status).not.toBe("idle");
    // Two turns end: the running one, then the follow-up's.
    await expect.poll(() => h?.events.slice(from).filter((e) => e.event === "stream.end").length, { timeout: 60_000 }).toBe(2);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const roles = messages(entries).map((m) => m.role);
    // The running turn finishes first (steering, not this, joins at the tool boundary: steering.test.ts).
    expect(roles).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
    expect(JSON.stringify(messages(entries)[3])).toContain("users so far: first");
    expect(JSON.stringify(messages(entries).at(-1))).toContain("users so far: first | also this");
    expectAllAccepted(h);
  });

  it("asks the model once to continue after an output-limit stop", async () => {
    h = await startHarness();
    h.faux.script([
      { type: "reply", content: [{ type: "text", text: "The first half of a long ans" }], stopReason: "length" },
      (req) => {
        const t = lastTurn(req);
        const asked = t?.role === "user" && t.text.includes("output token limit");
        return { type: "reply", content: [{ type: "text", text: asked ? "…wer, finished." : "not asked" }] };
      },
    ]);
    await h.turn("write a long answer");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const ms = messages(entries);
    expect(ms.map((m) => (m.role === "assistant" ? `assistant:${m.stopReason}` : m.role))).toEqual([
      "user",
      "assistant:length",
      "user",
      "assistant:stop",
    ]);
    expect(JSON.stringify(ms.at(-1))).toContain("finished");
    expectAllAccepted(h);
  });

  it("gives each call its own result when the model repeats a tool-call id in one message", async () => {
    h = await startHarness({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
    h.faux.script([
      {
        type: "reply",
        content: [
          { type: "toolCall", id: "functions.read:0", name: "read", arguments: { path: "a.txt" } },
          { type: "toolCall", id: "functions.read:0", name: "read", arguments: { path: "b.txt" } },
        ],
      },
      { type: "reply", content: [{ type: "text", text: "read both" }] },
    ]);
    await h.turn("read a and b");
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const rs = results(entries);
    expect(rs).toHaveLength(2);
    expect(rs.every((r) => r.toolCallId === "functions.read:0")).toBe(true);
    expectAllAccepted(h);
  });

  it("titles a new session from its first message and announces the rename entry live", async () => {
    h = await startHarness();
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "hi" }] }]);
    const from = h.events.length;
    await h.turn("Fix the flaky login test\nIt fails on CI");
    const renamed = await h.waitFor("session.entry", (e) => e.entry.type === "rename", from);
    expect(renamed.entry).toMatchObject({ type: "rename", title: "Fix the flaky login test" });
    const { entries, session } = await h.call("session.load", { sessionId: h.sessionId });
    expect(session.title).toBe("Fix the flaky login test");
    expect(entries.find((e) => e.seq === renamed.seq)?.entry).toEqual(renamed.entry);
  });

  it("announces the session's totals with every turn: the last summary before stream.end is the stored one", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    const read = (id: string) => ({
      type: "reply" as const,
      content: [{ type: "toolCall" as const, id, name: "read", arguments: { path: "a.txt" } }],
      usage: { input: 100, output: 10 },
    });
    h.faux.script([
      read("toolu_1"),
      read("toolu_2"),
      { type: "reply", content: [{ type: "text", text: "done" }], usage: { input: 300, output: 5 } },
    ]);
    const from = h.events.length;
    await h.turn("read a.txt twice");
    const turnEvents = h.events.slice(from);
    const end = turnEvents.findIndex((e) => e.event === "stream.end");
    const summaries = turnEvents
      .slice(0, end)
      .filter((e) => e.event === "session.updated")
      .map((e) => e.payload as { totalTokens: number; entryCount: number });
    const { session } = await h.call("session.load", { sessionId: h.sessionId });
    expect(session.totalTokens).toBe(100 + 10 + 100 + 10 + 300 + 5);
    expect(summaries.at(-1)).toMatchObject({ totalTokens: session.totalTokens, entryCount: session.entryCount });
    // Announced at most once per assistant message (coalesced within a burst of work), never more.
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    expect(summaries.length).toBeLessThanOrEqual(4);
  });

  it("loads a long session newest first: session.load with a tail, then the older entries", async () => {
    h = await startHarness();
    for (let i = 0; i < 3; i++) {
      h.faux.script([{ type: "reply", content: [{ type: "text", text: `answer ${i}` }] }]);
      await h.turn(`question ${i}`);
    }
    const full = await h.call("session.load", { sessionId: h.sessionId });
    const tail = await h.call("session.load", { sessionId: h.sessionId, tail: 2 });
    expect(tail.entries).toEqual(full.entries.slice(-2));
    const older = await h.call("session.entries", { sessionId: h.sessionId, toSeq: tail.entries[0].seq - 1 });
    expect([...older.entries, ...tail.entries]).toEqual(full.entries);
  });
});
