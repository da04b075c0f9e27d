/**
 * Each configured provider's own models endpoint (the faux provider serving
 * Anthropic's, Gemini's and OpenAI's in their real shapes) adds what the
 * catalog lacks: usable, its price unknown, and stored as unknown, not $0.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRef } from "../../shared/protocol";
import { TEST_KEYS, startHarness, type Harness } from "./harness";

const UNLISTED: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-faux-unlisted-1" };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness({
    ...options,
    workbench: { env: { ...TEST_KEYS, GEMINI_API_KEY: "gemini-test-0123456789" }, ...options.workbench },
  });
  cleanups.push(() => h.close());
  return h;
}

describe("models listed by the providers' own endpoints", () => {
  it("offers what Anthropic, Gemini and OpenAI list that the catalog lacks, once, with the endpoint's limits and no price", async () => {
    const h = await harness();
    // claude-opus-5: not in the models.dev snapshot, but genai-prices prices it.
    h.faux.setListedModels("anthropic", [UNLISTED.id, "claude-sonnet-4-5", UNLISTED.id, "claude-opus-5"]);
    h.faux.setListedModels("gemini", ["gemini-faux-next", "gemini-2.5-pro"]);
    h.faux.setModels(["gpt-faux-next"]);
    const before = await h.call("models.list", {});
    expect(before.some((m) => m.id === UNLISTED.id)).toBe(false);
    const after = await h.call("models.refresh", {});
    const unlisted = after.filter((m) => m.provider === "anthropic" && m.id === UNLISTED.id);
    expect(unlisted).toEqual([
      expect.objectContaining({
        api: "anthropic-messages",
        discovered: true,
        priceUnknown: true,
        contextWindow: 200_000,
        maxOutput: 32_000,
        configured: true,
      }),
    ]);
    expect(after.find((m) => m.provider === "anthropic" && m.id === "claude-opus-5")).toMatchObject({
      discovered: true,
      priceSource: "genai-prices",
      price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    });
    expect(after.find((m) => m.id === "claude-opus-5")?.priceUnknown).toBeUndefined();
    // A model the catalog knows keeps the catalog's entry, once.
    const sonnet = after.filter((m) => m.provider === "anthropic" && m.id === "claude-sonnet-4-5");
    expect(sonnet).toHaveLength(1);
    expect(sonnet[0].discovered).toBeUndefined();
    expect(after.filter((m) => m.provider === "google" && m.id === "gemini-2.5-pro")).toHaveLength(1);
    expect(after.find((m) => m.provider === "google" && m.id === "gemini-faux-next")).toMatchObject({
      api: "google-generative-ai",
      discovered: true,
      contextWindow: 1_048_576,
      maxOutput: 65_536,
      priceUnknown: true,
    });
    expect(after.find((m) => m.provider === "openai" && m.id === "gpt-faux-next")).toMatchObject({
      api: "openai-responses",
      priceUnknown: true,
    });
    // No key, no call: Groq lists nothing of its own.
    expect(after.filter((m) => m.provider === "groq" && m.discovered)).toEqual([]);
  });

  it("a session on a listed model runs, and its cost is stored and read back as unknown, not $0, across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wb-listed-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbPath = join(dir, "workbench.db");
    const h = await startHarness({ dbPath });
    const faux = h.faux;
    cleanups.push(() => faux.close());
    faux.setListedModels("anthropic", [UNLISTED.id]);
    await h.call("models.refresh", {});
    await h.call("chat.switchModel", { sessionId: h.sessionId, model: UNLISTED });
    faux.script({ type: "reply", content: [{ type: "text", text: "Hello from a model the catalog lacks." }] });
    await h.turn("hi");
    expect(faux.requests.map((r) => [r.model, r.accepted])).toEqual([[UNLISTED.id, true]]);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    const answer = entries.flatMap((e) => (e.entry.type === "message" && e.entry.message.role === "assistant" ? [e.entry.message] : []))[0];
    expect(answer.model).toEqual(UNLISTED);
    expect(answer.usage.totalTokens).toBeGreaterThan(0);
    expect(answer.usage.cost).toMatchObject({ total: 0, unknown: true });
    await h.workbench.close();

    // The cost column holds no number for it; a sum over it never counts it as $0.
    const db = new Database(dbPath, { readonly: true });
    const rows = db.prepare("SELECT cost_total FROM entries WHERE model_id = ? AND kind = 'assistant'").all(UNLISTED.id) as Array<{
      cost_total: number | null;
    }>;
    db.close();
    expect(rows).toEqual([{ cost_total: null }]);

    // Restarted, not asked again: the session keeps its model, and the cost stays unknown.
    const again = await startHarness({
      dbPath,
      workbench: { baseUrlOverrides: { anthropic: faux.baseUrls.anthropic } },
    });
    cleanups.push(() => again.close());
    faux.script({ type: "reply", content: [{ type: "text", text: "Still here." }] });
    const from = again.events.length;
    await again.call("chat.send", { sessionId: h.sessionId, text: "still there?" });
    await again.waitFor("stream.end", (p) => p.sessionId === h.sessionId, from);
    expect(faux.requests.at(-1)).toMatchObject({ model: UNLISTED.id, accepted: true });
    const reloaded = await again.call("session.load", { sessionId: h.sessionId });
    const costs = reloaded.entries.flatMap((e) =>
      e.entry.type === "message" && e.entry.message.role === "assistant" && e.entry.message.model.id === UNLISTED.id
        ? [e.entry.message.usage.cost]
        : [],
    );
    expect(costs).toHaveLength(2);
    for (const cost of costs) expect(cost.unknown).toBe(true);
  });
});
