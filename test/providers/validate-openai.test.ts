import { describe, expect, it } from "vitest";
import { validateOpenAICompletionsRequest, validateOpenAIResponsesRequest } from "../../electron/core/providers/validate";
import type { ProviderRejection } from "../../electron/core/providers/validate";

const FN = { type: "function", function: { name: "read", parameters: { type: "object", properties: { path: { type: "string" } } } } };
const tc = (id: string) => ({ id, type: "function", function: { name: "read", arguments: "{}" } });

function chat(messages: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "gpt-4.1", stream: true, tools: [FN], messages, ...extra };
}

function openaiRejection(rejection: ProviderRejection | null): string {
  expect(rejection).not.toBeNull();
  expect(rejection?.status).toBe(400);
  expect(rejection?.body).toMatchObject({ error: { message: rejection?.message, type: "invalid_request_error" } });
  return rejection?.message ?? "";
}

describe("Chat Completions validator", () => {
  it("accepts a well-formed tool loop", () => {
    expect(
      validateOpenAICompletionsRequest(
        chat([
          { role: "user", content: "hi" },
          { role: "assistant", content: null, tool_calls: [tc("call_1")] },
          { role: "tool", tool_call_id: "call_1", content: "ok" },
        ]),
      ),
    ).toBeNull();
  });

  it("rejects a tool_call id longer than 40 characters with OpenAI's text and code", () => {
    const id = "call_" + "x".repeat(38);
    const rejection = validateOpenAICompletionsRequest(
      chat([
        { role: "user", content: "hi" },
        { role: "assistant", tool_calls: [tc(id)] },
        { role: "tool", tool_call_id: id, content: "ok" },
      ]),
    );
    expect(openaiRejection(rejection)).toBe(
      "Invalid 'messages[1].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 43 instead.",
    );
    expect(rejection?.body).toEqual({
      error: {
        message: rejection?.message,
        type: "invalid_request_error",
        param: "messages[1].tool_calls[0].id",
        code: "string_above_max_length",
      },
    });
  });

  it("rejects tool_calls not followed by a tool message for each id", () => {
    const message = openaiRejection(
      validateOpenAICompletionsRequest(
        chat([
          { role: "user", content: "hi" },
          { role: "assistant", tool_calls: [tc("call_1"), tc("call_2")] },
          { role: "tool", tool_call_id: "call_1", content: "ok" },
          { role: "user", content: "?" },
        ]),
      ),
    );
    expect(message).toBe(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_2",
    );
  });

  it("rejects a tool message without a preceding tool_calls message, and one answering an unknown id", () => {
    expect(
      openaiRejection(
        validateOpenAICompletionsRequest(
          chat([
            { role: "user", content: "hi" },
            { role: "tool", tool_call_id: "call_1", content: "ok" },
          ]),
        ),
      ),
    ).toBe("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.");
    expect(
      openaiRejection(
        validateOpenAICompletionsRequest(
          chat([
            { role: "user", content: "hi" },
            { role: "assistant", tool_calls: [tc("call_1")] },
            { role: "tool", tool_call_id: "call_9", content: "ok" },
          ]),
        ),
      ),
    ).toBe("Invalid parameter: 'tool_call_id' of 'call_9' not found in 'tool_calls' of previous message.");
  });

  it("rejects an assistant message with neither content nor tool calls", () => {
    expect(
      openaiRejection(
        validateOpenAICompletionsRequest(
          chat([
            { role: "user", content: "hi" },
            { role: "assistant", content: null },
            { role: "user", content: "?" },
          ]),
        ),
      ),
    ).toBe("Invalid value for 'content': expected a string, got null.");
  });

  it("rejects an empty tools array and a tool_choice without tools", () => {
    expect(openaiRejection(validateOpenAICompletionsRequest(chat([{ role: "user", content: "hi" }], { tools: [] })))).toBe(
      "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    );
    expect(
      openaiRejection(validateOpenAICompletionsRequest(chat([{ role: "user", content: "hi" }], { tools: undefined, tool_choice: "auto" }))),
    ).toBe("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.");
  });

  it("rejects tool names outside OpenAI's pattern", () => {
    const bad = { type: "function", function: { name: "mcp.server:search", parameters: { type: "object" } } };
    expect(openaiRejection(validateOpenAICompletionsRequest(chat([{ role: "user", content: "hi" }], { tools: [bad] })))).toBe(
      "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    );
  });

  it("rejects a strict schema that leaves out additionalProperties: false or a required key", () => {
    const loose = {
      type: "function",
      function: {
        name: "read",
        strict: true,
        parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    };
    expect(openaiRejection(validateOpenAICompletionsRequest(chat([{ role: "user", content: "hi" }], { tools: [loose] })))).toBe(
      "Invalid schema for function 'read': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    );
    const partial = {
      type: "function",
      function: {
        name: "read",
        strict: true,
        parameters: {
          type: "object",
          properties: { path: { type: "string" }, n: { type: "integer" } },
          required: ["path"],
          additionalProperties: false,
        },
      },
    };
    expect(openaiRejection(validateOpenAICompletionsRequest(chat([{ role: "user", content: "hi" }], { tools: [partial] })))).toBe(
      "Invalid schema for function 'read': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'n'.",
    );
  });

  it("rejects stream_options on a request that does not stream", () => {
    expect(
      openaiRejection(
        validateOpenAICompletionsRequest(
          chat([{ role: "user", content: "hi" }], { stream: false, stream_options: { include_usage: true } }),
        ),
      ),
    ).toBe("The 'stream_options' parameter is only allowed when 'stream' is set to true.");
  });
});

describe("Mistral rules on Chat Completions", () => {
  it("rejects an id that is not exactly 9 alphanumerics, with Mistral's error body", () => {
    const rejection = validateOpenAICompletionsRequest(
      chat([
        { role: "user", content: "hi" },
        { role: "assistant", tool_calls: [tc("toolu_01A")] },
        { role: "tool", tool_call_id: "toolu_01A", content: "ok" },
      ]),
      { mistral: true },
    );
    expect(rejection?.message).toBe("Tool call id was toolu_01A but must be a-z, A-Z, 0-9, with a length of 9.");
    expect(rejection?.body).toEqual({
      object: "error",
      message: rejection?.message,
      type: "invalid_function_call",
      param: null,
      code: "3280",
    });
  });

  it("rejects a user message right after a tool message, and an assistant message last", () => {
    const afterTool = [
      { role: "user", content: "hi" },
      { role: "assistant", tool_calls: [tc("abcDEF123")] },
      { role: "tool", tool_call_id: "abcDEF123", content: "ok" },
      { role: "user", content: "?" },
    ];
    expect(validateOpenAICompletionsRequest(chat(afterTool), { mistral: true })?.message).toBe("Unexpected role 'user' after role 'tool'");
    expect(validateOpenAICompletionsRequest(chat(afterTool))).toBeNull();
    expect(
      validateOpenAICompletionsRequest(
        chat([
          { role: "user", content: "hi" },
          { role: "assistant", content: "a" },
        ]),
        { mistral: true },
      )?.message,
    ).toBe("Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant");
  });
});

function responses(input: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: "gpt-5",
    stream: true,
    store: false,
    tools: [{ type: "function", name: "read", strict: false, parameters: { type: "object", properties: {} } }],
    input,
    ...extra,
  };
}
const fc = (callId: string, id?: string) => ({
  type: "function_call",
  call_id: callId,
  name: "read",
  arguments: "{}",
  ...(id ? { id } : {}),
});
const out = (callId: string) => ({ type: "function_call_output", call_id: callId, output: "ok" });

describe("Responses validator", () => {
  it("accepts a replayed call with its reasoning item", () => {
    const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc-gpt-5" };
    expect(
      validateOpenAIResponsesRequest(responses([{ role: "user", content: "hi" }, reasoning, fc("call_1", "fc_1"), out("call_1")]), {
        signatureOwner: () => "gpt-5",
      }),
    ).toBeNull();
  });

  it("rejects an output whose call is not in the input", () => {
    expect(openaiRejection(validateOpenAIResponsesRequest(responses([{ role: "user", content: "hi" }, out("call_9")])))).toBe(
      "No tool call found for function call output with call_id call_9.",
    );
  });

  it("rejects a call without its output", () => {
    expect(openaiRejection(validateOpenAIResponsesRequest(responses([{ role: "user", content: "hi" }, fc("call_1")])))).toBe(
      "No tool output found for function call call_1.",
    );
  });

  it("rejects a call_id over 64 characters and an item id that does not begin with fc", () => {
    const long = "call_" + "x".repeat(925);
    expect(openaiRejection(validateOpenAIResponsesRequest(responses([{ role: "user", content: "hi" }, fc(long), out(long)])))).toBe(
      "Invalid 'input[1].call_id': string too long. Expected a string with maximum length 64, but got a string with length 930 instead.",
    );
    expect(
      openaiRejection(validateOpenAIResponsesRequest(responses([{ role: "user", content: "hi" }, fc("call_1", "toolu_1"), out("call_1")]))),
    ).toBe("Invalid 'input[1].id': 'toolu_1'. Expected an ID that begins with 'fc'.");
  });

  it("rejects encrypted reasoning issued to another model, and a reasoning item without its following item", () => {
    const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc-mini" };
    expect(
      openaiRejection(
        validateOpenAIResponsesRequest(responses([{ role: "user", content: "hi" }, reasoning, fc("call_1", "fc_1"), out("call_1")]), {
          signatureOwner: () => "gpt-5-mini",
        }),
      ),
    ).toBe("The encrypted content for item rs_1 could not be verified.");
    expect(
      openaiRejection(
        validateOpenAIResponsesRequest(responses([{ role: "user", content: "hi" }, reasoning, { role: "user", content: "next" }])),
      ),
    ).toBe("Item 'rs_1' of type 'reasoning' was provided without its required following item.");
  });

  it("treats function tools as strict unless strict: false is sent", () => {
    const tools = [{ type: "function", name: "read", parameters: { type: "object", properties: { a: { type: "string" } } } }];
    expect(openaiRejection(validateOpenAIResponsesRequest(responses([{ role: "user", content: "hi" }], { tools })))).toBe(
      "Invalid schema for function 'read': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    );
  });

  it("rejects duplicate item ids", () => {
    expect(
      openaiRejection(
        validateOpenAIResponsesRequest(
          responses([{ role: "user", content: "hi" }, fc("call_1", "fc_1"), fc("call_2", "fc_1"), out("call_1"), out("call_2")]),
        ),
      ),
    ).toBe("Duplicate item found with id fc_1. Remove duplicate items from your input and try again.");
  });
});
