import { describe, expect, it } from "vitest";
import { appendEntries, buildTranscript, rowForSeq } from "../../renderer/src/lib/transcript-model";
import { anthropic, assistant, call, openai, result, user } from "./fixtures";

describe("transcript model", () => {
  it("attaches tool results to the card of their call instead of adding rows", () => {
    const m = buildTranscript([
      user(1, "fix it"),
      assistant(2, { calls: [call("c1", "read", { path: "a.ts" })] }),
      result(3, "c1"),
      assistant(4, { text: "done" }),
    ]);
    expect(m.rows.map((r) => r.kind)).toEqual(["user", "assistant", "assistant"]);
    expect(m.results.get("c1")?.seq).toBe(3);
    expect(rowForSeq(m, 3)).toBe(1);
  });

  it("shows one failed request and its automatic retries as one row, the earlier attempts inside it", () => {
    const m = buildTranscript([
      user(1, "fix it"),
      assistant(2, { stop: "error" }),
      assistant(3, { stop: "error" }),
      assistant(4, { stop: "error" }),
      assistant(5, { stop: "error" }),
    ]);
    expect(m.rows.map((r) => r.kind)).toEqual(["user", "assistant"]);
    const row = m.rows[1];
    expect(row.kind === "assistant" && row.attempts?.length).toBe(3);
    expect(row.seq).toBe(5);
    expect(rowForSeq(m, 2)).toBe(1);
    expect(rowForSeq(m, 5)).toBe(1);
    // Appended one at a time (live events), the same.
    let live = buildTranscript([user(1, "fix it")]);
    for (const seq of [2, 3, 4, 5]) live = appendEntries(live, [assistant(seq, { stop: "error" })]);
    expect(live.rows).toHaveLength(2);
    // An answer after the failures is its own row.
    expect(appendEntries(m, [assistant(6, { text: "done" })]).rows).toHaveLength(3);
  });

  it("keeps a result whose call is unknown visible as an orphan row", () => {
    const m = buildTranscript([user(1, "hi"), result(2, "ghost")]);
    expect(m.rows.map((r) => r.kind)).toEqual(["user", "orphanResult"]);
  });

  it("shows model switches and compactions as markers in order", () => {
    const m = buildTranscript([
      user(1, "a"),
      { seq: 2, entry: { type: "modelSwitch", from: anthropic, to: openai, timestamp: 2 } },
      { seq: 3, entry: { type: "compaction", summary: "s", firstKeptSeq: 1, tokensBefore: 10, model: openai, timestamp: 3 } },
    ]);
    expect(m.rows.map((r) => r.kind)).toEqual(["user", "modelSwitch", "compaction"]);
  });

  it("keeps renames out of the rows (the title shows elsewhere) but counts their seq", () => {
    const m = buildTranscript([user(1, "a"), { seq: 2, entry: { type: "rename", title: "A", timestamp: 2 } }, user(3, "b")]);
    expect(m.rows.map((r) => r.kind)).toEqual(["user", "user"]);
    expect(m.lastSeq).toBe(3);
  });

  it("ignores entries it already has, so a replayed event does not duplicate a row", () => {
    const m1 = buildTranscript([user(1, "a"), assistant(2, { text: "b" })]);
    const m2 = appendEntries(m1, [assistant(2, { text: "b" }), user(3, "c")]);
    expect(m2.rows).toHaveLength(3);
    expect(appendEntries(m2, [user(3, "c")])).toBe(m2);
  });

  it("knows how full the context is: the last answer's input, cache and output; unknown again after a compaction", () => {
    const withUsage = (seq: number, input: number, cacheRead: number, output: number) => {
      const e = assistant(seq, { text: "x" });
      if (e.entry.type === "message" && e.entry.message.role === "assistant")
        Object.assign(e.entry.message.usage, { input, cacheRead, output });
      return e;
    };
    const m = buildTranscript([user(1, "a"), withUsage(2, 1000, 200, 50)]);
    expect(m.context).toBe(1250);
    // An answer without usage (a failed request) says nothing about the context.
    expect(appendEntries(m, [assistant(3, { text: "", stop: "error" })]).context).toBe(1250);
    const compacted = appendEntries(m, [
      { seq: 3, entry: { type: "compaction", summary: "s", firstKeptSeq: 2, tokensBefore: 1250, model: anthropic, timestamp: 3 } },
    ]);
    expect(compacted.context).toBeNull();
    expect(appendEntries(compacted, [withUsage(4, 300, 0, 20)]).context).toBe(320);
    expect(buildTranscript([user(1, "a")]).context).toBeNull();
  });

  it("sums tokens and cost of assistant messages and remembers the last user text for retry", () => {
    const m = buildTranscript([
      user(1, "first"),
      assistant(2, { text: "x", tokens: 100, cost: 0.5 }),
      user(3, "second"),
      assistant(4, { text: "y", tokens: 50, cost: 0.25 }),
    ]);
    expect(m.totals).toEqual({ tokens: 150, cost: 0.75, costUnknown: false });
    expect(m.lastUserText).toBe("second");
  });

  it("does not change the model it appends to (replay builds prefixes from the same entries)", () => {
    const m1 = buildTranscript([user(1, "a"), assistant(2, { calls: [call("c1", "read", {})] })]);
    const before = m1.rows.length;
    appendEntries(m1, [result(3, "c1"), user(4, "b")]);
    expect(m1.rows.length).toBe(before);
    expect(m1.results.has("c1")).toBe(false);
  });
});

describe("damaged entries", () => {
  it("are rows in seq order among the entries, never left out", () => {
    const model = buildTranscript(
      [user(1, "first"), user(3, "third"), user(7, "seventh")],
      [
        { seq: 2, kind: "user", code: "INVALID_JSON", message: "Unexpected end of JSON input" },
        { seq: 4, toSeq: 6, kind: "unknown", code: "MISSING", message: "entries 4–6 (3) are missing" },
        { seq: 8, kind: "assistant", code: "INVALID_ENTRY", message: "message.content: Required" },
      ],
    );
    expect(model.rows.map((r) => `${r.kind}:${r.seq}`)).toEqual(["user:1", "damaged:2", "user:3", "damaged:4", "user:7", "damaged:8"]);
    expect(model.lastSeq).toBe(8);
    expect(model.lastUserText).toBe("seventh");
  });
});
