/**
 * The hook for what must survive compaction (the todo plan): a carrier the
 * session registers gives the summary request its `forSummary` text and puts
 * its `reinject` text back right after the summary, stored with the
 * compaction entry, so the requests after it (and "what the model saw")
 * carry it. Unregistered, it no longer does.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelInfo } from "../../shared/models";
import { SessionAgent } from "../../electron/core/agent/session-agent";
import type { AgentDeps } from "../../electron/core/agent/ports";
import { createSessionTools } from "../../electron/core/api/session-tools";
import { defaultSettings } from "../../electron/core/api/settings";
import { startFauxProvider, type FauxProvider, type FauxRequest } from "../../electron/core/faux";
import { streamModel } from "../../electron/core/providers";
import { findProvider } from "../../electron/core/providers/registry";
import { SessionStore } from "../../electron/core/store";
import { isSummaryRequest } from "./long-turn-fixtures";

let faux: FauxProvider;
let workspace: string;
beforeAll(async () => {
  faux = await startFauxProvider();
  workspace = mkdtempSync(join(tmpdir(), "wb-carry-"));
  writeFileSync(join(workspace, "a.ts"), Array.from({ length: 40 }, (_, i) => `export const a${i} = "${"q".repeat(30)}";`).join("\n"));
});
afterAll(async () => {
  await faux.close();
  rmSync(workspace, { recursive: true, force: true });
});

const MODEL: ModelInfo = {
  id: "carry-model",
  name: "carry",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 14_000,
  maxOutput: 2_048,
  input: ["text"],
  reasoning: false,
  price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

function agentFor(store: SessionStore, sessionId: string): SessionAgent {
  const provider = { ...findProvider("anthropic")!, baseUrl: faux.baseUrls.anthropic };
  const deps: AgentDeps = {
    store,
    tools: createSessionTools({ workspaceRoot: workspace, settings: defaultSettings, env: {} }),
    resolveModel: () => ({ model: MODEL, provider, apiKey: "test-key-not-secret" }),
    stream: (resolved, context, options) =>
      streamModel(resolved.model, resolved.provider, context, { ...options, apiKey: "test-key-not-secret" }),
    computeCost: (_model, message) => message,
    emit: () => undefined,
    audit: () => undefined,
    now: Date.now,
    workspaceRoot: workspace,
    platform: "linux",
    onModelChanged: () => undefined,
    onAppended: () => undefined,
  };
  return new SessionAgent(deps, sessionId, { provider: MODEL.provider, api: MODEL.api, id: MODEL.id });
}

/** Reads a.ts `calls` times, answering summary requests; returns the requests it saw. */
function script(calls: number): FauxRequest[] {
  const seen: FauxRequest[] = [];
  let n = 0;
  faux.setDefaultResponder((req) => {
    seen.push(req);
    if (isSummaryRequest(req)) return { type: "reply", content: [{ type: "text", text: "SUMMARY" }] };
    n++;
    return n <= calls
      ? { type: "reply", content: [{ type: "toolCall", id: `toolu_c${n}`, name: "read", arguments: { path: "a.ts" } }] }
      : { type: "reply", content: [{ type: "text", text: "done" }] };
  });
  return seen;
}

const userTexts = (req: FauxRequest) => req.turns.flatMap((t) => (t.role === "user" ? [t.text] : []));

describe("what must survive compaction", () => {
  it("goes into the summary request and comes back after the summary; unregistered, it does not", async () => {
    faux.setContextWindow(MODEL.id, MODEL.contextWindow);
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace(workspace);
    const session = store.createSession({ workspaceId: ws.id, title: "carry" });
    const agent = agentFor(store, session.id);
    const plan = { done: 1 };
    const off = agent.addCompactionCarrier(() => ({
      forSummary: `PLAN (for the summariser): ${plan.done} of 3 done`,
      reinject: `Plan:\n- [x] step one\n- [ ] step two (${plan.done} done)`,
    }));
    const seen = script(40);
    agent.send("Work through the plan.");
    await agent.idle();

    const summaries = seen.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(0);
    for (const s of summaries) expect(userTexts(s).join("\n")).toContain("PLAN (for the summariser): 1 of 3 done");
    const entries = store.loadEntries(session.id);
    const compactions = entries.flatMap((e) => (e.entry.type === "compaction" ? [e.entry] : []));
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((c) => c.carried === "Plan:\n- [x] step one\n- [ ] step two (1 done)")).toBe(true);
    // Every request after the first compaction opens with the carried plan.
    const after = seen.slice(seen.indexOf(summaries[0]) + 1).filter((r) => !isSummaryRequest(r));
    expect(after.length).toBeGreaterThan(0);
    for (const r of after) expect(userTexts(r)[0]).toContain("Kept across compaction:\n\nPlan:\n- [x] step one");

    off();
    const later = script(40);
    agent.send("Go on.");
    await agent.idle();
    const newer = store
      .loadEntries(session.id)
      .slice(entries.length)
      .flatMap((e) => (e.entry.type === "compaction" ? [e.entry] : []));
    expect(newer.length).toBeGreaterThan(0);
    expect(newer.every((c) => c.carried === undefined)).toBe(true);
    expect(later.filter(isSummaryRequest).every((s) => !userTexts(s).join("\n").includes("PLAN"))).toBe(true);
    expect(faux.requests.filter((r) => !r.accepted).map((r) => r.rejection?.message)).toEqual([]);
    faux.setDefaultResponder(null);
    store.close();
  });
});
