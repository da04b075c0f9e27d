/**
 * A new session gets the model the user last chose (in the switcher or when
 * creating a session), across restarts, rather than the first configured
 * cloud model; a model set in Settings still wins, and a last choice that is
 * no longer usable falls back to the usual rule.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import type { ModelRef } from "../../shared/protocol";
import { startCore } from "../../electron/core/host/start-core";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ANTHROPIC = { ANTHROPIC_API_KEY: "sk-ant-test-0123456789abcdef" };

async function start(dbPath: string, env: Record<string, string>) {
  const core = await startCore({ dbPath, host: { mode: "web" }, version: "test", demo: "auto", env });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await core.close();
  };
  cleanups.push(close);
  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>) => {
    const res = await core.workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result as RequestResult<M>;
  };
  return { call, close };
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "wb-last-model-"));
  const workspace = mkdtempSync(join(tmpdir(), "wb-last-model-ws-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
  return { dbPath: join(dir, "workbench.db"), workspace };
}

const ref = (m: ModelRef): ModelRef => ({ provider: m.provider, api: m.api, id: m.id });

describe("the model of a new session", () => {
  it("is the one last chosen in the switcher, also after a restart", async () => {
    const { dbPath, workspace } = setup();
    let core = await start(dbPath, ANTHROPIC);
    const ws = await core.call("workspace.open", { path: workspace });
    const first = await core.call("session.create", { workspaceId: ws.id });
    const fallback = first.model;
    expect(fallback).toBeTruthy();
    const options = await core.call("models.list", {});
    const other = options.find((m) => m.configured && m.provider === "anthropic" && m.id !== fallback?.id);
    expect(other).toBeDefined();
    const chosen = ref(other!);

    await core.call("chat.switchModel", { sessionId: first.id, model: chosen });
    expect((await core.call("session.create", { workspaceId: ws.id })).model).toEqual(chosen);

    await core.close();
    core = await start(dbPath, ANTHROPIC);
    expect((await core.call("session.create", { workspaceId: ws.id })).model).toEqual(chosen);
    expect((await core.call("app.info", {})).defaultModel).toEqual(chosen);
  });

  it("follows a model picked when creating a session, but the Settings default wins", async () => {
    const { dbPath, workspace } = setup();
    const core = await start(dbPath, ANTHROPIC);
    const ws = await core.call("workspace.open", { path: workspace });
    const anthropic = (await core.call("models.list", {})).filter((m) => m.configured && m.provider === "anthropic");
    expect(anthropic.length).toBeGreaterThanOrEqual(3);
    const [a, b] = [ref(anthropic.at(-1)!), ref(anthropic.at(-2)!)];
    await core.call("session.create", { workspaceId: ws.id, model: a });
    expect((await core.call("session.create", { workspaceId: ws.id })).model).toEqual(a);

    await core.call("settings.update", { defaultModel: b });
    expect((await core.call("session.create", { workspaceId: ws.id })).model).toEqual(b);
  });

  it("falls back to the usual rule when the last choice is no longer usable", async () => {
    const { dbPath, workspace } = setup();
    let core = await start(dbPath, ANTHROPIC);
    const ws = await core.call("workspace.open", { path: workspace });
    const first = await core.call("session.create", { workspaceId: ws.id });
    const options = await core.call("models.list", {});
    const anthropicOther = options.find((m) => m.configured && m.provider === "anthropic" && m.id !== first.model?.id);
    await core.call("chat.switchModel", { sessionId: first.id, model: ref(anthropicOther!) });
    expect((await core.call("session.create", { workspaceId: ws.id })).model).toEqual(ref(anthropicOther!));
    await core.close();

    // The key is gone: the remembered Anthropic model cannot be used, the demo is picked.
    core = await start(dbPath, {});
    const next = await core.call("session.create", { workspaceId: ws.id });
    expect(next.model?.provider).toBe("demo");
  });
});
