/**
 * "What the model saw" against the wire: the real agent loop, with the real
 * tool runtime on a temp workspace, sends requests through the real adapters
 * to the faux provider on loopback; the body the review rebuilds from storage
 * must equal the body the server received, for every request of the turn.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelRef } from "../../shared/protocol";
import { SessionAgent } from "../../electron/core/agent/session-agent";
import type { AgentDeps } from "../../electron/core/agent/ports";
import { createSessionTools } from "../../electron/core/api/session-tools";
import { defaultSettings } from "../../electron/core/api/settings";
import { reply, startFauxProvider, toolCall, type FauxProvider } from "../../electron/core/faux";
import { streamModel } from "../../electron/core/providers";
import { modelViewAt } from "../../electron/core/review/model-view";
import { builtInToolSpecs } from "../../electron/core/tools/tool-specs";
import { APP_AFTER, GPT41, GPT5, SONNET, buildSession, resolveModel } from "./fixture";

let faux: FauxProvider;
let workspace: string;
beforeAll(async () => {
  faux = await startFauxProvider();
  workspace = realpathSync(mkdtempSync(join(tmpdir(), "review-wire-")));
  mkdirSync(join(workspace, "src"));
  writeFileSync(join(workspace, "src/app.ts"), APP_AFTER);
  writeFileSync(
    join(workspace, "src/big.ts"),
    Array.from({ length: 60 }, (_, i) => `export const line${i} = "${"z".repeat(30)}";`).join("\n"),
  );
});
afterAll(async () => {
  await faux.close();
  rmSync(workspace, { recursive: true, force: true });
});

function agentFor(fixture: ReturnType<typeof buildSession>, model: ModelRef, extra: Partial<AgentDeps> = {}): SessionAgent {
  const deps: AgentDeps = {
    store: fixture.store,
    tools: createSessionTools({ workspaceRoot: workspace, settings: defaultSettings, env: {} }),
    resolveModel: (ref) => {
      const r = resolveModel(ref);
      if (!r) return { error: "unknown model" };
      const baseUrl = r.provider.key === "anthropic" ? faux.baseUrls.anthropic : faux.baseUrls.openai;
      return { model: r.model, provider: { ...r.provider, baseUrl }, apiKey: "test-key-not-secret" };
    },
    stream: (resolved, context, options) =>
      streamModel(resolved.model, resolved.provider, context, { ...options, apiKey: resolved.apiKey ?? "none" }),
    computeCost: (_model, message) => message,
    emit: () => undefined,
    audit: () => undefined,
    now: fixture.clock.now,
    workspaceRoot: workspace,
    platform: "linux",
    onModelChanged: (sessionId, ref) => void fixture.store.setSessionModel(sessionId, ref),
    onAppended: () => undefined,
    ...extra,
  };
  return new SessionAgent(deps, fixture.sessionId, model);
}

const toolSpecs = () =>
  builtInToolSpecs({ bashSandbox: defaultSettings().bashSandbox.mode, bashNetwork: defaultSettings().bashSandbox.network });

describe("what the model saw, checked against the wire", () => {
  it("equals every body the provider received, for each API after a model switch, tool round trips included", async () => {
    const fixture = buildSession(":memory:", { anthropicSignature: false });
    const agent = agentFor(fixture, SONNET);
    for (const model of [SONNET, GPT5, GPT41]) {
      agent.switchModel(model);
      faux.reset();
      faux.script([reply(toolCall("read", { path: "src/app.ts" })), reply("Noted.")]);
      fixture.clock.set(fixture.clock.now() + 60_000);
      const before = fixture.store.loadEntries(fixture.sessionId).length;
      agent.send(`Read src/app.ts again with ${model.id}.`);
      await agent.idle();

      const entries = fixture.store.loadEntries(fixture.sessionId);
      const requests = entries.slice(before).filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant");
      expect(requests).toHaveLength(2);
      expect(faux.requests).toHaveLength(2);
      for (const [i, stored] of requests.entries()) {
        const view = modelViewAt(entries, stored.seq, {
          // The loop sends the session id as the prompt-cache key (Responses): the rebuilt body carries it too.
          sessionId: fixture.sessionId,
          workspaceRoot: workspace,
          platform: "linux",
          // The specs the session's tools sent (bash's description says where commands run).
          toolSpecs: builtInToolSpecs({
            bashSandbox: defaultSettings().bashSandbox.mode,
            bashNetwork: defaultSettings().bashSandbox.network,
          }),
          resolve: resolveModel,
        });
        if (!view.ok) throw new Error(view.error.message);
        expect(view.value.body).toEqual(faux.requests[i].body);
        // Every stored call of the history went over the wire and comes back through the map.
        const stored_ = new Set(Object.values(view.value.idMap));
        for (const id of ["call_abc|fc_1", "call_zzz|fc_9", "call_def|fc_2", "toolu_01W", "toolu_01X", "toolu_01Y"])
          expect(stored_.has(id)).toBe(true);
      }
      expect(faux.requests.map((r) => r.rejection?.message ?? "accepted")).toEqual(["accepted", "accepted"]);
    }
  });

  it("equals every body the provider received through prunes, summaries and a limit's tool-less final request", async () => {
    const fixture = buildSession(":memory:", { anthropicSignature: false });
    const WINDOW = 14_000;
    faux.reset();
    faux.setContextWindow(SONNET.id, WINDOW);
    const agent = agentFor(fixture, SONNET, {
      // The session's model with a small window: the turn must compact to go on.
      resolveModel: (ref) => {
        const r = resolveModel(ref);
        if (!r) return { error: "unknown model" };
        const baseUrl = r.provider.key === "anthropic" ? faux.baseUrls.anthropic : faux.baseUrls.openai;
        return { model: { ...r.model, contextWindow: WINDOW }, provider: { ...r.provider, baseUrl }, apiKey: "test-key-not-secret" };
      },
      turnLimits: () => ({ maxCostUsd: null, maxRoundTrips: 40, maxWallTimeMs: null }),
    });
    let n = 0;
    faux.setDefaultResponder((req) => {
      if (req.turns.some((t) => t.role === "system" && t.text.startsWith("You compact"))) {
        return { type: "reply", content: [{ type: "text", text: `SUMMARY ${n}` }] };
      }
      n++;
      return req.tools.length === 0
        ? { type: "reply", content: [{ type: "text", text: "Stopped at the limit; big.ts was read." }] }
        : { type: "reply", content: [{ type: "toolCall", id: `toolu_w${n}`, name: "read", arguments: { path: "src/big.ts" } }] };
    });
    const before = fixture.store.loadEntries(fixture.sessionId).length;
    try {
      agent.send("Read src/big.ts until you are stopped.");
      await agent.idle();
    } finally {
      faux.setDefaultResponder(null);
      faux.setContextWindow(SONNET.id, 200_000);
    }

    const entries = fixture.store.loadEntries(fixture.sessionId);
    const steps = entries.slice(before).flatMap((e) => (e.entry.type === "compaction" ? [e.entry.step] : []));
    expect(steps).toContain("prune");
    expect(steps).toContain("summary");
    const answers = entries.slice(before).filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant");
    const sent = faux.requests.filter((r) => !JSON.stringify(r.body).includes("You compact coding-agent conversations"));
    expect(answers).toHaveLength(41);
    expect(sent).toHaveLength(41);
    for (const [i, stored] of answers.entries()) {
      const view = modelViewAt(entries, stored.seq, {
        workspaceRoot: workspace,
        platform: "linux",
        toolSpecs: toolSpecs(),
        resolve: resolveModel,
      });
      if (!view.ok) throw new Error(view.error.message);
      expect(view.value.body).toEqual(sent[i].body);
    }
    expect(faux.requests.filter((r) => !r.accepted).map((r) => r.rejection?.message)).toEqual([]);
  });
});
