/**
 * The real SDKs, through our adapters, against the faux provider: text,
 * thinking, tool calls, usage and cost, stop reasons, abort.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reply, startFauxProvider, text, thinking, toolCall, type FauxProvider, type FauxRoute } from "../../electron/core/faux";
import { computeCost } from "../../electron/core/providers/registry";
import type { AssistantMessage, ToolCall } from "../../shared/protocol";
import { context, ROUTES, run, targets, user, type Target } from "./adapters-fixtures";

let faux: FauxProvider;
let T: Record<FauxRoute, Target>;

beforeAll(async () => {
  faux = await startFauxProvider();
  T = targets(faux);
});
afterAll(() => faux.close());
beforeEach(() => {
  faux.reset();
});

/** A tool-call id each route's real provider (or a compatible server) might send. */
const CALL_IDS: Record<FauxRoute, [string, string]> = {
  anthropic: ["toolu_01A09q90qw90lq917835lq9", "toolu_01BbCcDdEeFfGgHhIiJjKkLl"],
  "openai-completions": ["call_abc123XYZ", "functions.Bash:0"],
  "openai-responses": ["call_abc|fc_def456", "call_0123456789abcdefghijklmn|fc_68b1e2c1f3d48190a8b3c2d1e0f9a8b70123456789abcdef"],
  mistral: ["D681PevKs", "x7Kp2Qm9Z"],
  gemini: ["gemini-call-1", "gemini-call-2"],
  bedrock: ["tooluse_AbCdEfGhIjKlMnOpQrStUv", "tooluse_0123456789abcdefghijkl"],
};

const toolCalls = (m: AssistantMessage): ToolCall[] => m.content.filter((b): b is ToolCall => b.type === "toolCall");

describe.each(ROUTES)("%s adapter", (route) => {
  it("streams text into start, text deltas and a done message", async () => {
    faux.script(reply("Hello from the faux provider, streamed in small pieces.", { chunkSize: 5 }));
    const seen: unknown[] = [];
    const { events, final, message } = await run(T[route], context([user("hi")]), { onRequestBody: (b) => seen.push(b) });
    expect(final.type).toBe("done");
    expect(events[0].type).toBe("start");
    expect(events.filter((e) => e.type === "textDelta").length).toBeGreaterThan(3);
    expect(events.map((e) => e.type)).toContain("textEnd");
    expect(message.content).toEqual([{ type: "text", text: "Hello from the faux provider, streamed in small pieces." }]);
    expect(message.stopReason).toBe("stop");
    expect(message.model).toEqual({ provider: T[route].model.provider, api: T[route].model.api, id: T[route].model.id });
    expect(message.responseId).toBeTruthy();
    expect(seen).toHaveLength(1);
    expect(faux.requests.map((r) => r.accepted)).toEqual([true]);
  });

  it("streams tool calls with the provider's ids kept verbatim and arguments parsed at the end", async () => {
    const [id1, id2] = CALL_IDS[route];
    faux.script(
      reply([text("Reading both."), toolCall("read", { path: "src/a.ts", limit: 20 }, id1), toolCall("bash", { command: "ls -la" }, id2)], {
        chunkSize: 4,
      }),
    );
    const { events, message } = await run(T[route], context([user("look")]));
    expect(message.stopReason).toBe("toolUse");
    const calls = toolCalls(message);
    expect(calls.map((c) => c.id)).toEqual([id1, id2]);
    expect(calls.map((c) => c.name)).toEqual(["read", "bash"]);
    expect(calls[0].arguments).toEqual({ path: "src/a.ts", limit: 20 });
    expect(calls[1].arguments).toEqual({ command: "ls -la" });
    expect(calls.every((c) => c.argumentsError === undefined && c.rawArguments === undefined)).toBe(true);
    const ends = events.filter((e) => e.type === "toolCallEnd");
    expect(ends).toHaveLength(2);
    // While streaming, the raw text is visible; arguments stay {} until the block ends.
    const midway = events.find((e) => e.type === "toolCallDelta");
    expect(
      midway &&
        midway.type === "toolCallDelta" &&
        midway.partial.content.some((b) => b.type === "toolCall" && Object.keys(b.arguments).length === 0),
    ).toBe(true);
  });

  it("reports usage and computes cost from the registry prices", async () => {
    faux.script(reply("ok", { usage: { input: 1000, output: 250, cacheRead: 400, cacheWrite: 50 } }));
    const { message } = await run(T[route], context([user("count")]));
    // Only Anthropic reports cache writes on the wire.
    const cacheWrite = route === "anthropic" ? 50 : 0;
    const counts = { input: 1000, output: 250, cacheRead: 400, cacheWrite };
    expect(message.usage).toMatchObject({ ...counts, totalTokens: 1000 + 250 + 400 + cacheWrite });
    expect(message.usage.cost).toEqual(computeCost(T[route].model, counts));
    expect(message.usage.cost.total).toBeGreaterThan(0);
  });

  it("maps a max-tokens stop to length", async () => {
    faux.script(reply("The answer is cut he", { stopReason: "length" }));
    const { final, message } = await run(T[route], context([user("long")]));
    expect(final.type).toBe("done");
    expect(message.stopReason).toBe("length");
    expect(message.content).toEqual([{ type: "text", text: "The answer is cut he" }]);
  });

  it("ends an aborted stream as aborted, keeping the partial text", async () => {
    faux.script(reply("This sentence will never be finished because the user pressed stop.", { chunkSize: 4, hangAfterEvents: 6 }));
    let deltas = 0;
    const { final, message } = await run(T[route], context([user("go")]), {}, (event, controller) => {
      if (event.type === "textDelta" && ++deltas === 2) controller.abort();
    });
    expect(final.type).toBe("error");
    expect(message.stopReason).toBe("aborted");
    const textBlock = message.content.find((b) => b.type === "text");
    expect(textBlock?.type === "text" && textBlock.text.length).toBeGreaterThanOrEqual(8);
    expect(final.type === "error" && final.retryable).toBe(false);
    // Anthropic reports input usage at message_start: an aborted turn still counts what it cost.
    if (route === "anthropic") expect(message.usage.input).toBeGreaterThan(0);
  });

  it("ends as aborted without a request when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { final, message } = await run(T[route], context([user("go")]), { signal: controller.signal });
    expect(final.type).toBe("error");
    expect(message.stopReason).toBe("aborted");
    expect(message.content).toEqual([]);
    expect(faux.requests).toHaveLength(0);
  });

  it("never changes a partial message after handing it out", async () => {
    faux.script(reply([text("one two three four five six"), toolCall("read", { path: "a.ts" })], { chunkSize: 3 }));
    const atReceipt: string[] = [];
    const { events } = await run(T[route], context([user("x")]), {}, (event) => {
      atReceipt.push(JSON.stringify("partial" in event ? event.partial : event.message));
    });
    const afterwards = events.map((event) => JSON.stringify("partial" in event ? event.partial : event.message));
    expect(afterwards).toEqual(atReceipt);
    const firstDelta = events.find((e) => e.type === "textDelta");
    expect(firstDelta?.type === "textDelta" && firstDelta.partial.content[0]).toEqual({ type: "text", text: "one" });
  });
});

describe("thinking", () => {
  it("Anthropic: keeps the thinking text and the signature issued for this model, byte for byte", async () => {
    faux.script(
      reply([thinking("Let me check the file first."), text("Checking."), toolCall("read", { path: "a" }, "toolu_01X")], { chunkSize: 5 }),
    );
    const { events, message } = await run(T.anthropic, context([user("?")]), { reasoning: "medium" });
    const block = message.content[0];
    expect(block.type).toBe("thinking");
    if (block.type !== "thinking") return;
    expect(block.thinking).toBe("Let me check the file first.");
    expect(block.signature).toBeTruthy();
    expect(faux.signatureOwner(block.signature ?? "")).toBe(T.anthropic.model.id);
    expect(events.filter((e) => e.type === "thinkingDelta").length).toBeGreaterThan(2);
    expect(faux.requests.every((r) => r.accepted)).toBe(true);
  });

  it("Anthropic: stores redacted thinking with its opaque data as the signature", async () => {
    faux.script(reply([thinking("", { redacted: true }), text("Done.")]));
    const { message } = await run(T.anthropic, context([user("?")]), { reasoning: "low" });
    const block = message.content[0];
    expect(block).toMatchObject({ type: "thinking", thinking: "", redacted: true });
    expect(block.type === "thinking" && faux.signatureOwner(block.signature ?? "")).toBe(T.anthropic.model.id);
  });

  it("Responses: stores the reasoning summary as text and the whole reasoning item as the signature", async () => {
    faux.script(reply([thinking("Plan: read, then edit."), toolCall("read", { path: "a" }, "call_1|fc_1")]));
    const { message } = await run(T["openai-responses"], context([user("?")]), { reasoning: "medium" });
    const block = message.content[0];
    expect(block.type).toBe("thinking");
    if (block.type !== "thinking") return;
    expect(block.thinking).toBe("Plan: read, then edit.");
    const item = JSON.parse(block.signature ?? "{}") as { type: string; id: string; encrypted_content: string };
    expect(item.type).toBe("reasoning");
    expect(item.id).toMatch(/^rs_/);
    expect(faux.signatureOwner(item.encrypted_content)).toBe(T["openai-responses"].model.id);
  });

  it("Chat Completions: reads reasoning from the field the compat flags name", async () => {
    faux.script(reply([thinking("Thinking out loud."), text("Answer.")], { reasoningField: "reasoning_content" }));
    const { message } = await run(T["openai-completions"], context([user("?")]));
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Thinking out loud." },
      { type: "text", text: "Answer." },
    ]);
  });

  it("Chat Completions: reads `reasoning` deltas on servers that use that field (Groq, Ollama, OpenRouter)", async () => {
    const target = T["openai-completions"];
    const groqLike = { ...target, model: { ...target.model, compat: { reasoningField: "reasoning" as const } } };
    faux.script(reply([thinking("Via the reasoning field."), text("Answer.")], { reasoningField: "reasoning" }));
    const { message } = await run(groqLike, context([user("?")]));
    expect(message.content[0]).toEqual({ type: "thinking", thinking: "Via the reasoning field." });
  });

  it("Chat Completions: ignores reasoning fields on a server whose compat says it sends none", async () => {
    faux.script(reply([thinking("hidden"), text("Answer.")]));
    const { message } = await run(T.mistral, context([user("?")]));
    expect(message.content).toEqual([{ type: "text", text: "Answer." }]);
  });
});

describe("refusals and filters", () => {
  it("Anthropic refusal ends as an error the user can read", async () => {
    faux.script(reply("I can't help with", { stopReason: "refusal" }));
    const { final, message } = await run(T.anthropic, context([user("?")]));
    expect(final.type).toBe("error");
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(/refusal/);
    expect(final.type === "error" && final.retryable).toBe(false);
    expect(message.content).toEqual([{ type: "text", text: "I can't help with" }]);
  });

  it.each(["openai-completions", "openai-responses"] as const)("%s content filter ends as an error", async (route) => {
    faux.script(reply("Partial", { stopReason: "contentFilter" }));
    const { message } = await run(T[route], context([user("?")]));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(/content_filter/);
  });
});

describe("servers that report no usage", () => {
  it("ends with zero usage and zero cost instead of failing", async () => {
    const target = T["openai-completions"];
    const noUsage = { ...target, provider: { ...target.provider, compat: { streamUsage: false } } };
    faux.script(reply("fine", { omitUsage: true }));
    const { final, message } = await run(noUsage, context([user("?")]));
    expect(final.type).toBe("done");
    expect((faux.requests[0].body as Record<string, unknown>).stream_options).toBeUndefined();
    expect(message.usage).toMatchObject({ input: 0, output: 0, totalTokens: 0, cost: { total: 0 } });
  });
});
