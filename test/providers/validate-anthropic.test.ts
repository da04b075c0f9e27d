import { describe, expect, it } from "vitest";
import { validateAnthropicRequest } from "../../electron/core/providers/validate";

const TOOL = { name: "read", description: "Read", input_schema: { type: "object", properties: { path: { type: "string" } } } };

function body(messages: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "claude-sonnet-4-5", max_tokens: 1024, stream: true, tools: [TOOL], messages, ...extra };
}

const toolUse = (id: string) => ({ type: "tool_use", id, name: "read", input: { path: "a" } });
const toolResult = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "ok" });

function rejects(input: unknown, ctx = {}): string {
  const rejection = validateAnthropicRequest(input, ctx);
  expect(rejection).not.toBeNull();
  expect(rejection?.status).toBe(400);
  expect(rejection?.body).toEqual({ type: "error", error: { type: "invalid_request_error", message: rejection?.message } });
  return rejection?.message ?? "";
}

describe("Anthropic validator rejects what the Messages API rejects, with its error text", () => {
  it("accepts a well-formed tool loop", () => {
    expect(
      validateAnthropicRequest(
        body([
          { role: "user", content: "hi" },
          { role: "assistant", content: [toolUse("toolu_1")] },
          { role: "user", content: [toolResult("toolu_1")] },
        ]),
      ),
    ).toBeNull();
  });

  it("rejects a tool_use id outside ^[a-zA-Z0-9_-]+$ (Kimi's functions.Bash:0)", () => {
    const message = rejects(
      body([
        { role: "user", content: "hi" },
        { role: "assistant", content: [toolUse("functions.Bash:0")] },
        { role: "user", content: [toolResult("functions.Bash:0")] },
      ]),
    );
    expect(message).toBe("messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'");
  });

  it("rejects a tool_use not answered in the very next message", () => {
    const message = rejects(
      body([
        { role: "user", content: "hi" },
        { role: "assistant", content: [toolUse("toolu_1")] },
        { role: "user", content: "what happened?" },
      ]),
    );
    expect(message).toBe(
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    );
  });

  it("rejects a tool_use left open at the end", () => {
    expect(
      rejects(
        body([
          { role: "user", content: "hi" },
          { role: "assistant", content: [toolUse("toolu_1")] },
        ]),
      ),
    ).toMatch(/^messages\.1: `tool_use` ids were found without `tool_result`/);
  });

  it("rejects a tool_result whose id the previous message did not use", () => {
    const message = rejects(
      body([
        { role: "user", content: "hi" },
        { role: "assistant", content: [toolUse("toolu_1")] },
        { role: "user", content: [toolResult("toolu_1"), toolResult("toolu_2")] },
      ]),
    );
    expect(message).toBe(
      "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_2. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    );
  });

  it("rejects duplicate tool_use ids", () => {
    const messages = [
      { role: "user", content: "hi" },
      { role: "assistant", content: [toolUse("toolu_1")] },
      { role: "user", content: [toolResult("toolu_1")] },
      { role: "assistant", content: [toolUse("toolu_1")] },
      { role: "user", content: [toolResult("toolu_1")] },
    ];
    expect(rejects(body(messages))).toBe("messages.3.content.0: `tool_use` ids must be unique");
  });

  it("rejects tool blocks in a request that defines no tools", () => {
    const messages = [
      { role: "user", content: "hi" },
      { role: "assistant", content: [toolUse("toolu_1")] },
      { role: "user", content: [toolResult("toolu_1")] },
    ];
    expect(rejects({ ...body(messages), tools: undefined })).toBe(
      "Requests which include `tool_use` or `tool_result` blocks must define tools.",
    );
  });

  it("rejects a thinking signature issued to another model", () => {
    const messages = [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "t", signature: "sig-opus" },
          { type: "text", text: "a" },
        ],
      },
      { role: "user", content: "b" },
    ];
    const owner = (s: string) => (s === "sig-opus" ? "claude-opus-4-5" : undefined);
    expect(rejects(body(messages), { signatureOwner: owner })).toBe("messages.1.content.0: Invalid `signature` in `thinking` block");
    expect(validateAnthropicRequest(body(messages, { model: "claude-opus-4-5" }), { signatureOwner: owner })).toBeNull();
  });

  it("rejects thinking without a signature", () => {
    const messages = [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "thinking", thinking: "t" }] },
      { role: "user", content: "b" },
    ];
    expect(rejects(body(messages))).toBe("messages.1.content.0.thinking.signature: Field required");
  });

  it("rejects empty and whitespace-only text blocks, and empty messages", () => {
    expect(rejects(body([{ role: "user", content: [{ type: "text", text: "" }] }]))).toBe(
      "messages.0.content.0.text: text content blocks must be non-empty",
    );
    expect(rejects(body([{ role: "user", content: [{ type: "text", text: " \n" }] }]))).toBe(
      "messages.0.content.0.text: text content blocks must contain non-whitespace text",
    );
    expect(rejects(body([{ role: "user", content: [] }]))).toBe(
      "messages.0: all messages must have non-empty content except for the optional final assistant message",
    );
  });

  it("rejects fields Anthropic does not know (internal fields leaking into a request)", () => {
    expect(rejects(body([{ role: "user", content: [{ type: "text", text: "hi", tool_call_ids: ["x"] }] }]))).toBe(
      "messages.0.content.0.text.tool_call_ids: Extra inputs are not permitted",
    );
  });

  it("rejects roles that do not alternate and a first message that is not the user's", () => {
    expect(
      rejects(
        body([
          { role: "user", content: "a" },
          { role: "user", content: "b" },
        ]),
      ),
    ).toBe('messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row');
    expect(rejects(body([{ role: "assistant", content: "a" }]))).toBe('messages: first message must use the "user" role');
  });

  it("rejects tool names outside ^[a-zA-Z0-9_-]{1,64}$ and an input_schema that is not an object", () => {
    expect(rejects({ ...body([{ role: "user", content: "a" }]), tools: [{ ...TOOL, name: "mcp.server:search" }] })).toBe(
      "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
    );
    expect(rejects({ ...body([{ role: "user", content: "a" }]), tools: [{ ...TOOL, input_schema: { type: "array" } }] })).toBe(
      "tools.0.custom.input_schema.type: Input should be 'object'",
    );
  });

  it("rejects thinking with a forced tool choice, a budget under 1024, or max_tokens not above the budget", () => {
    const messages = [{ role: "user", content: "a" }];
    expect(
      rejects(body(messages, { thinking: { type: "enabled", budget_tokens: 2048 }, max_tokens: 4096, tool_choice: { type: "any" } })),
    ).toBe("Thinking may not be enabled when tool_choice forces tool use.");
    expect(rejects(body(messages, { thinking: { type: "enabled", budget_tokens: 512 } }))).toBe(
      "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
    );
    expect(rejects(body(messages, { thinking: { type: "enabled", budget_tokens: 2048 }, max_tokens: 2048 }))).toMatch(
      /^`max_tokens` must be greater than `thinking.budget_tokens`/,
    );
  });

  it("rejects image media types Anthropic does not take", () => {
    const image = { type: "image", source: { type: "base64", media_type: "image/bmp", data: "AAAA" } };
    expect(rejects(body([{ role: "user", content: [image] }]))).toBe(
      "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    );
  });

  it("rejects a final assistant message ending in whitespace", () => {
    expect(
      rejects(
        body([
          { role: "user", content: "a" },
          { role: "assistant", content: "prefill " },
        ]),
      ),
    ).toBe("messages: final assistant content cannot end with trailing whitespace");
  });
});
