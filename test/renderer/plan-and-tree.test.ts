/**
 * The todo plan derived from stored entries agrees everywhere it is shown
 * (docs/sub-agents.md#the-todo-plan): the live transcript model, a replay step
 * and the core's derivation give the same plan after every prefix of a
 * session; and the session list nests sub-agents under their parent.
 */
import { describe, expect, it } from "vitest";
import type { SessionSummary } from "../../shared/api";
import type { StoredEntry } from "../../shared/protocol";
import { planFromEntries } from "../../shared/todo";
import { appendEntries, buildTranscript, EMPTY_TRANSCRIPT } from "../../renderer/src/lib/transcript-model";
import { buildStepIndex, planAt } from "../../renderer/src/replay/step-view";
import { sessionTree } from "../../renderer/src/lib/session-tree";
import { assistant, call, result, user } from "./fixtures";

const items = (...texts: string[]) => texts.map((text, i) => ({ text, status: i === 0 ? ("in_progress" as const) : ("pending" as const) }));
const todo = (id: string, plan: unknown) => call(id, "todo", { items: plan });

const ENTRIES: StoredEntry[] = [
  user(1, "plan it"),
  assistant(2, { calls: [todo("t1", items("a", "b", "c"))] }),
  result(3, "t1", { toolName: "todo" }),
  // A refused call changes nothing; nor does a call whose result is still missing.
  assistant(4, { calls: [todo("t2", items("x"))] }),
  result(5, "t2", { toolName: "todo", isError: true }),
  {
    seq: 6,
    entry: {
      type: "planEdit",
      items: [
        { text: "a", status: "done" },
        { text: "b2", status: "pending" },
      ],
      timestamp: 6,
    },
  },
  // The same id again: the latest call with it is the one its result answers.
  assistant(7, { calls: [todo("t1", items("b2", "c2"))] }),
  result(8, "t1", { toolName: "todo" }),
  assistant(9, { calls: [todo("t3", "not a list")] }),
  result(10, "t3", { toolName: "todo" }),
  assistant(11, { calls: [todo("t4", [])] }),
  result(12, "t4", { toolName: "todo" }),
];

describe("the plan at every step", () => {
  it("live, replay and core agree after every prefix", () => {
    const index = buildStepIndex(ENTRIES);
    let live = EMPTY_TRANSCRIPT;
    const seen: unknown[] = [];
    for (let n = 1; n <= ENTRIES.length; n++) {
      const prefix = ENTRIES.slice(0, n);
      live = appendEntries(live, [ENTRIES[n - 1]]);
      const core = planFromEntries(prefix);
      expect(live.plan, `after seq ${n}`).toEqual(core);
      expect(buildTranscript(prefix).plan).toEqual(core);
      expect(planAt(index, ENTRIES[n - 1].seq)).toEqual(core);
      seen.push(core);
    }
    expect(seen[2]).toEqual(items("a", "b", "c"));
    expect(seen[4]).toEqual(items("a", "b", "c"));
    expect(seen[5]).toEqual([
      { text: "a", status: "done" },
      { text: "b2", status: "pending" },
    ]);
    expect(seen[7]).toEqual(items("b2", "c2"));
    expect(seen[9]).toEqual(items("b2", "c2"));
    expect(seen[11]).toEqual([]);
    expect(buildTranscript(ENTRIES).rows.map((r) => r.kind)).toContain("planEdit");
  });
});

describe("the session list as a tree", () => {
  const summary = (id: string, createdAt: number, parent?: { id: string; call?: string }): SessionSummary => ({
    id,
    workspaceId: "w",
    title: id,
    createdAt,
    updatedAt: 100 - createdAt,
    model: null,
    reasoning: "default",
    parentSessionId: parent?.id ?? null,
    parentSeq: parent ? 2 : null,
    ...(parent?.call ? { parentToolCallId: parent.call } : {}),
    entryCount: 0,
    totalCost: 0,
    totalTokens: 0,
  });

  it("nests sub-agents under their parent, oldest first; forks and orphans stay at the top", () => {
    const tree = sessionTree([
      summary("late-child", 5, { id: "root", call: "c2" }),
      summary("fork", 4, { id: "root" }),
      summary("grandchild", 3, { id: "early-child", call: "c3" }),
      summary("early-child", 2, { id: "root", call: "c1" }),
      summary("root", 1),
      summary("orphan", 6, { id: "gone", call: "c9" }),
    ]);
    const shape = (nodes: ReturnType<typeof sessionTree>): unknown => nodes.map((n) => [n.session.id, shape(n.children)]);
    expect(shape(tree)).toEqual([
      ["fork", []],
      [
        "root",
        [
          ["early-child", [["grandchild", []]]],
          ["late-child", []],
        ],
      ],
      ["orphan", []],
    ]);
  });
});
