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
import type { ToolSpec } from "../../electron/core/providers/types";
import { findModel, findProvider } from "../../electron/core/providers/registry";
import { ALL_ROUTES as ROUTES, TOOLS, context, fakeAwsCredentials, run, targets, toolResult, user, type Target } from "./adapters-fixtures";

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

/** A registry model pointed at the faux provider (its compat from the registry: family, flags). */
function registryTarget(ref: string, route: FauxRoute): Target {
  const model = findModel(ref);
  const provider = model && findProvider(model.provider);
  if (!model || !provider) throw new Error(`registry lacks ${ref}`);
  const baseUrl = route === "gemini" ? faux.baseUrls.gemini : route === "bedrock" ? faux.baseUrls.bedrock : faux.baseUrls.anthropic;
  return { route, label: ref, model, provider: { ...provider, baseUrl } };
}

/** An MCP server's tool whose schema uses string formats Gemini refuses ("uri", "email"). */
const MCP_FETCH: ToolSpec = {
  name: "mcp__web__fetch",
  description: "Fetch a URL (MCP).",
  parameters: {
    type: "object",
    properties: { url: { type: "string", format: "uri" }, contact: { type: "string", format: "email" } },
    required: ["url"],
  },
};

interface Step {
  target: Target;
  blocks: FauxBlock[];
  reasoning?: "off" | "medium" | "high";
  tools?: ToolSpec[];
}

/** Runs the steps in order on one history, each call answered; returns every request the faux provider judged. */
async function converse(steps: Step[]): Promise<{ history: Message[]; paths: string[] }> {
  const history: Message[] = [user("Fix the failing build.")];
  for (const [i, step] of steps.entries()) {
    faux.script(reply(step.blocks, { chunkSize: 7 }));
    const { final, message } = await run(
      step.target,
      context(history, step.tools ?? TOOLS),
      step.reasoning ? { reasoning: step.reasoning } : {},
    );
    const request = faux.requests[faux.requests.length - 1];
    expect(request.rejection?.message ?? null, `step ${i + 1} on ${step.target.label}`).toBeNull();
    expect(final.type, `step ${i + 1} on ${step.target.label}: ${final.message.errorMessage ?? ""}`).toBe("done");
    history.push(message);
    for (const call of callsOf(message)) history.push(toolResult(call.id, call.name, `output of ${call.name} at step ${i + 1}`));
  }
  return { history, paths: faux.requests.map((r) => r.path) };
}

const calls = (id1: string, id2: string): FauxBlock[] => [
  text("Reading, then listing."),
  toolCall("read", { path: "src/a.ts" }, id1),
  toolCall("bash", { command: "ls src" }, id2),
];

describe("the handoff matrix with today's models and quirks", () => {
  it("Gemini 3 Flash continues a tool loop Anthropic started (placeholder signatures by family) and hands back", async () => {
    const flash = registryTarget("google/gemini-3-flash-preview", "gemini");
    await converse([
      {
        target: T.anthropic,
        blocks: [thinking("Plan."), ...calls(`toolu_01Flash${uniq()}`, `toolu_02Flash${uniq()}`)],
        reasoning: "medium",
      },
      { target: flash, blocks: [thinking("Next."), ...calls(`fc-flash-${uniq()}`, "")], reasoning: "medium" },
      { target: T.anthropic, blocks: [text("Done.")], reasoning: "medium" },
    ]);
    expect(faux.requests.every((r) => r.accepted)).toBe(true);
  });

  it("Bedrock Claude with thinking switched on mid-turn, and after another model's tool loop, is accepted", async () => {
    const claude = registryTarget("bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", "bedrock");
    await converse([
      // Its own tool loop opened with reasoning off …
      { target: claude, blocks: calls(`tooluse_a${uniq()}`, `tooluse_b${uniq()}`), reasoning: "off" },
      // … continued with reasoning on; then another model's loop continued by it with reasoning on.
      { target: claude, blocks: [thinking("Now I think."), ...calls(`tooluse_c${uniq()}`, `tooluse_d${uniq()}`)], reasoning: "high" },
      {
        target: T["openai-responses"],
        blocks: calls(`call_${uniq()}x|fc_${uniq()}y`, `call_${uniq()}z|fc_${uniq()}w`),
        reasoning: "medium",
      },
      { target: claude, blocks: [text("All done.")], reasoning: "high" },
    ]);
    expect(faux.requests.map((r) => r.route)).toEqual(["bedrock", "bedrock", "openai-responses", "bedrock"]);
  });

  it.each(["bedrock/us.meta.llama3-3-70b-instruct-v1:0", "bedrock/mistral.mistral-large-2407-v1:0"])(
    "%s takes a tool loop over through Converse (no streaming tool use) and hands it back",
    async (ref) => {
      const target = registryTarget(ref, "bedrock");
      // Mistral on Bedrock sends (and wants) 9-alphanumeric ids.
      const ids = ref.includes("mistral") ? ["Ab3dE6gH9", "Zy8wV5uT2"] : [`tooluse_${uniq()}Q`, `tooluse_${uniq()}R`];
      const { paths } = await converse([
        { target: T.anthropic, blocks: calls(`toolu_01Hand${uniq()}`, `toolu_02Hand${uniq()}`) },
        { target, blocks: calls(ids[0], ids[1]) },
        { target: T.anthropic, blocks: [text("Done.")] },
      ]);
      expect(paths[1]).toMatch(/\/converse$/);
    },
  );

  it("Gemini takes a conversation whose MCP tool's schema uses string formats, and hands back", async () => {
    const gemini = registryTarget("google/gemini-2.5-flash", "gemini");
    const tools = [...TOOLS, MCP_FETCH];
    await converse([
      { target: T.anthropic, blocks: [toolCall("mcp__web__fetch", { url: "https://example.com" }, `toolu_01Mcp${uniq()}`)], tools },
      { target: gemini, blocks: [toolCall("mcp__web__fetch", { url: "https://example.org" }, `fc-mcp-${uniq()}`)], tools },
      { target: T.anthropic, blocks: [text("Fetched both.")], tools },
    ]);
    expect(JSON.stringify(faux.requests[1].body)).not.toContain('"format":"uri"');
  });
});
