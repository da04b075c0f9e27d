/**
 * What each adapter makes of valid, odd and malformed SSE payloads: unknown
 * event types, missing fields, wrong types, nulls where a value is expected,
 * numbers JSON turns into Infinity. The server is a bare `node:http` one that
 * sends each case's bytes as given, so the transport and the adapters run for
 * real. The snapshot was recorded before the adapters' event checks were
 * rewritten by hand (they used zod schemas): any change in what is accepted,
 * ignored or reported shows up here.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdapter } from "../../electron/core/providers";
import type { StreamEvent } from "../../electron/core/providers/types";
import { API_KEY, context, targets, user, type Target } from "./adapters-fixtures";

/** One SSE event: a name (null: a data-only event) and its data, JSON-encoded unless already text. */
type WireEvent = [name: string | null, data: unknown];

let server: http.Server;
const next: string[] = [];
let T: ReturnType<typeof targets>;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(next.shift() ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  T = targets({ baseUrls: { anthropic: base, openai: base, mistral: base, gemini: base, bedrock: base } });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function encode(events: readonly WireEvent[]): string {
  return events
    .map(([name, data]) => `${name === null ? "" : `event: ${name}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`)
    .join("");
}

/** Runs one case; each output event becomes one line (timestamp and generated ids made stable). */
async function outputOf(target: Target, events: readonly WireEvent[]): Promise<string[]> {
  next.push(encode(events));
  const out: StreamEvent[] = [];
  for await (const event of createAdapter(target.model.api, {}).stream(target.model, target.provider, context([user("go")]), {
    apiKey: API_KEY,
  })) {
    out.push(event);
  }
  return out.map((event) =>
    JSON.stringify(event, (key, value: unknown) => (key === "timestamp" ? 0 : value)).replace(/call_[0-9a-f]{24}/g, "call_<generated>"),
  );
}

// ---------------------------------------------------------------- Anthropic

const A = {
  start: (message: unknown = { id: "msg_1", usage: { input_tokens: 10, output_tokens: 1 } }): WireEvent => [
    "message_start",
    { type: "message_start", message },
  ],
  blockStart: (index: unknown, content_block: unknown): WireEvent => [
    "content_block_start",
    { type: "content_block_start", index, content_block },
  ],
  delta: (index: unknown, delta: unknown): WireEvent => ["content_block_delta", { type: "content_block_delta", index, delta }],
  blockStop: (index: unknown): WireEvent => ["content_block_stop", { type: "content_block_stop", index }],
  messageDelta: (delta: unknown = { stop_reason: "tool_use" }, usage: unknown = { output_tokens: 7 }): WireEvent => [
    "message_delta",
    { type: "message_delta", delta, usage },
  ],
  stop: (): WireEvent => ["message_stop", { type: "message_stop" }],
};
const toolUse = (id: unknown = "toolu_1", name: unknown = "read", input: unknown = {}) => ({ type: "tool_use", id, name, input });
/** A valid tool call, with one event replaced or added by each malformed case. */
const anthropicCall = (...middle: WireEvent[]): WireEvent[] => [
  A.start(),
  A.blockStart(0, toolUse()),
  ...middle,
  A.delta(0, { type: "input_json_delta", partial_json: '{"path":"a.txt"}' }),
  A.blockStop(0),
  A.messageDelta(),
  A.stop(),
];

const ANTHROPIC: Record<string, WireEvent[]> = {
  "a tool call": anthropicCall(),
  "text, thinking with its signature, redacted thinking": [
    A.start(),
    A.blockStart(0, { type: "thinking", thinking: "" }),
    A.delta(0, { type: "thinking_delta", thinking: "Let me see." }),
    A.delta(0, { type: "signature_delta", signature: "sig" }),
    A.delta(0, { type: "signature_delta", signature: "-more" }),
    A.blockStop(0),
    A.blockStart(1, { type: "redacted_thinking", data: "opaque" }),
    A.blockStop(1),
    A.blockStart(2, { type: "text", text: "" }),
    A.delta(2, { type: "text_delta", text: "Hello" }),
    A.delta(2, { type: "text_delta", text: " there" }),
    A.blockStop(2),
    A.messageDelta({ stop_reason: "end_turn" }),
    A.stop(),
  ],
  "blocks that start with content": [
    A.start(),
    A.blockStart(0, { type: "thinking", thinking: "early", signature: "s0" }),
    A.blockStop(0),
    A.blockStart(1, { type: "text", text: "Hi" }),
    A.blockStop(1),
    A.blockStart(2, toolUse("toolu_2", "bash", { command: "ls" })),
    A.blockStop(2),
    A.blockStart(3, toolUse("toolu_3", "read", [1])),
    A.blockStop(3),
    A.blockStart(4, toolUse("toolu_4", "read", null)),
    A.blockStop(4),
    A.blockStart(5, { type: "tool_use", id: "toolu_5", name: "read" }),
    A.blockStop(5),
    A.messageDelta(),
    A.stop(),
  ],
  "unknown event types, unnamed events, pings with data, extra fields": anthropicCall(
    ["content_block_foo", { type: "content_block_foo", index: 0 }],
    ["future_event", { type: "future_event" }],
    [null, { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "unnamed" } }],
    ["ping", { type: "ping", extra: 1 }],
    ["content_block_delta", { type: "ping" }],
    [
      "content_block_delta",
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "", extra: [1] }, more: {} },
    ],
  ),
  "payloads that are not objects": anthropicCall(
    ["content_block_delta", "null"],
    ["content_block_delta", "[1,2]"],
    ["content_block_delta", '"text"'],
    ["content_block_delta", "5"],
    ["content_block_delta", "true"],
    ["content_block_delta", ""],
  ),
  "message_start with a numeric id is ignored": [A.start({ id: 5, usage: { input_tokens: 10 } }), ...anthropicCall().slice(1)],
  "message_start with a null id is ignored": [A.start({ id: null, usage: { input_tokens: 10 } }), ...anthropicCall().slice(1)],
  "message_start without a message is ignored": [["message_start", { type: "message_start" }], ...anthropicCall().slice(1)],
  "message_start with a null message is ignored": [A.start(null), ...anthropicCall().slice(1)],
  "message_start with an array message is ignored": [A.start([]), ...anthropicCall().slice(1)],
  "message_start without id or usage": [A.start({}), ...anthropicCall().slice(1)],
  "message_start with null usage is ignored": [A.start({ id: "m", usage: null }), ...anthropicCall().slice(1)],
  "message_start with null token counts": [
    A.start({ id: "m", usage: { input_tokens: null, output_tokens: 3, cache_read_input_tokens: null, cache_creation_input_tokens: 4 } }),
    ...anthropicCall().slice(1),
  ],
  "message_start with a string token count is ignored": [A.start({ id: "m", usage: { input_tokens: "10" } }), ...anthropicCall().slice(1)],
  "message_start with an overflowing token count is ignored": [
    ["message_start", '{"type":"message_start","message":{"id":"m","usage":{"input_tokens":1e999}}}'],
    ...anthropicCall().slice(1),
  ],
  "content_block_start with bad shapes": [
    A.start(),
    ["content_block_start", { type: "content_block_start", content_block: { type: "text" } }],
    A.blockStart("0", { type: "text" }),
    A.blockStart(0, null),
    A.blockStart(0, { type: 1 }),
    A.blockStart(0, {}),
    ["content_block_start", '{"type":"content_block_start","index":1e999,"content_block":{"type":"text"}}'],
    A.blockStart(1, { type: "server_tool_use", id: "srvtoolu_1", name: "web_search" }),
    A.blockStart(1, { type: "text", text: null }),
    A.blockStart(1, { type: "thinking", thinking: 5 }),
    A.blockStart(1, { type: "thinking", thinking: "", signature: null }),
    A.blockStart(1, { type: "redacted_thinking" }),
    A.blockStart(1, toolUse(undefined, "read")),
    A.blockStart(1, { type: "tool_use", name: "read" }),
    A.blockStart(1, toolUse("toolu_1", 5)),
    A.blockStart(1, toolUse(null, "read")),
    A.delta(1, { type: "text_delta", text: "lost" }),
    A.blockStop(1),
    A.blockStart(0.5, { type: "text" }),
    A.delta(0.5, { type: "text_delta", text: "half" }),
    A.blockStop(0.5),
    A.messageDelta({ stop_reason: "end_turn" }),
    A.stop(),
  ],
  "content_block_delta with bad shapes": anthropicCall(
    A.delta(1, { type: "input_json_delta", partial_json: "unmapped" }),
    A.delta("0", { type: "input_json_delta", partial_json: "string index" }),
    ["content_block_delta", { type: "content_block_delta", delta: { type: "input_json_delta", partial_json: "no index" } }],
    ["content_block_delta", { type: "content_block_delta", index: 0 }],
    A.delta(0, null),
    A.delta(0, {}),
    A.delta(0, { type: 5 }),
    A.delta(0, { type: "citations_delta", citation: {} }),
    A.delta(0, { type: "input_json_delta" }),
    A.delta(0, { type: "input_json_delta", partial_json: 5 }),
    A.delta(0, { type: "input_json_delta", partial_json: null }),
    A.delta(0, { type: "text_delta", text: "a text delta on a tool call" }),
    A.delta(0, { type: "thinking_delta", thinking: "a thinking delta on a tool call" }),
    A.delta(0, { type: "signature_delta", signature: "a signature on a tool call" }),
    A.delta(0, { type: "text_delta", text: 5 }),
    A.delta(0, { type: "thinking_delta" }),
    A.delta(0, { type: "signature_delta", signature: [] }),
  ),
  "content_block_stop with bad shapes, and twice": [
    A.start(),
    A.blockStart(0, { type: "text", text: "" }),
    A.delta(0, { type: "text_delta", text: "x" }),
    A.blockStop("0"),
    ["content_block_stop", { type: "content_block_stop" }],
    A.blockStop(7),
    A.delta(0, { type: "text_delta", text: "y" }),
    A.blockStop(0),
    A.blockStop(0),
    A.delta(0, { type: "text_delta", text: "after stop" }),
    A.messageDelta({ stop_reason: "end_turn" }),
    A.stop(),
  ],
  "a block left open at message_stop": [
    A.start(),
    A.blockStart(0, { type: "text", text: "open" }),
    A.messageDelta({ stop_reason: "max_tokens" }),
    A.stop(),
  ],
  "message_delta without a delta is ignored (truncated)": [
    ...anthropicCall().slice(0, 4),
    ["message_delta", { type: "message_delta", usage: {} }],
    A.stop(),
  ],
  "message_delta with a numeric stop_reason is ignored (truncated)": [
    ...anthropicCall().slice(0, 4),
    A.messageDelta({ stop_reason: 1 }),
    A.stop(),
  ],
  "message_delta with a null stop_reason, then a real one": [
    ...anthropicCall().slice(0, 4),
    A.messageDelta({ stop_reason: null }),
    A.messageDelta(),
    A.stop(),
  ],
  "message_delta with null usage": [...anthropicCall().slice(0, 4), A.messageDelta({ stop_reason: "tool_use" }, null), A.stop()],
  "message_delta without usage": [
    ...anthropicCall().slice(0, 4),
    ["message_delta", { type: "message_delta", delta: { stop_reason: "tool_use" } }],
    A.stop(),
  ],
  "message_delta with a string token count is ignored (truncated)": [
    ...anthropicCall().slice(0, 4),
    A.messageDelta(undefined, { output_tokens: "7" }),
    A.stop(),
  ],
  "message_delta with a delta that is an array is ignored (truncated)": [...anthropicCall().slice(0, 4), A.messageDelta([]), A.stop()],
  "message_delta with every usage field": [
    ...anthropicCall().slice(0, 4),
    A.messageDelta(
      { stop_reason: "tool_use" },
      { input_tokens: 11, output_tokens: 22, cache_read_input_tokens: 33, cache_creation_input_tokens: 44 },
    ),
    A.stop(),
  ],
  "stop reasons: refusal": [...anthropicCall().slice(0, 4), A.messageDelta({ stop_reason: "refusal" }), A.stop()],
  "stop reasons: unknown": [...anthropicCall().slice(0, 4), A.messageDelta({ stop_reason: "new_reason" }), A.stop()],
  "stop reasons: empty string is no stop reason": [...anthropicCall().slice(0, 4), A.messageDelta({ stop_reason: "" }), A.stop()],
  "no message_stop": anthropicCall().slice(0, 5),
  "an error event": [
    ...anthropicCall().slice(0, 3),
    ["error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }],
  ],
  "an error event that is not JSON": [...anthropicCall().slice(0, 3), ["error", "upstream broke"]],
  "data that is not JSON": [...anthropicCall().slice(0, 3), ["content_block_delta", "{not json"]],
};

// ---------------------------------------------------------------- Chat Completions

const chunk = (choices: unknown, extra: Record<string, unknown> = {}): WireEvent => [
  null,
  { id: "chatcmpl-1", object: "chat.completion.chunk", choices, ...extra },
];
const choice = (delta: unknown, finish_reason: unknown = null) => [{ index: 0, delta, finish_reason }];
const call = (fields: Record<string, unknown>) => ({
  index: 0,
  id: "call_1",
  type: "function",
  function: { name: "read", arguments: "" },
  ...fields,
});
const DONE: WireEvent = [null, "[DONE]"];
const completionsCall = (...middle: WireEvent[]): WireEvent[] => [
  chunk(choice({ role: "assistant", content: null, tool_calls: [call({})] })),
  ...middle,
  chunk(choice({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a.txt"}' } }] })),
  chunk(choice({}, "tool_calls")),
  chunk([], { usage: { prompt_tokens: 20, completion_tokens: 5 } }),
  DONE,
];

/**
 * One case per payload, each sent after a complete valid stream (before its
 * `[DONE]`), where anything it changes shows: the response id, usage, a new
 * block, the finish reason.
 */
const completionsProbes = (payloads: unknown[]): Record<string, WireEvent[]> =>
  Object.fromEntries(
    payloads.map((p) => [`probe ${typeof p === "string" ? p : JSON.stringify(p)}`, [...completionsCall().slice(0, -1), [null, p], DONE]]),
  );

const COMPLETIONS: Record<string, WireEvent[]> = {
  "a tool call": completionsCall(),
  "reasoning, text, refusal fields and two tool calls": [
    chunk(choice({ reasoning_content: "Thinking", reasoning: "ignored: the compat names reasoning_content" })),
    chunk(choice({ reasoning_content: " more" })),
    chunk(choice({ content: "Answer" })),
    chunk(choice({ content: " here", reasoning_content: "" })),
    chunk(choice({ reasoning_content: "again" })),
    chunk(choice({ tool_calls: [call({}), call({ index: 1, id: "call_2", function: { name: "bash", arguments: '{"command":' } })] })),
    chunk(
      choice({
        tool_calls: [
          { index: 1, function: { arguments: '"ls"}' } },
          { index: 0, function: { name: "read", arguments: "{}" } },
        ],
      }),
    ),
    chunk(choice({ content: "late text" })),
    chunk(choice({}, "stop")),
    DONE,
  ],
  "a refusal": [
    chunk(choice({ refusal: "I can't" })),
    chunk(choice({ refusal: " do that", content: "Sorry" })),
    chunk(choice({}, "stop")),
    DONE,
  ],
  "a later empty finish reason keeps the earlier one": [
    chunk(choice({ content: "a" }, "length")),
    chunk(choice({ content: "b" }, "")),
    DONE,
  ],
  "finish reason content_filter": [chunk(choice({ content: "a" }, "content_filter")), DONE],
  "finish reason unknown": [chunk(choice({ content: "a" }, "weird")), DONE],
  "finish reason numeric is ignored (truncated)": [chunk(choice({ content: "a" }, 1)), DONE],
  "tool calls without ids, indices or names": [
    chunk(choice({ tool_calls: [{ function: { name: "read", arguments: '{"path":' } }, { id: "null", function: { name: "bash" } }] })),
    chunk(choice({ tool_calls: [{ index: 0, id: null, function: { arguments: '"a"}' } }] })),
    chunk(choice({ tool_calls: [{ index: 1, function: null }] })),
    chunk(choice({ tool_calls: [{ index: 2 }] })),
    chunk(choice({ tool_calls: [{ index: 2, function: { name: "renamed", arguments: null } }] })),
    chunk(choice({ tool_calls: [{ index: 2, function: { name: "" } }] })),
    chunk(choice({}, "tool_calls")),
    DONE,
  ],
  "usage: cached tokens, DeepSeek cache hits, nulls": [
    chunk(choice({ content: "x" }, "stop")),
    chunk([], { usage: { prompt_tokens: 100, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 40 } } }),
    chunk([], { usage: { prompt_tokens: 100, completion_tokens: 10, prompt_tokens_details: null, prompt_cache_hit_tokens: 30 } }),
    chunk([], { usage: { prompt_tokens: 5, completion_tokens: null, prompt_tokens_details: { cached_tokens: null } } }),
    chunk([], { usage: { prompt_tokens: 5, prompt_tokens_details: { cached_tokens: 9 } } }),
    DONE,
  ],
  "an error payload": [
    chunk(choice({ content: "x" })),
    [null, { error: { message: "Overloaded", type: "server_error", code: "overloaded" } }],
  ],
  "a falsy error field is not an error": [chunk(choice({ content: "x" }, "stop")), [null, { id: "c", error: null, choices: [] }], DONE],
  "data after [DONE] is ignored": [chunk(choice({ content: "x" }, "stop")), DONE, chunk(choice({ content: "after" })), [null, "{not json"]],
  "no [DONE] but a finish reason": [chunk(choice({ content: "x" }, "stop"))],
  "no finish reason": [chunk(choice({ content: "x" })), DONE],
  "data that is not JSON": [chunk(choice({ content: "x" })), [null, "{not json"]],
  // Skipped whole:
  ...completionsProbes([
    { id: null, choices: choice({ content: "null id" }) },
    { id: 5, choices: choice({ content: "numeric id" }) },
    { id: "c1", choices: null },
    { id: "c2", choices: { 0: { delta: { content: "object choices" } } } },
    { id: "c3", choices: [{ delta: { content: "first" } }, { delta: { content: 5 } }] },
    { id: "c4", choices: [{ delta: { content: "first" } }, null] },
    { id: "c5", choices: [{ delta: [] }] },
    { id: "c6", choices: [{ delta: "text" }] },
    { id: "c7", choices: [{ delta: { content: 5 } }] },
    { id: "c8", choices: [{ delta: { refusal: 5 } }] },
    { id: "c9", choices: [{ delta: { reasoning_content: 5 } }] },
    { id: "c10", choices: [{ delta: { reasoning: 5 } }] },
    { id: "c11", choices: [{ delta: { tool_calls: {} } }] },
    { id: "c12", choices: [{ delta: { tool_calls: [null] } }] },
    { id: "c13", choices: [{ delta: { tool_calls: [{ index: null }] } }] },
    { id: "c14", choices: [{ delta: { tool_calls: [{ index: "0" }] } }] },
    { id: "c15", choices: [{ delta: { tool_calls: [{ index: 3, id: 5 }] } }] },
    { id: "c16", choices: [{ delta: { tool_calls: [{ index: 3, function: [] }] } }] },
    { id: "c17", choices: [{ delta: { tool_calls: [{ index: 3, function: { name: 5 } }] } }] },
    { id: "c18", choices: [{ delta: { tool_calls: [{ index: 3, function: { arguments: {} } }] } }] },
    { id: "c19", choices: [{ delta: {}, finish_reason: 0 }] },
    { id: "c20", choices: [], usage: { prompt_tokens: "1" } },
    { id: "c21", choices: [], usage: [] },
    { id: "c22", choices: [], usage: { prompt_tokens_details: { cached_tokens: "1" } } },
    { id: "c23", choices: [], usage: { prompt_tokens_details: 5 } },
    { id: "c24", choices: [], usage: { prompt_cache_hit_tokens: "1" } },
    { id: "c25", choices: [], usage: { completion_tokens: false } },
    '{"id":"c26","choices":[],"usage":{"completion_tokens":1e999}}',
    '{"id":"c27","choices":[{"index":1e999,"delta":{"tool_calls":[{"index":1e999}]}}]}',
    "null",
    "[1]",
    '"chunk"',
    "7",
  ]),
  // Accepted, nulls and extra fields included:
  ...completionsProbes([
    { choices: [] },
    {},
    { id: "c1", choices: [{}] },
    { id: "c2", choices: [{ delta: null, finish_reason: null }] },
    { id: "c3", choices: [{ delta: { content: null, refusal: null, reasoning_content: null, reasoning: null, tool_calls: null } }] },
    { id: "c4", choices: [{ delta: { tool_calls: [] } }], usage: null },
    { id: "c5", choices: [{ delta: { tool_calls: [{ index: 4, id: null, function: null, extra: 1 }] }, extra: 2 }], extra: 3 },
    { id: "c6", choices: [{ delta: { content: "" } }, { delta: { content: "second choice is not read" } }] },
    {
      id: "c7",
      choices: [{ delta: { content: "more" }, finish_reason: "length" }],
      usage: { prompt_tokens: 1, completion_tokens: 2, prompt_tokens_details: {} },
    },
    { id: "c8", choices: [{ index: 2.5, delta: { tool_calls: [{ index: 0.5, function: { arguments: "" } }] } }] },
  ]),
};

// ---------------------------------------------------------------- Responses

const R = {
  created: (response: unknown = { id: "resp_1", status: "in_progress" }): WireEvent => [
    "response.created",
    { type: "response.created", sequence_number: 0, response },
  ],
  added: (output_index: unknown, item: unknown): WireEvent => [
    "response.output_item.added",
    { type: "response.output_item.added", output_index, item },
  ],
  done: (output_index: unknown, item: unknown): WireEvent => [
    "response.output_item.done",
    { type: "response.output_item.done", output_index, item },
  ],
  ev: (type: string, fields: Record<string, unknown>): WireEvent => [type, { type, ...fields }],
  completed: (response: unknown = { id: "resp_1", status: "completed", usage: { input_tokens: 30, output_tokens: 8 } }): WireEvent => [
    "response.completed",
    { type: "response.completed", response },
  ],
};
const fnItem = (fields: Record<string, unknown> = {}) => ({
  type: "function_call",
  id: "fc_1",
  call_id: "call_1",
  name: "read",
  arguments: "",
  status: "in_progress",
  ...fields,
});
const responsesCall = (...middle: WireEvent[]): WireEvent[] => [
  R.created(),
  R.added(0, fnItem()),
  ...middle,
  R.ev("response.function_call_arguments.delta", { output_index: 0, delta: '{"path":"a.txt"}' }),
  R.done(0, fnItem({ arguments: '{"path":"a.txt"}', status: "completed" })),
  R.completed(),
];

/** One case per event, each sent after a complete valid stream, where anything it changes shows. */
const responsesProbes = (events: WireEvent[]): Record<string, WireEvent[]> =>
  Object.fromEntries(
    events.map((e) => [`probe ${e[0]} ${typeof e[1] === "string" ? e[1] : JSON.stringify(e[1])}`, [...responsesCall(), e]]),
  );

const RESPONSES: Record<string, WireEvent[]> = {
  "a tool call": responsesCall(),
  "reasoning with summary parts, a message, a refusal": [
    R.created(),
    R.ev("response.in_progress", { response: { id: "resp_2" } }),
    R.added(0, { type: "reasoning", id: "rs_1", summary: [] }),
    R.ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: 0 }),
    R.ev("response.reasoning_summary_text.delta", { output_index: 0, delta: "First." }),
    R.ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: 1 }),
    R.ev("response.reasoning_text.delta", { output_index: 0, delta: "Second." }),
    R.done(0, {
      id: "rs_1",
      type: "reasoning",
      summary: [{ type: "summary_text", text: "First." }],
      encrypted_content: "enc",
      extra: { z: 1, a: 2 },
    }),
    R.added(1, { type: "message", id: "msg_1", content: [] }),
    R.ev("response.output_text.delta", { output_index: 1, delta: "Hello" }),
    R.ev("response.refusal.delta", { output_index: 1, delta: "no" }),
    R.done(1, { type: "message", id: "msg_1", content: [{ type: "output_text", text: "Hello" }] }),
    R.completed({
      id: "resp_2",
      status: "completed",
      usage: { input_tokens: 50, output_tokens: 9, input_tokens_details: { cached_tokens: 20 } },
    }),
  ],
  "built-in tool items and unknown events are ignored": responsesCall(
    R.added(1, { type: "web_search_call", id: "ws_1", status: "in_progress" }),
    R.ev("response.web_search_call.searching", { output_index: 1 }),
    R.done(1, { type: "web_search_call", id: "ws_1", status: "completed" }),
    R.ev("response.future_event", { output_index: 0, delta: "x" }),
    R.ev("response.content_part.added", { output_index: 0, part: {} }),
  ),
  "function_call_arguments.done replaces the streamed text": [
    R.created(),
    R.added(0, fnItem()),
    R.ev("response.function_call_arguments.delta", { output_index: 0, delta: '{"path":"wrong' }),
    R.ev("response.function_call_arguments.done", { output_index: 0, arguments: '{"path":"right"}' }),
    R.done(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read" }),
    R.completed(),
  ],
  "items with nulls and extras that are accepted": [
    R.created({}),
    R.added(0, { type: "message", content: null }),
    R.ev("response.output_text.delta", { output_index: 0, delta: "a", extra: 1 }),
    R.done(0, { type: "message", content: [{ type: "output_text" }] }),
    R.added(1, { type: "function_call" }),
    R.ev("response.function_call_arguments.delta", { output_index: 1, delta: "{}" }),
    R.done(1, { type: "function_call" }),
    R.added(2, { type: "reasoning", summary: [{ text: "s", extra: 1 }] }),
    R.ev("response.reasoning_summary_part.added", { output_index: 2, summary_index: 0.5 }),
    R.done(2, { type: "reasoning" }),
    R.ev("response.output_text.delta", { output_index: 9, delta: "unmapped" }),
    R.done(9, { type: "message" }),
    R.done(0, { type: "message" }),
    R.completed({ status: "completed", usage: null, incomplete_details: null, error: null }),
  ],
  "an item that does not end before completion": [
    R.created(),
    R.added(0, { type: "message" }),
    R.ev("response.output_text.delta", { output_index: 0, delta: "open" }),
    R.completed(),
  ],
  "incomplete: max_output_tokens": [
    ...responsesCall().slice(0, 3),
    R.ev("response.incomplete", { response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } }),
  ],
  "incomplete: content_filter": [
    R.created(),
    R.ev("response.incomplete", { response: { status: "incomplete", incomplete_details: { reason: "content_filter" } } }),
  ],
  "incomplete: no reason": [R.created(), R.ev("response.incomplete", { response: { status: "incomplete", incomplete_details: null } })],
  "completed with an unexpected status": [R.created(), R.completed({ status: "queued" })],
  "completed without a status": [R.created(), R.completed({ id: "r" })],
  "a refusal": [R.created(), R.ev("response.refusal.delta", { output_index: 0, delta: "I won't" }), R.completed()],
  "response.failed with an error and usage": [
    ...responsesCall().slice(0, 3),
    R.ev("response.failed", {
      response: {
        id: "r",
        status: "failed",
        usage: { input_tokens: 9, output_tokens: 1 },
        error: { code: "server_error", message: "The model failed" },
      },
    }),
  ],
  "response.failed without an error": [R.created(), R.ev("response.failed", { response: { error: null } })],
  "an error event": [...responsesCall().slice(0, 3), R.ev("error", { code: "rate_limit_exceeded", message: "Slow down", param: null })],
  "an error event with nulls": [R.created(), R.ev("error", { code: null, message: null })],
  "a payload with an error field": [
    R.created(),
    ["response.failed", { type: "response.failed", error: { message: "top-level error", type: "server_error" } }],
  ],
  "no response.completed": responsesCall().slice(0, 4),
  "function_call_arguments.done events that are skipped": [
    R.created(),
    R.added(0, fnItem()),
    R.ev("response.function_call_arguments.delta", { output_index: 0, delta: '{"path":"a.txt"}' }),
    R.ev("response.function_call_arguments.done", { output_index: 0 }),
    R.ev("response.function_call_arguments.done", { output_index: 0, arguments: 5 }),
    R.ev("response.function_call_arguments.done", { output_index: "0", arguments: '{"path":"wrong"}' }),
    R.ev("response.function_call_arguments.done", { arguments: '{"path":"wrong"}' }),
    R.done(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "read" }),
    R.completed(),
  ],
  "output_item.done events that are skipped": [
    R.created(),
    R.added(0, fnItem()),
    R.ev("response.function_call_arguments.delta", { output_index: 0, delta: '{"path":' }),
    R.done(0, { type: "function_call", arguments: 5 }),
    R.done(0, null),
    R.done("0", fnItem()),
    R.done(0, { type: "function_call", summary: [{ text: 1 }] }),
    R.ev("response.function_call_arguments.delta", { output_index: 0, delta: '"a.txt"}' }),
    R.done(0, { type: "function_call" }),
    R.completed(),
  ],
  // Skipped whole:
  ...responsesProbes([
    R.created(null),
    R.created({ id: 5 }),
    R.created({ id: null }),
    R.ev("response.in_progress", {}),
    R.ev("response.created", { response: { id: "r1", status: 5 } }),
    R.ev("response.created", { response: { id: "r2", usage: { input_tokens: "1" } } }),
    R.ev("response.created", { response: { id: "r3", usage: { input_tokens_details: [] } } }),
    R.ev("response.created", { response: { id: "r4", incomplete_details: { reason: 5 } } }),
    R.ev("response.created", { response: { id: "r5", error: { code: 5 } } }),
    R.ev("response.created", { response: { id: "r6", error: { message: [] } } }),
    R.ev("response.in_progress", { response: { id: "r7", usage: { output_tokens: {} } } }),
    R.added(1, null),
    R.added(1, {}),
    R.added(1, { type: 5 }),
    R.added("1", fnItem({ id: "fc_2" })),
    R.added(1, fnItem({ id: 5 })),
    R.added(1, fnItem({ id: null })),
    R.added(1, fnItem({ call_id: null })),
    R.added(1, fnItem({ name: 5 })),
    R.added(1, fnItem({ arguments: null })),
    R.added(1, { type: "reasoning", summary: null }),
    R.added(1, { type: "reasoning", summary: {} }),
    R.added(1, { type: "reasoning", summary: [{}] }),
    R.added(1, { type: "reasoning", summary: [{ text: 5 }] }),
    R.added(1, { type: "reasoning", summary: [null] }),
    R.added(1, { type: "message", content: [{ text: "no type" }] }),
    R.added(1, { type: "message", content: [{ type: "output_text", text: null }] }),
    R.added(1, { type: "message", content: {} }),
    R.ev("response.function_call_arguments.delta", { output_index: 0, delta: 5 }),
    R.ev("response.function_call_arguments.delta", { output_index: "0", delta: "x" }),
    R.ev("response.function_call_arguments.delta", { delta: "x" }),
    R.ev("response.output_text.delta", { output_index: 0, delta: null }),
    R.ev("response.reasoning_text.delta", { output_index: 0 }),
    R.ev("response.reasoning_summary_text.delta", { output_index: 0, delta: [] }),
    R.ev("response.reasoning_summary_part.added", { output_index: 0 }),
    R.ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: "1" }),
    R.ev("response.refusal.delta", { output_index: 0 }),
    R.ev("response.refusal.delta", { delta: "no index" }),
    R.ev("response.refusal.delta", { output_index: "any", delta: "no" }),
    R.ev("error", { code: 5, message: "numeric code" }),
    R.ev("error", { code: "c", message: {} }),
    R.ev("response.failed", { response: null }),
    R.ev("response.failed", {}),
    R.ev("response.completed", { response: { status: 5 } }),
    R.ev("response.incomplete", { response: [] }),
    ["response.output_text.delta", '{"type":"response.output_text.delta","output_index":1e999,"delta":"x"}'],
    ["x", "null"],
    ["x", "[]"],
    ["x", "3"],
    ["x", '"text"'],
  ]),
  // Accepted, nulls and extra fields included:
  ...responsesProbes([
    R.created({}),
    R.created({ id: "r1", status: null, usage: null, incomplete_details: null, error: null }),
    R.ev("response.in_progress", { response: { id: "r2", usage: { input_tokens: null, input_tokens_details: null } } }),
    R.added(1, { type: "message", content: null }),
    R.added(1, { type: "reasoning", summary: [], content: [{ type: "reasoning_text" }] }),
    R.added(1.5, { type: "function_call", extra: {} }),
    R.ev("response.output_text.delta", { output_index: 0, delta: "", extra: 1 }),
    R.ev("response.reasoning_summary_part.added", { output_index: 0, summary_index: 2 }),
    R.ev("response.completed", { response: { status: "incomplete", incomplete_details: { reason: null } } }),
    R.ev("response.incomplete", { response: { id: "r3", status: "completed", usage: { output_tokens: 99 } } }),
    R.ev("error", {}),
    R.ev("response.failed", { response: { error: { code: null, message: "m" } } }),
  ]),
  "data that is not JSON": [R.created(), ["response.output_text.delta", "{not json"]],
};

const SUITES: [string, () => Target, Record<string, WireEvent[]>][] = [
  ["Anthropic Messages", () => T.anthropic, ANTHROPIC],
  ["OpenAI Chat Completions", () => T["openai-completions"], COMPLETIONS],
  ["OpenAI Responses", () => T["openai-responses"], RESPONSES],
];

describe.each(SUITES)("%s: what each payload becomes", (_label, target, cases) => {
  it.each(Object.keys(cases))("%s", async (name) => {
    expect(await outputOf(target(), cases[name])).toMatchSnapshot();
  });
});
