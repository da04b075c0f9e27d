/**
 * A first run on a fresh machine: with no API key anywhere the core starts
 * the offline demo, selects its model and says so; a key makes the real
 * models the default and the notice goes. Keyless local servers (Ollama, LM
 * Studio) do not count as a configured key.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import { startCore, type RunningCore } from "../../electron/core/host/start-core";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(
  env: Record<string, string>,
): Promise<RunningCore & { call: <M extends RequestMethod>(m: M, p: RequestParams<M>) => Promise<RequestResult<M>> }> {
  const dir = mkdtempSync(join(tmpdir(), "wb-first-run-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const core = await startCore({ dbPath: join(dir, "workbench.db"), host: { mode: "web" }, version: "test", demo: "auto", env });
  cleanups.push(() => core.close());
  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>) => {
    const res = await core.workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result as RequestResult<M>;
  };
  return { ...core, call };
}

describe("first run", () => {
  it("with no key anywhere, the demo model is selected, says so, and a turn works end to end", async () => {
    const core = await start({});
    expect(core.demoBaseUrl).not.toBeNull();
    const info = await core.call("app.info", {});
    expect(info.demo).toBe(true);
    expect(info.notices).toContain(
      "No API key is configured: the offline demo model is selected. Add a key in Settings (or an environment variable in web mode) to use real models, or pick a model of a local server (Ollama, LM Studio).",
    );

    const workspace = mkdtempSync(join(tmpdir(), "wb-first-run-ws-"));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const ws = await core.call("workspace.open", { path: workspace });
    const session = await core.call("session.create", { workspaceId: ws.id });
    expect(session.model?.provider).toBe("demo");
    const ended = new Promise<void>((resolve) => core.workbench.onEvent((event) => event === "stream.end" && resolve()));
    await core.call("chat.send", { sessionId: session.id, text: "hello" });
    await ended;
    const { entries } = await core.call("session.load", { sessionId: session.id });
    const replies = entries.flatMap((e) => (e.entry.type === "message" && e.entry.message.role === "assistant" ? [e.entry.message] : []));
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.every((m) => m.model.provider === "demo" && m.stopReason !== "error")).toBe(true);
    expect(replies.at(-1)?.stopReason).toBe("stop");
  });

  it("with a key, no demo runs, a real model is the default and nothing says a key is missing", async () => {
    const core = await start({ ANTHROPIC_API_KEY: "sk-ant-test-0123456789abcdef" });
    expect(core.demoBaseUrl).toBeNull();
    const info = await core.call("app.info", {});
    expect(info.demo).toBe(false);
    expect(info.notices.some((n) => n.includes("No API key"))).toBe(false);
    const workspace = mkdtempSync(join(tmpdir(), "wb-first-run-ws-"));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const ws = await core.call("workspace.open", { path: workspace });
    expect((await core.call("session.create", { workspaceId: ws.id })).model?.provider).toBe("anthropic");
  });
});
