/**
 * The handoff matrix: a conversation with tool calls started on each of
 * Anthropic, OpenAI Chat, OpenAI Responses and a Mistral-compatible server
 * continues on every other one and back again. The history is built only
 * from the real adapters' final messages plus synthetic tool results; every
 * request must pass the faux provider's strict validation, and the stored
 * history (ids included) must never change.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  reply,
  startFauxProvider,
  text,
  thinking,
  toolCall,
  type FauxBlock,
  type FauxProvider,
  type FauxRoute,
} from "../../electron/core/faux";
import type { AssistantMessage, Message, ToolCall } from "../../shared/protocol";
import { ALL_ROUTES as ROUTES, context, fakeAwsCredentials, run, targets, toolResult, user, type Target } from "./adapters-fixtures";

let faux: FauxProvider;
let T: Record<FauxRoute, Target>;

beforeAll(async () => {
  fakeAwsCredentials();
  faux = await startFauxProvider();
  T = targets(faux);
});
afterAll(() => faux.close());
beforeEach(() => {
  faux.reset();
});

let counter = 0;
const uniq = () => (++counter).toString(36).padStart(4, "0");

/** Ids as each provider (or a server behind it) really sends them, the awkward ones included. */
function idsFor(route: FauxRoute): [string, string] {
  const n = uniq();
  switch (route) {
    case "anthropic":
      return [`toolu_01A09q90qw90lq917835${n}`, `toolu_01BbCcDdEeFfGgHhIiJj${n}`];
    case "openai-completions":
      // A Kimi-style id behind an OpenAI-compatible gateway, and a 44-character gateway id.
      return [`functions.Bash:${n}`, `portkey-5b0f2c3a-9d1e-4c7b-8a6f-${n}deadbeef`];
    case "openai-responses":
      return [`call_${n}AbCdEfGhIjKlMnOpQrStUv|fc_68b1e2c1f3d48190a8b3c2d1e0f9a8b7${n}`, `call_${n}Zz|fc_${"9".repeat(60)}${n}`];
    case "mistral":
      return [`Ab${n}cde`.slice(0, 9).padEnd(9, "x"), `Zy${n}wvu`.slice(0, 9).padEnd(9, "q")];
    case "gemini":
      // Gemini's ids are optional: one call comes with an id, one without (the adapter gives it one).
      return [`gemini-fc-${n}`, ""];
    case "bedrock":
      return [`tooluse_${n}AbCdEfGhIjKlMnOp`, `tooluse_${n}QrStUvWxYz012345`];
  }
}

/** What a model on `route` says in one turn: thinking where the API carries it, text, two tool calls. */
function turnFor(route: FauxRoute, step: number): FauxBlock[] {
  const [a, b] = idsFor(route);
  const blocks: FauxBlock[] = [];
  if (route !== "mistral") blocks.push(thinking(`Step ${step}: I will read the file, then list the folder.`));
  blocks.push(text(`Step ${step} on ${route}.`));
  blocks.push(toolCall("read", { path: `src/step-${step}.ts` }, a));
  blocks.push(toolCall("bash", { command: `ls src # ${step}` }, b === "" ? undefined : b));
  return blocks;
}

const callsOf = (m: AssistantMessage): ToolCall[] => m.content.filter((b): b is ToolCall => b.type === "toolCall");

interface Conversation {
  history: Message[];
  /** The ids each provider emitted, in order: the history must keep exactly these. */
  emittedIds: string[];
}

/** One turn on `route`: the request must be accepted; the answer and its tool results join the history. */
async function turn(conv: Conversation, route: FauxRoute, step: number, final = false): Promise<AssistantMessage> {
  const before = JSON.stringify(conv.history);
  const requestsBefore = faux.requests.length;
  const blocks = final ? [text(`All done on ${route}.`)] : turnFor(route, step);
  const scriptedIds = blocks.flatMap((b) => (b.type === "toolCall" && b.id !== undefined ? [b.id] : []));
  faux.script(reply(blocks, { chunkSize: 7 }));
  const { final: end, message } = await run(T[route], context(conv.history), { reasoning: "medium" });

  const request = faux.requests[requestsBefore];
  expect(request, `request on ${route} at step ${step}`).toBeDefined();
  expect(request.rejection?.message ?? null, `${route} at step ${step} rejected the request`).toBeNull();
  expect(end.type).toBe("done");
  // The boundary transform works on a copy: the stored history is untouched.
  expect(JSON.stringify(conv.history)).toBe(before);

  // The ids the provider sent are stored exactly as sent (a call sent without one got an id of its own).
  const stored = callsOf(message).map((c) => c.id);
  expect(stored.filter((id) => scriptedIds.includes(id))).toEqual(scriptedIds);
  expect(new Set(stored).size).toBe(stored.length);
  conv.history.push(message);
  for (const call of callsOf(message)) {
    conv.emittedIds.push(call.id);
    conv.history.push(toolResult(call.id, call.name, `output of ${call.name} at step ${step}`));
  }
  return message;
}

function storedIds(history: Message[]): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  for (const m of history) {
    if (m.role === "assistant") calls.push(...callsOf(m).map((c) => c.id));
    if (m.role === "toolResult") results.push(m.toolCallId);
  }
  return { calls, results };
}

describe.each(ROUTES)("a conversation started on %s", (start) => {
  it.each(ROUTES.filter((r) => r !== start))(`continues on %s and comes back`, async (other) => {
    const conv: Conversation = { history: [user("Fix the failing build.")], emittedIds: [] };
    const first = await turn(conv, start, 1);
    await turn(conv, other, 2);
    conv.history.push(user("Back to the first model, please."));
    await turn(conv, start, 3, true);

    expect(faux.requests.every((r) => r.accepted)).toBe(true);
    const { calls, results } = storedIds(conv.history);
    expect(calls).toEqual(conv.emittedIds);
    expect(results).toEqual(conv.emittedIds);
    expect(callsOf(first).map((c) => c.id)).toHaveLength(2);
  });

  it("visits every other API in turn and returns, every request accepted", async () => {
    const conv: Conversation = { history: [user("Refactor the parser.")], emittedIds: [] };
    let step = 1;
    await turn(conv, start, step++);
    for (const other of ROUTES.filter((r) => r !== start)) {
      await turn(conv, other, step++);
      // Every other switch comes with a user message, so tool → user orderings are exercised too.
      if (step % 2 === 0) conv.history.push(user(`Now continue (step ${step}).`));
    }
    await turn(conv, start, step++);
    await turn(conv, start, step, true);

    expect(faux.requests).toHaveLength(ROUTES.length + 2);
    expect(faux.requests.filter((r) => !r.accepted).map((r) => `${r.route}: ${r.rejection?.message}`)).toEqual([]);
    const { calls, results } = storedIds(conv.history);
    expect(calls).toEqual(conv.emittedIds);
    expect(results).toEqual(conv.emittedIds);
  });
});

describe("what the model sees after a handoff", () => {
  it("Anthropic gets its own signed thinking back byte for byte after visiting the other APIs", async () => {
    const conv: Conversation = { history: [user("Start.")], emittedIds: [] };
    const own = await turn(conv, "anthropic", 1);
    await turn(conv, "openai-responses", 2);
    await turn(conv, "mistral", 3);
    await turn(conv, "anthropic", 4, true);
    const signed = own.content.find((b) => b.type === "thinking");
    expect(signed?.type === "thinking" && signed.signature).toBeTruthy();
    const last = faux.requests[faux.requests.length - 1];
    expect(JSON.stringify(last.body)).toContain(JSON.stringify(signed?.type === "thinking" ? signed.signature : "missing"));
  });

  it("Mistral sees 9-character ids for calls that came from other providers, while storage keeps the originals", async () => {
    const conv: Conversation = { history: [user("Start.")], emittedIds: [] };
    await turn(conv, "openai-responses", 1);
    await turn(conv, "mistral", 2, true);
    const body = faux.requests[1].body as { messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }> };
    const wireIds = body.messages.flatMap((m) => [...(m.tool_calls ?? []).map((c) => c.id), ...(m.tool_call_id ? [m.tool_call_id] : [])]);
    expect(wireIds.length).toBeGreaterThan(0);
    expect(wireIds.every((id) => /^[a-zA-Z0-9]{9}$/.test(id))).toBe(true);
    expect(storedIds(conv.history).calls.every((id) => id.includes("|"))).toBe(true);
  });
});
