import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRef } from "../../shared/protocol";
import type { FauxReply, FauxRequest } from "../../electron/core/faux";
import { hostPids, uniqueSleep } from "../tools/host-processes";
import { MODELS, expectAllAccepted, expectEveryCallAnswered, messagesOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const messages = messagesOf;

async function expectContinuable(harness: Harness): Promise<void> {
  harness.faux.script([{ type: "reply", content: [{ type: "text", text: "continuing fine" }] }]);
  await harness.turn("are you still there?");
  const { entries } = await harness.call("session.load", { sessionId: harness.sessionId });
  expect(messages(entries).at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  expectEveryCallAnswered(entries);
  expectAllAccepted(harness);
}

describe("abort", () => {
  it("while streaming keeps the partial text and leaves a continuable session", async () => {
    h = await startHarness();
    h.faux.script([
      {
        type: "reply",
        content: [
          { type: "text", text: "Here is a long answer that will be cut short by the stop button" },
          { type: "toolCall", id: "toolu_never", name: "read", arguments: { path: "x" } },
        ],
        chunkSize: 4,
        hangAfterEvents: 6,
      },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "talk" });
    await h.waitFor("stream.partial", (p) => p.message.content.some((b) => b.type === "text" && b.text.length > 0), from);
    await h.call("chat.abort", { sessionId: h.sessionId });
    await h.waitIdle(from);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const last = messages(entries)
      .filter((m) => m.role === "assistant")
      .at(-1);
    expect(last).toMatchObject({ stopReason: "aborted" });
    expect(JSON.stringify(last?.content)).toContain("Here is");
    await expectContinuable(h);
  });

  it("while bash runs kills the process and stores an aborted result", async () => {
    h = await startHarness();
    await h.call("settings.update", { approvalPolicy: { write: "ask", edit: "ask", bash: "allow", bashAllow: [], bashDeny: [] } });
    // Found by its unique argument from the host side: in the bash sandbox's own PID namespace `$$` is not a host pid.
    const marker = uniqueSleep();
    h.faux.script([
      {
        type: "reply",
        content: [
          { type: "toolCall", id: "toolu_sleep", name: "bash", arguments: { command: `echo started > started.txt; sleep ${marker}` } },
        ],
      },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "sleep" });
    await h.waitFor("tool.status", (s) => s.toolCallId === "toolu_sleep" && s.status === "running", from);
    await expect.poll(() => hostPids(["sleep", marker]).length, { timeout: 15_000 }).toBe(1);
    expect(readFileSync(join(h.workspace, "started.txt"), "utf8")).toBe("started\n");
    await h.call("chat.abort", { sessionId: h.sessionId });
    await h.waitIdle(from);
    await expect.poll(() => hostPids(["sleep", marker]).length).toBe(0);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const result = messages(entries).find((m) => m.role === "toolResult");
    expect(result).toMatchObject({ toolCallId: "toolu_sleep", isError: true });
    await expectContinuable(h);
  });

  it("while an approval is pending answers the call as aborted and writes nothing", async () => {
    h = await startHarness();
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_w", name: "write", arguments: { path: "new.txt", content: "x" } }] },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "write" });
    await h.waitFor("turn.state", (s) => s.status === "awaitingApproval", from);
    await h.call("chat.abort", { sessionId: h.sessionId });
    await h.waitIdle(from);
    expect(existsSync(join(h.workspace, "new.txt"))).toBe(false);
    const { entries, turn } = await h.call("session.load", { sessionId: h.sessionId });
    expect(turn.status).toBe("idle");
    expect(messages(entries).find((m) => m.role === "toolResult")).toMatchObject({ toolCallId: "toolu_w", isError: true });
    await expectContinuable(h);
  });
});

describe("mid-session model switch", () => {
  it("Anthropic → OpenAI Chat → Mistral → OpenAI Responses → Anthropic with tool calls in every leg", async () => {
    h = await startHarness({ files: { "notes.md": "# notes\n" } });
    const legs: Array<{ model: ModelRef; id: string }> = [
      { model: MODELS.anthropic, id: "toolu_01A09q90qw90lq917835lq9" },
      { model: MODELS.openaiChat, id: "call_abc123|fc_0123456789abcdef0123456789abcdef" },
      { model: MODELS.mistral, id: "functions.read:0" },
      { model: MODELS.openaiResponses, id: "call_xyz|fc_987" },
      { model: MODELS.anthropic, id: "a.b/c:d|e" },
    ];
    const storedIds: string[] = [];
    for (const [i, leg] of legs.entries()) {
      await h.call("chat.switchModel", { sessionId: h.sessionId, model: leg.model });
      const reply: FauxReply = {
        type: "reply",
        content: [
          { type: "thinking", thinking: `leg ${i} thinking` },
          { type: "toolCall", id: leg.id, name: "read", arguments: { path: "notes.md" } },
        ],
      };
      h.faux.script([reply, (req: FauxRequest) => ({ type: "reply", content: [{ type: "text", text: `leg ${i} done on ${req.route}` }] })]);
      await h.turn(`leg ${i}: read the notes`);
      storedIds.push(leg.id);
    }
    const { entries, session } = await h.call("session.load", { sessionId: h.sessionId });
    expect(session.model).toEqual(MODELS.anthropic);
    expect(entries.filter((e) => e.entry.type === "modelSwitch")).toHaveLength(4);
    // Stored ids are never rewritten.
    const calls = messages(entries).flatMap((m) =>
      m.role === "assistant" ? m.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : [],
    );
    expect(calls).toEqual(storedIds);
    expectEveryCallAnswered(entries);
    // Every request, on every wire API, passed the strict validation.
    expect(new Set(h.faux.requests.map((r) => r.route))).toEqual(
      new Set(["anthropic", "openai-completions", "mistral", "openai-responses"]),
    );
    expect(h.faux.requests.filter((r) => !r.accepted).map((r) => r.rejection?.message)).toEqual([]);
    // Each assistant message records the model that wrote it.
    const models = messages(entries).flatMap((m) => (m.role === "assistant" ? [m.model.api] : []));
    expect(models).toEqual([
      "anthropic-messages",
      "anthropic-messages",
      "openai-completions",
      "openai-completions",
      "openai-completions",
      "openai-completions",
      "openai-responses",
      "openai-responses",
      "anthropic-messages",
      "anthropic-messages",
    ]);
  });

  it("a switch during a running turn applies from the next request", async () => {
    h = await startHarness({ files: { "a.txt": "a\n" } });
    h.faux.script([
      { type: "reply", content: [{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a.txt" } }], chunkDelayMs: 5 },
      (req) => ({ type: "reply", content: [{ type: "text", text: `answered on ${req.route}` }] }),
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
    await h.waitFor("stream.partial", () => true, from);
    await h.call("chat.switchModel", { sessionId: h.sessionId, model: MODELS.openaiChat });
    await h.waitIdle(from);
    expect(h.faux.requests.map((r) => r.route)).toEqual(["anthropic", "openai-completions"]);
  });
});
