import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../shared/protocol";
import { buildTranscript } from "../../renderer/src/lib/transcript-model";
import { reduceView, type SessionView } from "../../renderer/src/stores/transcript-store";
import { assistant, user } from "./fixtures";

function view(): SessionView {
  return {
    sessionId: "s1",
    status: "ready",
    complete: true,
    error: null,
    model: buildTranscript([user(1, "hi")]),
    partial: null,
    toolStatus: {},
  };
}

const partial = (text: string): AssistantMessage => {
  const e = assistant(0, { text }).entry;
  if (e.type !== "message" || e.message.role !== "assistant") throw new Error("fixture");
  return e.message;
};

describe("transcript view reducer", () => {
  it("shows the latest streamed partial and replaces it with the stored final message", () => {
    const v1 = reduceView(view(), [
      { type: "partial", payload: { sessionId: "s1", message: partial("He") } },
      { type: "partial", payload: { sessionId: "s1", message: partial("Hello") } },
    ]);
    expect(v1.partial?.content[0]).toEqual({ type: "text", text: "Hello" });
    const v2 = reduceView(v1, [{ type: "entry", payload: { sessionId: "s1", ...assistant(2, { text: "Hello!" }) } }]);
    expect(v2.partial).toBeNull();
    expect(v2.model.rows).toHaveLength(2);
  });

  it("ignores events of other sessions", () => {
    const v = view();
    expect(reduceView(v, [{ type: "partial", payload: { sessionId: "other", message: partial("x") } }])).toBe(v);
  });

  it("records live tool statuses with their duration", () => {
    const v = reduceView(view(), [
      { type: "toolStatus", payload: { sessionId: "s1", toolCallId: "c1", toolName: "bash", status: "running" }, at: 1 },
      { type: "toolStatus", payload: { sessionId: "s1", toolCallId: "c1", toolName: "bash", status: "done", durationMs: 40 }, at: 2 },
    ]);
    expect(v.toolStatus.c1).toEqual({ status: "done", durationMs: 40, since: 2 });
  });

  it("drops a dangling partial when the turn goes idle", () => {
    const v1 = reduceView(view(), [{ type: "partial", payload: { sessionId: "s1", message: partial("abc") } }]);
    expect(reduceView(v1, [{ type: "idle", sessionId: "s1" }]).partial).toBeNull();
  });
});
