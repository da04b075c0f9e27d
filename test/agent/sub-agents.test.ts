/**
 * Sub-agents through the real core against the faux provider
 * (docs/sub-agents.md#sub-agents): the task tool's answer, the child's own
 * session linked to the parent step, read-only tools, caps that hold (count,
 * depth, concurrency), the shared tool budget, approvals named after the
 * task, and Stop ending the whole tree with every call answered.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionSummary } from "../../shared/api";
import type { StoredEntry, ToolResultMessage } from "../../shared/protocol";
import type { FauxReply } from "../../electron/core/faux";
import { readTranscript } from "../../electron/core/faux/transcript";
import { childStep, childTask, isChildRecorded, scriptTree, SUB_AGENT_MARK, taskCall } from "./agent-tree";
import { expectAllAccepted, expectEveryCallAnswered, messagesOf, resultsOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const say = (text: string): FauxReply => ({ type: "reply", content: [{ type: "text", text }] });
const read = (id: string, path: string): FauxReply => ({
  type: "reply",
  content: [{ type: "toolCall", id, name: "read", arguments: { path } }],
});

async function children(harness: Harness): Promise<SessionSummary[]> {
  const { sessions } = await harness.call("session.list", { workspaceId: harness.workspaceId });
  return sessions.filter((s) => s.parentToolCallId !== undefined);
}

async function entriesOf(harness: Harness, sessionId: string): Promise<StoredEntry[]> {
  return (await harness.call("session.load", { sessionId })).entries;
}

function resultFor(entries: StoredEntry[], toolCallId: string): ToolResultMessage | undefined {
  return resultsOf(entries).find((r) => r.toolCallId === toolCallId);
}

const text = (r: ToolResultMessage | undefined) => r?.content.map((c) => (c.type === "text" ? c.text : "")).join("") ?? "";

describe("sub-agents", () => {
  it("task runs a sub-agent in its own linked session and answers with its final message", async () => {
    h = await startHarness({ files: { "src/flags.ts": "export const FLAGS = ['--fast'];\n" } });
    scriptTree(
      h,
      [
        {
          type: "reply",
          content: [taskCall("toolu_task_1", "Find the flag parser", "Where are the command-line flags defined? Report the file.")],
        },
        (req) => say(`parent saw: ${req.lastTurn?.role === "toolResult" ? req.lastTurn.text : "?"}`),
      ],
      (req) => (childStep(req) === 0 ? read("toolu_child_read", "src/flags.ts") : say("The flags are defined in src/flags.ts, line 1.")),
    );
    await h.turn("find where flags are defined");

    const [child] = await children(h);
    expect(child).toMatchObject({ title: "Find the flag parser", parentSessionId: h.sessionId, parentToolCallId: "toolu_task_1" });
    const parentEntries = await entriesOf(h, h.sessionId);
    // Linked to the parent step: the stored assistant entry holding the task call.
    const step = parentEntries.find((e) => e.seq === child.parentSeq)?.entry;
    expect(
      step?.type === "message" &&
        step.message.role === "assistant" &&
        step.message.content.some((b) => b.type === "toolCall" && b.id === "toolu_task_1"),
    ).toBe(true);

    const result = resultFor(parentEntries, "toolu_task_1");
    expect(result?.isError).toBe(false);
    expect(text(result)).toContain(`its transcript is session ${child.id}`);
    expect(text(result)).toContain("The flags are defined in src/flags.ts, line 1.");
    expect(result?.details).toMatchObject({ subAgent: { sessionId: child.id, requests: 2, toolCalls: 1 } });

    // The child's own context: its first message is the preamble and the task, nothing of the parent's conversation.
    const childEntries = await entriesOf(h, child.id);
    const first = messagesOf(childEntries)[0];
    expect(first.role).toBe("user");
    const firstText = JSON.stringify(first.content);
    expect(firstText).toContain(SUB_AGENT_MARK);
    expect(firstText).toContain("Where are the command-line flags defined?");
    expect(firstText).not.toContain("find where flags are defined");
    expect(resultFor(childEntries, "toolu_child_read")?.isError).toBe(false);

    // Read-only by default: the child is offered no side-effect tool and no task.
    const childTools = h.faux.requests.filter((r) => JSON.stringify(r.body).includes(SUB_AGENT_MARK)).map((r) => toolNames(r.body));
    expect(childTools[0]).toEqual(expect.arrayContaining(["read", "list", "glob", "grep", "todo"]));
    for (const names of childTools) for (const t of ["write", "edit", "bash", "task"]) expect(names).not.toContain(t);
    // The parent is offered task.
    expect(toolNames(h.faux.requests[0].body)).toContain("task");

    // "What the model saw" rebuilds each agent's requests exactly: the parent's and the child's own.
    const childRequests = h.faux.requests.filter((r) => isChildRecorded(r));
    const parentRequests = h.faux.requests.filter((r) => !isChildRecorded(r));
    const assistantSeqs = (entries: StoredEntry[]) =>
      entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant").map((e) => e.seq);
    for (const [sessionId, entries, requests] of [
      [h.sessionId, parentEntries, parentRequests],
      [child.id, childEntries, childRequests],
    ] as const) {
      const seqs = assistantSeqs(entries);
      expect(seqs).toHaveLength(requests.length);
      for (const [i, seq] of seqs.entries()) expect((await h.call("review.modelView", { sessionId, seq })).body).toEqual(requests[i].body);
    }

    // Audited like any call, no approval asked.
    const exported = JSON.parse((await h.call("review.export", { sessionId: h.sessionId, format: "json" })).content) as {
      toolCalls: Array<Record<string, unknown>>;
    };
    expect(exported.toolCalls).toEqual([
      expect.objectContaining({ toolCallId: "toolu_task_1", toolName: "task", status: "done", approvalDecision: null }),
    ]);
    expect(parentEntries.some((e) => e.entry.type === "approval")).toBe(false);
    expectEveryCallAnswered(parentEntries);
    expectEveryCallAnswered(childEntries);
    expectAllAccepted(h);
  });

  it("caps hold: 24 task calls in one message start at most 8 sub-agents, never more than 3 at once, and the rest read the refusal", async () => {
    h = await startHarness();
    const calls = Array.from({ length: 24 }, (_, i) => taskCall(`toolu_t${i}`, `Part ${i}`, `Look at part ${i}.`));
    const held: Array<() => void> = [];
    let answered = 0;
    const accepted = 8;
    scriptTree(h, [{ type: "reply", content: calls }, say("all parts done")], (req) => {
      // Each child's request waits until as many children wait as may run at once (or all that are left).
      return new Promise<FauxReply>((resolve) => {
        held.push(() => resolve(say(`report on ${childTask(req)}`)));
        if (held.length === 3 || held.length >= accepted - answered) {
          answered += held.length;
          for (const release of held.splice(0)) release();
        }
      });
    });
    const running = new Set<string>();
    let maxRunning = 0;
    const off = h.workbench.onEvent((event, payload) => {
      if (event !== "turn.state") return;
      const state = payload as { sessionId: string; status: string };
      if (state.sessionId === h?.sessionId) return;
      if (state.status === "idle") running.delete(state.sessionId);
      else running.add(state.sessionId);
      maxRunning = Math.max(maxRunning, running.size);
    });
    await h.turn("split the work");
    off();

    expect(await children(h)).toHaveLength(8);
    expect(maxRunning).toBe(3);
    const entries = await entriesOf(h, h.sessionId);
    const results = calls.map((c) => resultFor(entries, c.type === "toolCall" ? (c.id ?? "") : ""));
    // The first eight in the model's order ran; the others were refused with the text the model reads.
    expect(results.slice(0, 8).every((r) => r?.isError === false)).toBe(true);
    for (const r of results.slice(8)) {
      expect(r?.isError).toBe(true);
      expect(text(r)).toContain("this turn has already started 8 sub-agents, the most one turn may start");
    }
    expectEveryCallAnswered(entries);
    for (const child of await children(h)) expectEveryCallAnswered(await entriesOf(h, child.id));
    expectAllAccepted(h);
  });

  it("the per-turn count starts again with the next turn, and settings change the caps from the next call", async () => {
    h = await startHarness();
    await h.call("settings.update", { subAgents: { model: null, maxPerTurn: 1, maxConcurrent: 1, maxDepth: 1, sideEffects: false } });
    scriptTree(
      h,
      [
        { type: "reply", content: [taskCall("toolu_a", "First", "one"), taskCall("toolu_b", "Second", "two")] },
        say("turn one done"),
        { type: "reply", content: [taskCall("toolu_c", "Third", "three")] },
        say("turn two done"),
      ],
      () => say("child answer"),
    );
    await h.turn("one");
    await h.turn("two");
    const entries = await entriesOf(h, h.sessionId);
    expect(resultFor(entries, "toolu_a")?.isError).toBe(false);
    expect(text(resultFor(entries, "toolu_b"))).toContain("already started 1 sub-agent,");
    expect(resultFor(entries, "toolu_c")?.isError).toBe(false);
    // The description the model reads says the caps in force.
    const spec = toolSpecs(h.faux.requests[0].body).find((t) => t.name === "task");
    expect(spec?.description).toContain("At most 1 sub-agent per turn, 1 running at a time");
  });

  it("a task call with invalid arguments is refused with the tool's error, starts nothing and uses none of the turn's count", async () => {
    h = await startHarness();
    await h.call("settings.update", { subAgents: { model: null, maxPerTurn: 1, maxConcurrent: 1, maxDepth: 1, sideEffects: false } });
    scriptTree(
      h,
      [
        {
          type: "reply",
          content: [
            { type: "toolCall", id: "toolu_empty", name: "task", arguments: { description: " ", prompt: "x" } },
            { type: "toolCall", id: "toolu_extra", name: "task", arguments: { description: "A", prompt: "x", model: "gpt-4" } },
            { type: "toolCall", id: "toolu_long", name: "task", arguments: { description: "A", prompt: "x".repeat(20_001) } },
            taskCall("toolu_ok", "Valid", "do it"),
          ],
        },
        say("done"),
      ],
      () => say("child answer"),
    );
    await h.turn("go");
    const entries = await entriesOf(h, h.sessionId);
    for (const id of ["toolu_empty", "toolu_extra", "toolu_long"])
      expect(text(resultFor(entries, id))).toContain("The task tool was called with invalid arguments");
    expect(resultFor(entries, "toolu_ok")?.isError).toBe(false);
    expect((await children(h)).map((s) => s.title)).toEqual(["Valid"]);
  });

  it("depth holds: a sub-agent is not offered task, and a task call it makes anyway is refused", async () => {
    h = await startHarness();
    scriptTree(h, [{ type: "reply", content: [taskCall("toolu_outer", "Outer", "do it")] }, say("done")], (req) =>
      childStep(req) === 0 ? { type: "reply", content: [taskCall("toolu_inner", "Inner", "deeper")] } : say("could not go deeper"),
    );
    await h.turn("go");
    const [child] = await children(h);
    expect(await children(h)).toHaveLength(1);
    const inner = resultFor(await entriesOf(h, child.id), "toolu_inner");
    expect(inner?.isError).toBe(true);
    expect(text(inner)).toContain("a sub-agent cannot start sub-agents here (at most 1 level below the main agent)");
    expectAllAccepted(h);
  });

  it("with two levels allowed, a sub-agent starts its own, and the per-turn count covers the whole tree", async () => {
    h = await startHarness();
    await h.call("settings.update", { subAgents: { model: null, maxPerTurn: 2, maxConcurrent: 3, maxDepth: 2, sideEffects: false } });
    scriptTree(h, [{ type: "reply", content: [taskCall("toolu_outer", "Outer", "outer work")] }, say("done")], (req) => {
      const task = childTask(req);
      if (task.startsWith("outer")) {
        return childStep(req) === 0
          ? { type: "reply", content: [taskCall("toolu_mid", "Middle", "middle work"), taskCall("toolu_extra", "Extra", "extra work")] }
          : say("outer answer");
      }
      return say(`${task} answer`);
    });
    await h.turn("go");
    const all = await children(h);
    expect(all.map((s) => s.title).sort()).toEqual(["Middle", "Outer"]);
    const outer = all.find((s) => s.title === "Outer");
    const middle = all.find((s) => s.title === "Middle");
    expect(middle?.parentSessionId).toBe(outer?.id);
    const outerEntries = await entriesOf(h, outer?.id ?? "");
    expect(resultFor(outerEntries, "toolu_mid")?.isError).toBe(false);
    expect(text(resultFor(outerEntries, "toolu_extra"))).toContain("already started 2 sub-agents");
  });

  it("Stop during a sub-agent ends the whole tree: every call in parent and children is answered, nothing runs on", async () => {
    h = await startHarness({ files: { "a.txt": "a\n" } });
    let childRequests = 0;
    scriptTree(
      h,
      [{ type: "reply", content: [taskCall("toolu_x", "Left", "left side"), taskCall("toolu_y", "Right", "right side")] }],
      (req) => {
        childRequests++;
        // Each child reads, then its next answer streams a call and hangs until the client goes away.
        if (childStep(req) === 0) return read(`toolu_r_${childTask(req).split(" ")[0]}`, "a.txt");
        return {
          type: "reply",
          content: [
            { type: "text", text: "Still working on it…" },
            { type: "toolCall", id: `toolu_g_${childTask(req).split(" ")[0]}`, name: "grep", arguments: { pattern: "a" } },
          ],
          hangAfterEvents: 4,
        };
      },
    );
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "both sides" });
    // Both children's second requests (after their read) are streaming and held open.
    const held = () =>
      h?.faux.requests.filter(
        (r) => isChildRecorded(r) && r.respondedAt === null && readTranscript(r.route, r.body).turns.some((t) => t.role === "assistant"),
      ).length;
    await expect.poll(held, { timeout: 60_000 }).toBe(2);
    await h.call("chat.abort", { sessionId: h.sessionId });
    await h.waitIdle(from);
    const before = childRequests;

    const parentEntries = await entriesOf(h, h.sessionId);
    expectEveryCallAnswered(parentEntries);
    for (const id of ["toolu_x", "toolu_y"]) {
      const r = resultFor(parentEntries, id);
      expect(r?.isError).toBe(true);
      expect(text(r)).toContain("was stopped: the user stopped the turn");
    }
    const kids = await children(h);
    expect(kids).toHaveLength(2);
    for (const kid of kids) {
      const entries = await entriesOf(h, kid.id);
      expectEveryCallAnswered(entries);
      expect(
        messagesOf(entries)
          .filter((m) => m.role === "assistant")
          .at(-1),
      ).toMatchObject({ stopReason: "aborted" });
    }
    const turns = await h.call("chat.activeTurns", {});
    expect(turns).toEqual([]);
    // The parent made no request after the stop, and no child did either.
    expect(h.faux.requests.filter((r) => !isChildRecorded(r))).toHaveLength(1);
    expect(childRequests).toBe(before);
  });

  it("sub-agents charge the parent's tool budget: their calls count in the turn's, and their turns do not reset it", async () => {
    h = await startHarness({ files: { "a.txt": "a\n" } });
    const settings = await h.call("settings.get", {});
    await h.call("settings.update", { budget: { ...settings.budget, maxToolCalls: 3 } });
    scriptTree(
      h,
      [{ type: "reply", content: [taskCall("toolu_t", "Reader", "read a lot")] }, read("toolu_parent_read", "a.txt"), say("done")],
      (req) => {
        const n = childStep(req);
        if (n < 4) return read(`toolu_c${n}`, "a.txt");
        return say("read what I could");
      },
    );
    await h.turn("read");
    const [child] = await children(h);
    const childResults = resultsOf(await entriesOf(h, child.id));
    expect(childResults.map((r) => r.isError)).toEqual([false, false, false, true]);
    expect(text(childResults[3])).toContain("The tool budget for this turn is used up");
    // The child spent the turn's budget: the parent's next call is refused too.
    const parentRead = resultFor(await entriesOf(h, h.sessionId), "toolu_parent_read");
    expect(text(parentRead)).toContain("The tool budget for this turn is used up");
  });

  it("a sub-agent's side effect asks in the parent's turn, named after its task, and the child's session keeps the decision", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    await h.call("settings.update", { subAgents: { model: null, maxPerTurn: 8, maxConcurrent: 3, maxDepth: 1, sideEffects: true } });
    scriptTree(h, [{ type: "reply", content: [taskCall("toolu_t", "Fix the greeting", "uppercase a.txt")] }, say("done")], (req) =>
      childStep(req) === 0
        ? {
            type: "reply",
            content: [
              {
                type: "toolCall",
                id: "toolu_edit",
                name: "edit",
                arguments: { path: "a.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] },
              },
            ],
          }
        : say("a.txt now says ALPHA"),
    );
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "delegate the fix" });
    const state = await h.waitFor("turn.state", (s) => s.sessionId === h?.sessionId && s.status === "awaitingApproval", from);
    const [child] = await children(h);
    expect(state.pendingApproval).toMatchObject({
      sessionId: child.id,
      toolCallId: "toolu_edit",
      toolName: "edit",
      agent: { name: "Fix the greeting" },
    });
    await h.call("approval.answer", { sessionId: child.id, toolCallId: "toolu_edit", decision: "approve" });
    await h.waitIdle(from);
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("ALPHA\n");
    const childEntries = await entriesOf(h, child.id);
    expect(
      childEntries.some((e) => e.entry.type === "approval" && e.entry.toolCallId === "toolu_edit" && e.entry.decision === "approved"),
    ).toBe(true);
    expect((await entriesOf(h, h.sessionId)).some((e) => e.entry.type === "approval")).toBe(false);
  });

  it("read-only by default: a side-effect call a sub-agent makes anyway is refused without asking", async () => {
    h = await startHarness({ files: { "a.txt": "alpha\n" } });
    scriptTree(h, [{ type: "reply", content: [taskCall("toolu_t", "Try to write", "change a.txt")] }, say("done")], (req) =>
      childStep(req) === 0
        ? { type: "reply", content: [{ type: "toolCall", id: "toolu_w", name: "write", arguments: { path: "a.txt", content: "x" } }] }
        : say("could not write"),
    );
    const from = h.events.length;
    await h.turn("go");
    expect(
      h.events.slice(from).some((e) => e.event === "turn.state" && (e.payload as { status: string }).status === "awaitingApproval"),
    ).toBe(false);
    const [child] = await children(h);
    const refused = resultFor(await entriesOf(h, child.id), "toolu_w");
    expect(text(refused)).toContain("sub-agents may only use read-only tools here");
    expect(readFileSync(join(h.workspace, "a.txt"), "utf8")).toBe("alpha\n");
  });

  it("deleting a session deletes the sessions of its sub-agents; a fork of a child is an ordinary session", async () => {
    h = await startHarness();
    scriptTree(h, [{ type: "reply", content: [taskCall("toolu_t", "Child", "work")] }, say("done")], () => say("child answer"));
    await h.turn("go");
    const [child] = await children(h);
    const fork = await h.call("session.fork", { sessionId: child.id, atSeq: 1 });
    expect(fork.parentToolCallId).toBeUndefined();
    await h.call("session.delete", { sessionId: h.sessionId });
    const { sessions } = await h.call("session.list", { workspaceId: h.workspaceId });
    expect(sessions.map((s) => s.id)).toEqual([fork.id]);
  });
});

function toolSpecs(body: unknown): Array<{ name: string; description: string }> {
  const tools = (body as { tools?: Array<{ name: string; description?: string }> }).tools ?? [];
  return tools.map((t) => ({ name: t.name, description: t.description ?? "" }));
}

function toolNames(body: unknown): string[] {
  return toolSpecs(body).map((t) => t.name);
}
