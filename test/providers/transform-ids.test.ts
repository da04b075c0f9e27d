import { describe, expect, it } from "vitest";
import { prepareRequest } from "../../electron/core/providers/requests/common";
import { IdAllocator, isValidWireId } from "../../electron/core/providers/transform/ids";
import type { WireMessage } from "../../electron/core/providers/transform/wire-types";
import type { Message } from "../../shared/protocol";
import { assistant, call, CLAUDE, GPT5, KIMI, result, target, TOOLS, user, type Target } from "./transform-fixtures";

const ANTHROPIC = target("anthropic/claude-sonnet-4-5");
const CHAT = target("openai/gpt-4.1", "openai-completions");
const RESPONSES = target("openai/gpt-5");
const MISTRAL = target("mistral/mistral-large-latest");

function prepare(t: Target, messages: Message[]) {
  return prepareRequest(t.model, t.provider, { systemPrompt: "", messages, tools: TOOLS });
}

/** [call ids in order, result ids in order] as sent. */
function wireIds(messages: readonly WireMessage[]): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  for (const m of messages) {
    if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall") calls.push(b.id);
    if (m.role === "toolResults") for (const r of m.results) results.push(r.id);
  }
  return { calls, results };
}

function history(ids: string[], from = KIMI): Message[] {
  return [
    user("go"),
    assistant(
      from,
      ids.map((id) => call(id)),
    ),
    ...ids.map((id) => result(id, `out ${id}`)),
  ];
}

describe("tool-call ids are rewritten in pairs to each target's rules", () => {
  const awkward = ["functions.Bash:0", "call_abc|fc_0123456789", "a.b/c:d", "", "x".repeat(450), "|||", "::"];

  it("rewrites Kimi, Responses, MCP and empty ids to Anthropic's pattern, keeping each call paired with its result", () => {
    const { messages, idMap } = prepare(ANTHROPIC, history(awkward));
    const { calls, results } = wireIds(messages);
    expect(calls).toEqual(results);
    for (const id of calls) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(calls).size).toBe(awkward.length);
    expect(calls.map((id) => idMap.get(id))).toEqual(awkward);
  });

  it("caps Chat Completions ids at 40 characters and keeps 44- and 83-character ids distinct", () => {
    const long = ["portkey-" + "a".repeat(36), "call_" + "b".repeat(78), "call_" + "b".repeat(77) + "c"];
    const { messages, idMap } = prepare(CHAT, history(long));
    const { calls, results } = wireIds(messages);
    expect(calls).toEqual(results);
    for (const id of calls) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(new Set(calls).size).toBe(3);
    expect(calls.map((id) => idMap.get(id))).toEqual(long);
  });

  it("caps Responses call_ids at 64 characters", () => {
    const { messages } = prepare(RESPONSES, history(["call_" + "z".repeat(900)]));
    const [id] = wireIds(messages).calls;
    expect(id.length).toBeLessThanOrEqual(64);
    expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
  });

  it("gives 20 toolu_01… calls 20 distinct Mistral ids of exactly 9 alphanumerics, by hashing not cutting", () => {
    const ids = Array.from({ length: 20 }, (_, i) => `toolu_01${String(i).padStart(2, "0")}${"Q".repeat(20)}`);
    const { messages, idMap } = prepare(MISTRAL, history(ids, CLAUDE));
    const { calls, results } = wireIds(messages);
    expect(calls).toEqual(results);
    for (const id of calls) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(new Set(calls).size).toBe(20);
    // Cutting would have kept "toolu01" + 2 characters; a hash does not share the prefix.
    expect(calls.filter((id) => id.startsWith("toolu01")).length).toBeLessThan(3);
    expect(calls.map((id) => idMap.get(id))).toEqual(ids);
  });

  it("passes ids already valid for the target through unchanged", () => {
    const valid = ["toolu_01A09q90qw90lq917835lq9", "call_abc123"];
    const { messages } = prepare(ANTHROPIC, history(valid));
    expect(wireIds(messages).calls).toEqual(valid);
    const mistral = prepare(MISTRAL, history(["abcDEF123"]));
    expect(wireIds(mistral.messages).calls).toEqual(["abcDEF123"]);
  });

  it("is deterministic: the same history gives the same wire ids on every request", () => {
    const first = wireIds(prepare(MISTRAL, history(awkward)).messages).calls;
    const second = wireIds(prepare(MISTRAL, history(awkward)).messages).calls;
    expect(second).toEqual(first);
  });

  it("pairs duplicate stored ids in different turns each with its own result", () => {
    const messages: Message[] = [
      user("one"),
      assistant(KIMI, [call("functions.read:0")]),
      result("functions.read:0", "first output"),
      user("two"),
      assistant(KIMI, [call("functions.read:0")]),
      result("functions.read:0", "second output"),
    ];
    const prepared = prepare(ANTHROPIC, messages);
    const { calls, results } = wireIds(prepared.messages);
    expect(calls).toHaveLength(2);
    expect(calls[0]).not.toBe(calls[1]);
    expect(results).toEqual(calls);
    const outputs = prepared.messages.flatMap((m) => (m.role === "toolResults" ? m.results.map((r) => r.content) : []));
    expect(outputs).toEqual([[{ type: "text", text: "first output" }], [{ type: "text", text: "second output" }]]);
    expect(calls.map((id) => prepared.idMap.get(id))).toEqual(["functions.read:0", "functions.read:0"]);
  });

  it("never lets a rewritten id collide with a later id that was valid as stored", () => {
    const ids = ["a|b", "a_b"]; // "a|b" cleans to "a_b"
    const { calls } = wireIds(prepare(ANTHROPIC, history(ids)).messages);
    expect(new Set(calls).size).toBe(2);
  });

  it("keeps ids such as __proto__ and constructor as plain map keys", () => {
    const prepared = prepare(ANTHROPIC, history(["__proto__", "constructor"]));
    expect(prepared.idMap.get("__proto__")).toBe("__proto__");
    expect(prepared.idMap.get("constructor")).toBe("constructor");
    expect(prepared.idMap.get("toString")).toBeUndefined();
    // As the review view sends it: own keys, no prototype games.
    const sent = Object.fromEntries(prepared.idMap) as Record<string, unknown>;
    expect(Object.keys(sent)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
  });

  it("replays a Responses call to the model that made it with its call_id and fc_ item id", () => {
    const stored = "call_Abc123|fc_68a5f2e1c0d48190b1";
    const prepared = prepare(RESPONSES, history([stored], GPT5));
    const block = prepared.messages.flatMap((m) => (m.role === "assistant" ? m.content : []))[0];
    expect(block).toMatchObject({ type: "toolCall", id: "call_Abc123", itemId: "fc_68a5f2e1c0d48190b1" });
    expect(prepared.idMap.get("call_Abc123")).toBe(stored);
  });

  it("sends a Responses call to another model without its item id", () => {
    const prepared = prepare(RESPONSES, history(["call_Abc123|fc_68a5f2e1c0d48190b1"], CLAUDE));
    const block = prepared.messages.flatMap((m) => (m.role === "assistant" ? m.content : []))[0];
    expect(block).not.toHaveProperty("itemId");
  });
});

describe("IdAllocator", () => {
  it("derives a fresh valid id when a valid id is already taken in the request", () => {
    const ids = new IdAllocator("mistral9");
    const a = ids.allocate("abcDEF123");
    const b = ids.allocate("abcDEF123");
    expect(a).toBe("abcDEF123");
    expect(isValidWireId(b, "mistral9")).toBe(true);
    expect(b).not.toBe(a);
    expect(ids.idMap.get(b)).toBe("abcDEF123");
  });
});
