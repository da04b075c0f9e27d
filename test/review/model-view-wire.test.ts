/**
 * "What the model saw" against the wire: the real agent loop sends requests
 * through the real adapters to the faux provider on loopback, and the body
 * the review rebuilds from storage must equal the body the server received.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelRef } from "../../shared/protocol";
import { SessionAgent } from "../../electron/core/agent/session-agent";
import type { AgentDeps, ToolRuntimePort } from "../../electron/core/agent/ports";
import { reply, startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { streamModel } from "../../electron/core/providers";
import { modelViewAt } from "../../electron/core/review/model-view";
import { GPT41, GPT5, SONNET, TOOL_SPECS, WORKSPACE, buildSession, resolveModel } from "./fixture";

let faux: FauxProvider;
beforeAll(async () => {
  faux = await startFauxProvider();
});
afterAll(async () => {
  await faux.close();
});

/** The turns here are text-only, so the loop only asks the tool runtime for its specs. */
const tools: ToolRuntimePort = {
  specs: () => TOOL_SPECS,
  beginTurn: () => undefined,
  isSideEffect: (name) => ["write", "edit", "bash"].includes(name),
  runReadOnly: () => Promise.reject(new Error("no tool runs in this test")),
  propose: () => Promise.reject(new Error("no tool runs in this test")),
  decide: () => "deny",
  allowForSession: () => undefined,
  execute: () => Promise.reject(new Error("no tool runs in this test")),
  toResultMessage: () => {
    throw new Error("no tool runs in this test");
  },
};

function agentFor(fixture: ReturnType<typeof buildSession>, model: ModelRef): SessionAgent {
  const deps: AgentDeps = {
    store: fixture.store,
    tools,
    resolveModel: (ref) => {
      const r = resolveModel(ref);
      if (!r) return { error: "unknown model" };
      const baseUrl = r.provider.key === "anthropic" ? faux.baseUrls.anthropic : faux.baseUrls.openai;
      return { model: r.model, provider: { ...r.provider, baseUrl }, apiKey: "test-key-not-secret" };
    },
    stream: (resolved, context, options) => streamModel(resolved.model, resolved.provider, context, { ...options, apiKey: resolved.apiKey ?? "none" }),
    computeCost: (_model, message) => message,
    emit: () => undefined,
    audit: () => undefined,
    now: fixture.clock.now,
    workspaceRoot: WORKSPACE,
    platform: "linux",
    onModelChanged: (sessionId, ref) => void fixture.store.setSessionModel(sessionId, ref),
    onAppended: () => undefined,
  };
  return new SessionAgent(deps, fixture.sessionId, model);
}

describe("what the model saw, checked against the wire", () => {
  it("equals the body the provider received, for each API after a model switch", async () => {
    const fixture = buildSession();
    const agent = agentFor(fixture, SONNET);
    for (const model of [SONNET, GPT5, GPT41]) {
      agent.switchModel(model);
      faux.reset();
      faux.script(reply("Noted."));
      fixture.clock.set(fixture.clock.now() + 60_000);
      agent.send(`Summarise the session for ${model.id}.`);
      await agent.idle();

      expect(faux.requests).toHaveLength(1);
      const sent = faux.requests[0];
      const entries = fixture.store.loadEntries(fixture.sessionId);
      const last = entries[entries.length - 1];
      expect(last.entry.type === "message" && last.entry.message.role).toBe("assistant");
      const view = modelViewAt(entries, last.seq, { workspaceRoot: WORKSPACE, platform: "linux", toolSpecs: TOOL_SPECS, resolve: resolveModel });
      if (!view.ok) throw new Error(view.error.message);
      expect(view.value.body).toEqual(sent.body);
      // The fixture's Anthropic thinking signature is made up, and the faux rejects it as the real API would.
      if (model !== SONNET) expect(sent.accepted).toBe(true);
      // Every stored id that went over the wire comes back through the map.
      const stored = new Set(Object.values(view.value.idMap));
      expect(stored).toEqual(new Set(["call_abc|fc_1", "call_zzz|fc_9", "call_def|fc_2", "toolu_01W", "toolu_01X", "toolu_01Y"]));
    }
  });
});
