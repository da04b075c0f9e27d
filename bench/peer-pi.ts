/**
 * Side by side with a peer (`npm run bench:peer`): the same generated session
 * of 10,000 messages (3,000+ tool calls) opened and loaded in our store and
 * with pi-mono's own session loader (`SessionManager.open` and
 * `buildSessionContext`), then transformed for Anthropic with ours
 * (`prepareRequest`) and with pi's `transformMessages`. Interleaved, 3 rounds;
 * ratios ours/pi per round. A script, not a test: prints figures and ends with
 * one line `RESULT {json}`.
 *
 * pi-mono's code runs from a checkout given by PI_MONO_GIT (a folder holding
 * packages/ai and packages/coding-agent; e.g. the `fetch`ed snapshot checked
 * out outside this repo); nothing of it is copied here. Without it the bench
 * says so and stops.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { findModel, findProvider } from "../electron/core/providers/registry";
import { prepareRequest } from "../electron/core/providers/requests/common";
import { SessionStore } from "../electron/core/store";
import { emptyUsage, type Message } from "../shared/protocol";

const MESSAGES = 10_000;
/** Collects garbage before each timed phase when run with --expose-gc (the npm script does), so one side's leftovers do not land on the other. */
const settle = (): void => (globalThis as { gc?: () => void }).gc?.();
const ROUNDS = 3;

const root = process.env.PI_MONO_GIT;
const sessionManagerPath = root && join(root, "packages/coding-agent/src/core/session-manager.ts");
const transformPath = root && join(root, "packages/ai/src/providers/transform-messages.ts");
if (!root || !sessionManagerPath || !transformPath || !existsSync(sessionManagerPath) || !existsSync(transformPath)) {
  console.log("bench:peer skipped: set PI_MONO_GIT to a checkout of badlogic/pi-mono (packages/ai and packages/coding-agent under it)");
  console.log(`RESULT ${JSON.stringify({ skipped: "PI_MONO_GIT not set or not a pi-mono checkout" })}`);
  process.exit(0);
}

interface PiSessionModule {
  SessionManager: { open(path: string, dir?: string): { buildSessionContext(): { messages: unknown[] } } };
}
interface PiTransformModule {
  transformMessages(messages: unknown[], model: unknown, normalize?: (id: string) => string): unknown[];
}
const pi = (await import(pathToFileURL(sessionManagerPath).href)) as PiSessionModule;
const piTransform = (await import(pathToFileURL(transformPath).href)) as PiTransformModule;

let seed = 0x9e3779b9;
function rand(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
}
const WORDS = "the file function returns value error path test module import export const await stream token".split(" ");
function prose(chars: number): string {
  let out = "";
  while (out.length < chars) out += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
  return out.slice(0, chars);
}

const MODEL = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" } as const;

/** One conversation in our message shape: user, then assistant turns with tool calls and their results. */
function conversation(): Message[] {
  const out: Message[] = [];
  let call = 0;
  let t = 1_700_000_000_000;
  while (out.length < MESSAGES) {
    out.push({ role: "user", content: [{ type: "text", text: prose(80 + Math.floor(rand() * 400)) }], timestamp: t++ });
    for (let step = 0; step < 3 && out.length < MESSAGES; step++) {
      const id = `toolu_01${(call++).toString(36).padStart(22, "A")}`;
      out.push({
        role: "assistant",
        content: [
          { type: "thinking", thinking: prose(200), signature: "sig" },
          { type: "text", text: prose(120) },
          { type: "toolCall", id, name: "read", arguments: { path: `src/file-${call}.ts` } },
        ],
        stopReason: "toolUse",
        model: MODEL,
        usage: { ...emptyUsage(), input: 1000, output: 100 },
        timestamp: t++,
      });
      out.push({
        role: "toolResult",
        toolCallId: id,
        toolName: "read",
        isError: false,
        content: [{ type: "text", text: prose(400 + Math.floor(rand() * 2000)) }],
        timestamp: t++,
      });
    }
    out.push({
      role: "assistant",
      content: [{ type: "text", text: prose(300) }],
      stopReason: "stop",
      model: MODEL,
      usage: { ...emptyUsage(), input: 1200, output: 200 },
      timestamp: t++,
    });
  }
  return out.slice(0, MESSAGES);
}

/** The same message in pi-ai's shape: the model as api/provider/model strings. */
function asPi(m: Message): unknown {
  if (m.role !== "assistant") return m;
  const { model, ...rest } = m;
  return { ...rest, api: model.api, provider: model.provider, model: model.id };
}

const messages = conversation();
const toolCalls = messages.filter((m) => m.role === "toolResult").length;
const dir = mkdtempSync(join(tmpdir(), "bench-peer-"));
try {
  const dbPath = join(dir, "ours.db");
  const setup = SessionStore.open(dbPath);
  const session = setup.createSession({ workspaceId: setup.addWorkspace("/bench/peer").id });
  for (const message of messages) setup.appendEntry(session.id, { type: "message", message });
  setup.close();

  const piPath = join(dir, "pi.jsonl");
  const lines = [JSON.stringify({ type: "session", version: 3, id: "peer", timestamp: new Date(0).toISOString(), cwd: "/bench/peer" })];
  let parent: string | null = null;
  messages.forEach((m, i) => {
    const id = `e${i.toString(16).padStart(7, "0")}`;
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(m.timestamp).toISOString(), message: asPi(m) }));
    parent = id;
  });
  writeFileSync(piPath, `${lines.join("\n")}\n`);

  const model = findModel(`${MODEL.provider}/${MODEL.id}`, MODEL.api);
  const provider = model && findProvider(model.provider);
  if (!model || !provider) throw new Error(`registry lacks ${MODEL.id}`);
  const piModel = {
    id: MODEL.id,
    name: "Claude Sonnet 4.5",
    api: MODEL.api,
    provider: MODEL.provider,
    baseUrl: "https://api.anthropic.com",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200_000,
    maxTokens: 64_000,
  };
  // As pi's Anthropic provider passes it.
  const piNormalize = (id: string) => id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);

  const rounds: Array<Record<string, number>> = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Ours first in even rounds, pi first in odd ones.
    const order = round % 2 === 0 ? ["ours", "pi"] : ["pi", "ours"];
    const r: Record<string, number> = {};
    for (const who of order) {
      settle();
      if (who === "ours") {
        let t = performance.now();
        const store = SessionStore.open(dbPath, { integrityCheck: "background" });
        const loaded = store.loadEntries(session.id).flatMap((e) => (e.entry.type === "message" ? [e.entry.message] : []));
        r.oursLoadMs = performance.now() - t;
        store.close();
        if (loaded.length !== MESSAGES) throw new Error(`ours loaded ${loaded.length} messages`);
        settle();
        t = performance.now();
        const prepared = prepareRequest(model, provider, { systemPrompt: "You are a coding agent.", messages: loaded, tools: [] });
        r.oursTransformMs = performance.now() - t;
        if (prepared.messages.length === 0) throw new Error("ours transformed nothing");
      } else {
        let t = performance.now();
        const context = pi.SessionManager.open(piPath, dir).buildSessionContext();
        r.piLoadMs = performance.now() - t;
        if (context.messages.length !== MESSAGES) throw new Error(`pi loaded ${context.messages.length} messages`);
        settle();
        t = performance.now();
        const out = piTransform.transformMessages(context.messages, piModel, piNormalize);
        r.piTransformMs = performance.now() - t;
        if (out.length === 0) throw new Error("pi transformed nothing");
      }
    }
    r.loadRatio = r.oursLoadMs / r.piLoadMs;
    r.transformRatio = r.oursTransformMs / r.piTransformMs;
    rounds.push(r);
    const f = (n: number) => n.toFixed(1);
    console.log(
      `round ${round + 1}: open+load ours ${f(r.oursLoadMs)} ms, pi ${f(r.piLoadMs)} ms (×${r.loadRatio.toFixed(2)}); transform ours ${f(r.oursTransformMs)} ms, pi ${f(r.piTransformMs)} ms (×${r.transformRatio.toFixed(2)})`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const pick = (k: string) => Math.round(median(rounds.map((r) => r[k])) * 100) / 100;
  console.log(
    `${MESSAGES} messages, ${toolCalls} tool calls; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    `RESULT ${JSON.stringify({
      messages: MESSAGES,
      toolCalls,
      oursLoadMs: pick("oursLoadMs"),
      piLoadMs: pick("piLoadMs"),
      loadRatio: pick("loadRatio"),
      oursTransformMs: pick("oursTransformMs"),
      piTransformMs: pick("piTransformMs"),
      transformRatio: pick("transformRatio"),
    })}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
