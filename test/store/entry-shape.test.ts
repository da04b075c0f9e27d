/**
 * The append path's structural check accepts exactly what the protocol's zod
 * schema accepts: on generated entries of every type, on the same entries with
 * one value broken or one key removed anywhere inside, and on arbitrary values.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SessionEntrySchema } from "../../shared/protocol";
import { isSessionEntryShape } from "../../electron/core/store/entry-shape";
import { SessionStore } from "../../electron/core/store";

const str = fc.string({ maxLength: 8 });
const num = fc.double({ noNaN: true, noDefaultInfinity: true });
const count = fc.nat();
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const api = fc.constantFrom("anthropic-messages", "openai-completions", "openai-responses");
const modelRef = fc.record({ provider: str, api, id: str });
const usage = fc.record({
  input: count,
  output: count,
  cacheRead: count,
  cacheWrite: count,
  totalTokens: count,
  cost: fc.record({ input: num, output: num, cacheRead: num, cacheWrite: num, total: num }),
});
const text = fc.record({ type: fc.constant("text"), text: str });
const image = fc.record({ type: fc.constant("image"), data: str, mimeType: str });
const thinking = fc.record(
  { type: fc.constant("thinking"), thinking: str, signature: opt(str), redacted: opt(fc.boolean()) },
  { requiredKeys: ["type", "thinking"] },
);
const toolCall = fc.record(
  {
    type: fc.constant("toolCall"),
    id: str,
    name: str,
    arguments: fc.dictionary(str, fc.jsonValue()),
    rawArguments: opt(str),
    argumentsError: opt(str),
  },
  { requiredKeys: ["type", "id", "name", "arguments"] },
);
const userContent = fc.array(fc.oneof(text, image), { maxLength: 3 });
const timestamp = num;

const message = fc.oneof(
  fc.record({ role: fc.constant("user"), content: userContent, timestamp }),
  fc.record(
    {
      role: fc.constant("assistant"),
      content: fc.array(fc.oneof(text, thinking, toolCall), { maxLength: 3 }),
      stopReason: fc.constantFrom("stop", "toolUse", "length", "error", "aborted"),
      model: modelRef,
      usage,
      errorMessage: opt(str),
      responseId: opt(str),
      limit: opt(fc.record({ kind: fc.constantFrom("cost", "roundTrips", "wallTime", "toolBudget"), detail: str })),
      timestamp,
    },
    { requiredKeys: ["role", "content", "stopReason", "model", "usage", "timestamp"] },
  ),
  fc.record(
    {
      role: fc.constant("toolResult"),
      toolCallId: str,
      toolName: str,
      isError: fc.boolean(),
      content: userContent,
      details: opt(fc.jsonValue()),
      timestamp,
    },
    { requiredKeys: ["role", "toolCallId", "toolName", "isError", "content", "timestamp"] },
  ),
);

const entry = fc.oneof(
  fc.record({ type: fc.constant("message"), message }),
  fc.record({ type: fc.constant("modelSwitch"), from: fc.option(modelRef, { nil: null }), to: modelRef, timestamp }),
  fc.record(
    {
      type: fc.constant("approval"),
      toolCallId: str,
      toolName: str,
      decision: fc.constantFrom("approved", "approvedForSession", "denied", "autoApproved", "autoDenied"),
      reason: opt(str),
      decidedBy: str,
      timestamp,
    },
    { requiredKeys: ["type", "toolCallId", "toolName", "decision", "decidedBy", "timestamp"] },
  ),
  fc.record(
    {
      type: fc.constant("compaction"),
      summary: str,
      firstKeptSeq: fc.integer(),
      tokensBefore: count,
      model: modelRef,
      timestamp,
      step: opt(fc.constantFrom("prune", "summary")),
      prunedBeforeSeq: opt(fc.integer()),
      pruned: opt(count),
      tokensAfter: opt(count),
      trigger: opt(fc.constantFrom("threshold", "overflow", "manual")),
      userRequest: opt(str),
      carried: opt(str),
      usage: opt(usage),
    },
    { requiredKeys: ["type", "summary", "firstKeptSeq", "tokensBefore", "model", "timestamp"] },
  ),
  fc.record({ type: fc.constant("rename"), title: str, timestamp }),
  fc.record({
    type: fc.constant("reasoningChange"),
    from: fc.constantFrom("default", "off", "low", "medium", "high"),
    to: fc.constantFrom("default", "off", "low", "medium", "high"),
    timestamp,
  }),
  fc.record({ type: fc.constant("fork"), sourceSessionId: str, sourceSeq: fc.integer(), timestamp }),
  fc.record({
    type: fc.constant("planEdit"),
    items: fc.array(fc.record({ text: str, status: fc.constantFrom("pending", "in_progress", "done") }), { maxLength: 3 }),
    timestamp,
  }),
);

/** Values that break some rule somewhere (or happen to satisfy it: both answers must agree either way). */
const breaker = fc.oneof(
  fc.constantFrom<unknown>(NaN, Infinity, -Infinity, -1, 1.5, 2 ** 53, null, undefined, "", "x", true, 0, [], {}, [1], { type: "text" }),
  fc.constantFrom<unknown>(
    "user",
    "assistant",
    "toolResult",
    "text",
    "image",
    "thinking",
    "toolCall",
    "message",
    "stop",
    "anthropic-messages",
    "approved",
    "in_progress",
    "planEdit",
  ),
  fc.constant(new Date(0)),
  fc.constant(Object.create(null) as unknown),
  fc.jsonValue(),
);

type Path = Array<string | number>;

function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      const path = [...prefix, Array.isArray(value) ? Number(key) : key];
      out.push(path);
      paths((value as Record<string, unknown>)[key], path, out);
    }
  }
  return out;
}

function broken(value: unknown, path: Path, replacement: unknown, remove: boolean): unknown {
  const copy = structuredClone(value);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove && !Array.isArray(node)) delete node[last];
  else node[last] = replacement;
  return copy;
}

function agrees(value: unknown): void {
  expect(isSessionEntryShape(value)).toBe(SessionEntrySchema.safeParse(value).success);
}

describe("the append path's entry check", () => {
  it("accepts every generated valid entry, as the schema does", () => {
    fc.assert(
      fc.property(entry, (e) => {
        expect(SessionEntrySchema.safeParse(e).success).toBe(true);
        expect(isSessionEntryShape(e)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with the schema when one value anywhere inside is replaced or removed", () => {
    fc.assert(
      fc.property(entry, fc.nat(), breaker, fc.boolean(), (e, pick, replacement, remove) => {
        const all = paths(e);
        if (all.length === 0) return;
        agrees(broken(e, all[pick % all.length], replacement, remove));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees with the schema on arbitrary values and on unknown extra keys", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => agrees(value)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(entry, str, fc.jsonValue(), (e, key, value) => {
        agrees({ ...e, [`extra_${key}`]: value });
      }),
      { numRuns: 300 },
    );
  });

  it("agrees on which objects count as tool-call arguments (plain objects only)", () => {
    class Args {
      path = "a.txt";
    }
    const candidates: unknown[] = [
      { path: "a.txt" },
      Object.create(null),
      new Args(),
      new Date(0),
      new Map(),
      [],
      null,
      "x",
      { constructor: 1 },
    ];
    for (const args of candidates) {
      agrees({
        type: "message",
        message: {
          role: "assistant",
          content: [{ type: "toolCall", id: "t", name: "read", arguments: args }],
          stopReason: "toolUse",
          model: { provider: "p", api: "anthropic-messages", id: "m" },
          usage: {
            input: 0,
            output: 0,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 0,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          timestamp: 1,
        },
      });
    }
  });

  it("an append the check refuses fails with the schema's wording and stores nothing", () => {
    const store = SessionStore.open(":memory:");
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    const bad = { type: "message", message: { role: "user", content: [{ type: "text", text: "hi" }], timestamp: Number.NaN } };
    expect(() => store.appendEntry(s.id, bad as never)).toThrow(
      expect.objectContaining({
        code: "INVALID_ENTRY",
        message: expect.stringContaining("message.timestamp: Invalid input: expected number, received NaN"),
      }),
    );
    expect(store.loadEntries(s.id)).toEqual([]);
    store.close();
  });
});
