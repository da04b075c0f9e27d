/**
 * Histories our own adapters never write but a store can hold (an import, an
 * older version, another tool, a switch mid tool loop): the boundary repairs
 * each for every target, says so in the request's repairs, and the strict
 * validators refuse the unrepaired shape with the real provider's error.
 */
import { describe, expect, it } from "vitest";
import { buildRequest } from "../../electron/core/providers/requests";
import { validateRequest } from "../../electron/core/providers/validate";
import type { Message } from "../../shared/protocol";
import { assistant, call, CLAUDE, freeze, GPT5, result, target, text, TOOLS, user, type Target } from "./transform-fixtures";

const DEEPSEEK = target("deepseek/deepseek-reasoner");
const DEEPSEEK_REF = { provider: "deepseek", api: "openai-completions" as const, id: "deepseek-reasoner" };
const TARGETS: Record<string, Target> = {
  anthropic: target("anthropic/claude-sonnet-4-5"),
  "openai-completions": target("openai/gpt-4.1", "openai-completions"),
  "openai-responses": target("openai/gpt-5"),
  deepseek: DEEPSEEK,
};

function build(t: Target, messages: Message[]) {
  return buildRequest(t.model, t.provider, { systemPrompt: "You help.", messages: freeze(messages), tools: TOOLS });
}

type ChatBody = { messages: Array<{ role: string; tool_calls?: unknown[]; reasoning_content?: string }> };

describe("DeepSeek / Kimi thinking mode: reasoning_content on every tool-call message of the current loop", () => {
  // "Missing `reasoning_content` field in the assistant message at message index N"
  it("supplies an empty reasoning_content when the switch lands in the middle of another model's tool loop", () => {
    const history = [
      user("fix it"),
      assistant(GPT5, [{ type: "thinking", thinking: "secret plan", signature: "sig" }, call("call_1|fc_1")]),
      result("call_1|fc_1", "file body"),
    ];
    const built = build(DEEPSEEK, history);
    const body = built.body as ChatBody;
    const calls = body.messages.filter((m) => m.role === "assistant" && m.tool_calls);
    expect(calls).toHaveLength(1);
    expect(calls[0].reasoning_content).toBe("");
    expect(JSON.stringify(body)).not.toContain("secret plan");
    expect(built.repairs.map((r) => r.kind)).toEqual(expect.arrayContaining(["otherReasoningDropped", "reasoningContentSupplied"]));
    expect(validateRequest("openai-completions", body, { reasoningContentRequired: true })).toBeNull();

    const without = { ...body, messages: body.messages.map((m) => (m.tool_calls ? { ...m, reasoning_content: undefined } : m)) };
    expect(validateRequest("openai-completions", without, { reasoningContentRequired: true })?.message).toBe(
      "Missing `reasoning_content` field in the assistant message at message index 2",
    );
  });

  it("supplies it for the model's own tool call that streamed with empty reasoning, and keeps real reasoning", () => {
    const history = [
      user("go"),
      assistant(DEEPSEEK_REF, [{ type: "thinking", thinking: "" }, call("call_a")]),
      result("call_a", "one"),
      assistant(DEEPSEEK_REF, [{ type: "thinking", thinking: "read the second" }, call("call_b")]),
      result("call_b", "two"),
    ];
    const body = build(DEEPSEEK, history).body as ChatBody;
    const calls = body.messages.filter((m) => m.tool_calls);
    expect(calls.map((m) => m.reasoning_content)).toEqual(["", "read the second"]);
    expect(validateRequest("openai-completions", body, { reasoningContentRequired: true })).toBeNull();
  });

  it("is a compat flag: a server without it gets no reasoning_content", () => {
    const history = [user("go"), assistant(GPT5, [call("call_1|fc_1")]), result("call_1|fc_1", "x")];
    const body = build(TARGETS["openai-completions"], history).body as ChatBody;
    expect(body.messages.some((m) => "reasoning_content" in m)).toBe(false);
  });
});

describe("lone surrogates are cleaned at the boundary for every target", () => {
  const history = [
    user("read it"),
    assistant(CLAUDE, [text("ok"), call("toolu_1", "re\uD800ad", { path: "a\uD800.txt", nested: ["\uDC00", { "k\uD801": 1 }] })]),
    result("toolu_1", "body \uDBFF"),
  ];
  for (const [label, t] of Object.entries(TARGETS)) {
    // Anthropic: "no low surrogate in string"; OpenAI: "We could not parse the JSON body of your request."
    it(`for ${label}: tool arguments, tool names and text`, () => {
      const built = build(t, history);
      const json = JSON.stringify(built.body);
      expect(json).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
      expect(json).toContain("a\uFFFD.txt");
      expect(built.repairs.filter((r) => r.kind === "surrogatesReplaced").map((r) => r.messageIndex)).toEqual([1, 2]);
      expect(validateRequest(t.model.api, built.body, { reasoningContentRequired: t === DEEPSEEK })).toBeNull();
    });
  }

  it("the validators refuse a body with a lone surrogate, as the real APIs do", () => {
    const anthropic = { model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "bad \uD800" }] };
    expect(validateRequest("anthropic-messages", anthropic)?.message).toMatch(
      /^The request body is not valid JSON: no low surrogate in string: line 1 column \d+/,
    );
    const chat = { model: "gpt-4.1", messages: [{ role: "user", content: "bad \uDC00" }] };
    expect(validateRequest("openai-completions", chat)?.message).toMatch(/^We could not parse the JSON body of your request/);
    const escaped = { model: "gpt-4.1", messages: [{ role: "user", content: "a literal \\ud800 is fine" }] };
    expect(validateRequest("openai-completions", escaped)).toBeNull();
  });
});

describe("image types a target does not take become a text note", () => {
  const BMP = { type: "image" as const, data: "Qk0=", mimeType: "image/bmp" };
  const PNG = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
  for (const [label, t] of Object.entries({
    anthropic: TARGETS.anthropic,
    chat: TARGETS["openai-completions"],
    responses: TARGETS["openai-responses"],
  })) {
    // OpenAI: "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp']."
    it(`for ${label}`, () => {
      const built = build(t, [user("look", BMP, PNG)]);
      const json = JSON.stringify(built.body);
      expect(json).not.toContain("image/bmp;base64");
      expect(json).not.toContain('"media_type":"image/bmp"');
      expect(json).toContain("does not accept image/bmp images");
      expect(json).toContain("iVBORw0KGgo=");
      expect(built.repairs).toEqual([expect.objectContaining({ kind: "imageOmitted", messageIndex: 0 })]);
      expect(validateRequest(t.model.api, built.body)).toBeNull();
    });
  }

  it("the OpenAI validators refuse an unsupported image type", () => {
    const chat = {
      model: "gpt-4.1",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/bmp;base64,Qk0=" } }] }],
    };
    expect(validateRequest("openai-completions", chat)?.message).toMatch(/unsupported image/);
    const responses = {
      model: "gpt-5",
      input: [{ role: "user", content: [{ type: "input_image", detail: "auto", image_url: "data:image/tiff;base64,AA==" }] }],
    };
    expect(validateRequest("openai-responses", responses)?.message).toMatch(/unsupported image/);
  });
});
