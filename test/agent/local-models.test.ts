/**
 * Local servers (Ollama, LM Studio, any keyless OpenAI-compatible server)
 * list their installed models; the switcher offers them, and a session on
 * such a model keeps working across a restart and while the server is down.
 * The faux provider plays the server (its OpenAI routes answer GET /models).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import type { ModelRef } from "../../shared/protocol";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import type { Workbench } from "../../electron/core/api/workbench";
import { startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { isLocalServer, listServerModels, MAX_DISCOVERED_MODELS, ModelListError } from "../../electron/core/providers/local-models";
import { listProviders } from "../../electron/core/providers/registry";

const QWEN: ModelRef = { provider: "ollama", api: "openai-completions", id: "qwen2.5-coder:14b" };
/** A loopback port nothing listens on (the kernel refuses at once). */
const REFUSED = "http://127.0.0.1:1/v1";

/** The URL of a port nothing listens on any more. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(
  dbPath: string,
  ollamaUrl: string,
): Promise<{
  workbench: Workbench;
  call: <M extends RequestMethod>(m: M, p: RequestParams<M>) => Promise<RequestResult<M>>;
  idle: () => Promise<void>;
}> {
  const workbench = await createWorkbench({
    dbPath,
    host: { mode: "web" },
    version: "test",
    env: {},
    baseUrlOverrides: { ollama: ollamaUrl, lmstudio: REFUSED },
    sleep: async () => undefined,
  });
  cleanups.push(() => workbench.close());
  let ended = 0;
  let wake: (() => void) | null = null;
  workbench.onEvent((event) => {
    if (event !== "stream.end") return;
    ended++;
    wake?.();
  });
  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>) => {
    const res = await workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result as RequestResult<M>;
  };
  const idle = () => {
    const target = ended + 1;
    return new Promise<void>((resolve) => {
      wake = () => ended >= target && resolve();
    });
  };
  return { workbench, call, idle };
}

async function fauxServer(): Promise<FauxProvider> {
  const faux = await startFauxProvider();
  cleanups.push(() => faux.close());
  return faux;
}

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-local-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, "workbench.db");
}

describe("local servers' models", () => {
  it("are offered once the servers were asked; bundled entries are not repeated and a server that is down adds nothing", async () => {
    const faux = await fauxServer();
    faux.setModels(["qwen2.5-coder:14b", "llama3.1:8b", "qwen2.5-coder:14b"]);
    const { call } = await open(tempDb(), faux.baseUrls.openai);

    const before = await call("models.list", {});
    expect(before.some((m) => m.id === QWEN.id)).toBe(false);

    const after = await call("models.refresh", {});
    const qwen = after.filter((m) => m.provider === "ollama" && m.id === QWEN.id);
    expect(qwen).toEqual([
      expect.objectContaining({
        name: "qwen2.5-coder:14b (Ollama)",
        api: "openai-completions",
        configured: true,
        providerLabel: "Ollama (local)",
      }),
    ]);
    // The bundled entry (its context window and reasoning flag) stays, once.
    expect(after.filter((m) => m.provider === "ollama" && m.id === "llama3.1:8b").map((m) => m.name)).toEqual(["Llama 3.1 8B (Ollama)"]);
    // LM Studio is not running: its bundled entries stay, nothing is added, nothing fails.
    expect(after.filter((m) => m.provider === "lmstudio").map((m) => m.id)).toEqual(
      before.filter((m) => m.provider === "lmstudio").map((m) => m.id),
    );
    expect((await call("models.list", {})).some((m) => m.id === QWEN.id)).toBe(true);
    // What picking each would do: listed by the server, not on it, or no server to ask.
    const local = (provider: string, id: string) => after.find((m) => m.provider === provider && m.id === id)?.local;
    expect(before.every((m) => m.local === undefined)).toBe(true);
    expect([local("ollama", QWEN.id), local("ollama", "llama3.1:8b"), local("ollama", "gpt-oss:20b")]).toEqual([
      "installed",
      "installed",
      "notInstalled",
    ]);
    expect(after.filter((m) => m.provider === "lmstudio").map((m) => m.local)).toEqual(["unreachable", "unreachable"]);
    expect(after.filter((m) => m.provider === "anthropic").every((m) => m.local === undefined)).toBe(true);

    // The server uninstalled it: asked again, the list follows.
    faux.setModels([]);
    expect((await call("models.refresh", {})).some((m) => m.id === QWEN.id)).toBe(false);
  });

  it("a session on a listed model talks to the server, and keeps its model after a restart and while the server is down", async () => {
    const faux = await fauxServer();
    faux.setModels([QWEN.id]);
    const dbPath = tempDb();
    const workspace = mkdtempSync(join(tmpdir(), "wb-local-ws-"));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));

    const first = await open(dbPath, faux.baseUrls.openai);
    await first.call("models.refresh", {});
    const ws = await first.call("workspace.open", { path: workspace });
    const session = await first.call("session.create", { workspaceId: ws.id, model: QWEN });
    faux.script({ type: "reply", content: [{ type: "text", text: "Hello from qwen." }] });
    const done = first.idle();
    await first.call("chat.send", { sessionId: session.id, text: "hi" });
    await done;
    expect(faux.requests.map((r) => [r.path, r.model, r.accepted])).toEqual([["/openai/v1/chat/completions", QWEN.id, true]]);
    await first.workbench.close();

    // Restarted, the server lists nothing and was not asked: the session's model still resolves.
    faux.setModels([]);
    const second = await open(dbPath, faux.baseUrls.openai);
    faux.script({ type: "reply", content: [{ type: "text", text: "Still here." }] });
    const again = second.idle();
    await second.call("chat.send", { sessionId: session.id, text: "still there?" });
    await again;
    expect(faux.requests.at(-1)).toMatchObject({ model: QWEN.id, accepted: true });
    await second.workbench.close();

    // The server is down: the turn fails with the network error (and Retry can work later), not "unknown model".
    // A port that was just free (port 1 is on fetch's blocked-port list: "bad port", not a refused connection).
    const third = await open(dbPath, await closedPortUrl());
    const failed = third.idle();
    await third.call("chat.send", { sessionId: session.id, text: "and now?" });
    await failed;
    const { entries } = await third.call("session.load", { sessionId: session.id });
    const last = entries.at(-1)?.entry;
    expect(last?.type === "message" && last.message.role === "assistant" ? last.message : null).toMatchObject({
      stopReason: "error",
      model: QWEN,
      errorMessage: expect.stringMatching(/^network error: could not reach the provider: connect ECONNREFUSED/),
    });
  });
});

describe("listServerModels", () => {
  const ollama = listProviders().find((p) => p.key === "ollama")!;
  const at = (baseUrl: string) => ({ ...ollama, baseUrl });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server: Server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    server.on("connection", (s) => cleanups.push(() => void s.destroy()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  it("only keyless Chat Completions servers are asked", () => {
    const asked = listProviders()
      .filter(isLocalServer)
      .map((p) => p.key);
    expect(asked).toEqual(["ollama", "lmstudio"]);
  });

  it("reads an OpenAI model list, in order, without duplicates, cut at the bound", async () => {
    const ids = Array.from({ length: MAX_DISCOVERED_MODELS + 50 }, (_, i) => `m${i}`);
    const url = await serve((req, res) => {
      expect(req.url).toBe("/v1/models");
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ object: "list", data: [{ id: "m1" }, ...ids.map((id) => ({ id, object: "model" }))] }));
    });
    const models = await listServerModels(at(url));
    // m1 first (where it first came), then the rest in the server's order.
    expect(models.map((m) => m.id)).toEqual(["m1", "m0", ...ids.slice(2)].slice(0, MAX_DISCOVERED_MODELS));
    expect(models[0]).toMatchObject({ provider: "ollama", api: "openai-completions", price: { input: 0, output: 0 } });
  });

  it("an answer that is not a model list, an HTTP error, a refused connection, an endless answer and a silent server are each a ModelListError", async () => {
    const notAList = await serve((_req, res) => res.end(JSON.stringify({ models: [{ name: "x" }] })));
    await expect(listServerModels(at(notAList))).rejects.toThrow(/not an OpenAI model list/);
    const broken = await serve((_req, res) => {
      res.statusCode = 500;
      res.end("boom");
    });
    await expect(listServerModels(at(broken))).rejects.toThrow(/HTTP 500/);
    await expect(listServerModels(at(REFUSED))).rejects.toThrow(ModelListError);
    const huge = await serve((_req, res) => {
      res.write('{"data":[');
      const item = JSON.stringify({ id: "x".repeat(200) });
      for (let i = 0; i < 20_000; i++) res.write(`${i ? "," : ""}${item}`);
      res.end("]}");
    });
    // A generous timeout: this case is about the size cap, and writing 4 MB can be slow on a loaded machine.
    await expect(listServerModels(at(huge), 120_000)).rejects.toThrow(/larger than 2 MB/);
    const silent = await serve(() => undefined);
    await expect(listServerModels(at(silent), 200)).rejects.toThrow(ModelListError);
  });
});
