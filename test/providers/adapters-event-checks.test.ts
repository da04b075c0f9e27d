/**
 * The adapters check each SSE payload by hand (a schema library per event
 * cost too much). These checks must accept exactly what the zod schemas they
 * replaced accepted: the schemas are kept here, verbatim, as the reference,
 * and both judge the same generated payloads, valid ones with one to three
 * random mutations (a field removed, or replaced by null, a number, Infinity,
 * a string, an array, an object, another event type…) and random JSON.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isAnthropicBlock, isAnthropicDelta, isAnthropicEvent } from "../../electron/core/providers/adapters/anthropic-events";
import { isCompletionsChunk } from "../../electron/core/providers/adapters/openai-completions-chunks";
import { isResponsesEvent } from "../../electron/core/providers/adapters/openai-responses-events";

// ---------------------------------------------------------------- the reference: the zod schemas the adapters used

const AnthropicUsageShape = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
});

const AnthropicBlockShape = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string().optional() }),
  z.looseObject({ type: z.literal("thinking"), thinking: z.string().optional(), signature: z.string().optional() }),
  z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() }),
  z.looseObject({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown().optional() }),
]);

const AnthropicDeltaShape = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text_delta"), text: z.string() }),
  z.looseObject({ type: z.literal("thinking_delta"), thinking: z.string() }),
  z.looseObject({ type: z.literal("signature_delta"), signature: z.string() }),
  z.looseObject({ type: z.literal("input_json_delta"), partial_json: z.string() }),
]);

const AnthropicEventShape = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("message_start"),
    message: z.looseObject({ id: z.string().optional(), usage: AnthropicUsageShape.optional() }),
  }),
  z.looseObject({ type: z.literal("content_block_start"), index: z.number(), content_block: z.looseObject({ type: z.string() }) }),
  z.looseObject({ type: z.literal("content_block_delta"), index: z.number(), delta: z.looseObject({ type: z.string() }) }),
  z.looseObject({ type: z.literal("content_block_stop"), index: z.number() }),
  z.looseObject({
    type: z.literal("message_delta"),
    delta: z.looseObject({
      stop_reason: z.string().nullish(),
      stop_details: z
        .looseObject({ type: z.string().optional(), category: z.string().nullish(), explanation: z.string().nullish() })
        .nullish(),
    }),
    usage: AnthropicUsageShape.nullish(),
  }),
  z.looseObject({ type: z.literal("message_stop") }),
  z.looseObject({ type: z.literal("ping") }),
]);

const ToolCallDeltaShape = z.looseObject({
  index: z.number().optional(),
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

const ChunkShape = z.looseObject({
  id: z.string().optional(),
  choices: z
    .array(
      z.looseObject({
        delta: z
          .looseObject({
            content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).nullish(),
            refusal: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z.array(ToolCallDeltaShape).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .optional(),
  usage: z
    .looseObject({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      total_tokens: z.number().nullish(),
      prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
      completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
      prompt_cache_hit_tokens: z.number().nullish(),
    })
    .nullish(),
});

const ItemShape = z.looseObject({
  type: z.string(),
  id: z.string().optional(),
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  summary: z.array(z.looseObject({ text: z.string() })).optional(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).nullish(),
});

const ResponsesUsageShape = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});

const ResponseShape = z.looseObject({
  id: z.string().optional(),
  status: z.string().nullish(),
  usage: ResponsesUsageShape.nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

const ResponsesEventShape = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("response.created"), response: ResponseShape }),
  z.looseObject({ type: z.literal("response.in_progress"), response: ResponseShape }),
  z.looseObject({ type: z.literal("response.output_item.added"), output_index: z.number(), item: ItemShape }),
  z.looseObject({ type: z.literal("response.output_item.done"), output_index: z.number(), item: ItemShape }),
  z.looseObject({ type: z.literal("response.reasoning_summary_part.added"), output_index: z.number(), summary_index: z.number() }),
  z.looseObject({ type: z.literal("response.reasoning_summary_text.delta"), output_index: z.number(), delta: z.string() }),
  z.looseObject({ type: z.literal("response.reasoning_text.delta"), output_index: z.number(), delta: z.string() }),
  z.looseObject({ type: z.literal("response.output_text.delta"), output_index: z.number(), delta: z.string() }),
  z.looseObject({ type: z.literal("response.refusal.delta"), output_index: z.number(), delta: z.string() }),
  z.looseObject({ type: z.literal("response.function_call_arguments.delta"), output_index: z.number(), delta: z.string() }),
  z.looseObject({ type: z.literal("response.function_call_arguments.done"), output_index: z.number(), arguments: z.string() }),
  z.looseObject({ type: z.literal("response.completed"), response: ResponseShape }),
  z.looseObject({ type: z.literal("response.incomplete"), response: ResponseShape }),
  z.looseObject({ type: z.literal("response.failed"), response: ResponseShape }),
  z.looseObject({ type: z.literal("error"), code: z.string().nullish(), message: z.string().nullish() }),
]);

// ---------------------------------------------------------------- valid payloads, every optional field present

const anthropicUsage = { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 2, cache_creation_input_tokens: 3 };
const ANTHROPIC_BLOCKS = [
  { type: "text", text: "hi" },
  { type: "thinking", thinking: "hmm", signature: "sig" },
  { type: "redacted_thinking", data: "opaque" },
  { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a" } },
];
const ANTHROPIC_DELTAS = [
  { type: "text_delta", text: "a" },
  { type: "thinking_delta", thinking: "b" },
  { type: "signature_delta", signature: "c" },
  { type: "input_json_delta", partial_json: '{"p' },
];
const ANTHROPIC_EVENTS = [
  { type: "message_start", message: { id: "msg_1", type: "message", usage: anthropicUsage } },
  ...ANTHROPIC_BLOCKS.map((content_block) => ({ type: "content_block_start", index: 0, content_block })),
  ...ANTHROPIC_DELTAS.map((delta) => ({ type: "content_block_delta", index: 1, delta })),
  { type: "content_block_stop", index: 2 },
  { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: anthropicUsage },
  { type: "message_delta", delta: { stop_reason: "refusal", stop_details: { type: "refusal", category: "cyber", explanation: "x" } } },
  { type: "message_stop" },
  { type: "ping" },
];

const COMPLETIONS_CHUNKS = [
  {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    choices: [
      {
        index: 0,
        delta: {
          content: "a",
          refusal: "b",
          reasoning_content: "c",
          reasoning: "d",
          tool_calls: [
            { index: 0, id: "call_1", type: "function", function: { name: "read", arguments: "{" } },
            { index: 1, id: "call_2", function: { name: "bash", arguments: "}" } },
          ],
        },
        finish_reason: "stop",
      },
      { index: 1, delta: { content: "e" }, finish_reason: "length" },
      {
        index: 2,
        delta: {
          content: [
            { type: "thinking", thinking: [{ type: "text", text: "f" }] },
            { type: "text", text: "g" },
          ],
        },
      },
    ],
    usage: {
      prompt_tokens: 10,
      completion_tokens: 2,
      total_tokens: 14,
      prompt_tokens_details: { cached_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: 2 },
      prompt_cache_hit_tokens: 4,
    },
  },
];

const item = {
  type: "reasoning",
  id: "rs_1",
  call_id: "call_1",
  name: "read",
  arguments: "{}",
  summary: [{ type: "summary_text", text: "a" }, { text: "b" }],
  content: [{ type: "output_text", text: "c" }, { type: "refusal" }],
};
const response = {
  id: "resp_1",
  status: "completed",
  usage: { input_tokens: 5, output_tokens: 6, input_tokens_details: { cached_tokens: 1 }, output_tokens_details: { reasoning_tokens: 2 } },
  incomplete_details: { reason: "max_output_tokens" },
  error: { code: "server_error", message: "m" },
};
const RESPONSES_EVENTS = [
  ...["response.created", "response.in_progress", "response.completed", "response.incomplete", "response.failed"].map((type) => ({
    type,
    response,
  })),
  ...["response.output_item.added", "response.output_item.done"].map((type) => ({ type, output_index: 0, item })),
  { type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 1 },
  ...[
    "response.reasoning_summary_text.delta",
    "response.reasoning_text.delta",
    "response.output_text.delta",
    "response.refusal.delta",
    "response.function_call_arguments.delta",
  ].map((type) => ({ type, output_index: 0, delta: "x" })),
  { type: "response.function_call_arguments.done", output_index: 0, arguments: "{}" },
  { type: "error", code: "rate_limit_exceeded", message: "slow down" },
];

// ---------------------------------------------------------------- mutations

const REMOVE = Symbol("remove");
const TYPES = [...new Set([...ANTHROPIC_EVENTS, ...ANTHROPIC_BLOCKS, ...ANTHROPIC_DELTAS, ...RESPONSES_EVENTS].map((e) => e.type))];
const REPLACEMENTS: unknown[] = [
  REMOVE,
  null,
  0,
  -1,
  2.5,
  Infinity,
  -Infinity,
  "",
  "x",
  true,
  false,
  [],
  [null],
  [{}],
  {},
  { type: "text" },
  ...TYPES,
];

type Path = (string | number)[];

function pathsOf(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...at, i])));
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...at, k]));
  return out;
}

/** Replaces (or removes) the value at the `pick`-th path of `value`, in place; a root replacement is returned. */
function mutate(value: unknown, pick: number, replacement: unknown): unknown {
  const paths = pathsOf(value);
  const path = paths[pick % paths.length];
  const fresh = replacement === REMOVE ? REMOVE : structuredClone(replacement);
  if (path.length === 0) return fresh === REMOVE ? value : fresh;
  let parent = value as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (fresh !== REMOVE) parent[last] = fresh;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return value;
}

function payloads(templates: readonly unknown[]): fc.Arbitrary<unknown> {
  const mutated = fc
    .record({
      template: fc.constantFrom(...templates),
      mutations: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...REPLACEMENTS)), { minLength: 0, maxLength: 3 }),
    })
    .map(({ template, mutations }) =>
      mutations.reduce((v, [pick, replacement]) => mutate(v, pick, replacement), structuredClone(template)),
    );
  return fc.oneof({ arbitrary: mutated, weight: 9 }, { arbitrary: fc.jsonValue(), weight: 1 });
}

/** Both judges agree on every payload, and the payloads include plenty of each verdict. */
function agrees(check: (raw: unknown) => boolean, reference: z.ZodType, templates: readonly unknown[]): void {
  const verdicts = { accepted: 0, rejected: 0 };
  fc.assert(
    fc.property(payloads(templates), (raw) => {
      const expected = reference.safeParse(raw).success;
      expect(check(raw), JSON.stringify(raw)).toBe(expected);
      verdicts[expected ? "accepted" : "rejected"]++;
    }),
    { numRuns: 3000 },
  );
  expect(verdicts.accepted).toBeGreaterThan(300);
  expect(verdicts.rejected).toBeGreaterThan(300);
  for (const template of templates) expect(check(template)).toBe(true);
}

describe("hand-written payload checks accept exactly what the zod schemas accepted", () => {
  it("Anthropic events", () => agrees(isAnthropicEvent, AnthropicEventShape, ANTHROPIC_EVENTS));
  it("Anthropic content blocks", () => agrees(isAnthropicBlock, AnthropicBlockShape, ANTHROPIC_BLOCKS));
  it("Anthropic deltas", () => agrees(isAnthropicDelta, AnthropicDeltaShape, ANTHROPIC_DELTAS));
  it("Chat Completions chunks", () => agrees(isCompletionsChunk, ChunkShape, COMPLETIONS_CHUNKS));
  it("Responses events", () => agrees(isResponsesEvent, ResponsesEventShape, RESPONSES_EVENTS));

  it("reject what JSON.parse makes of overflowing numbers, as z.number() did", () => {
    const raw: unknown = JSON.parse('{"type":"content_block_stop","index":1e999}');
    expect(AnthropicEventShape.safeParse(raw).success).toBe(false);
    expect(isAnthropicEvent(raw)).toBe(false);
  });
});
