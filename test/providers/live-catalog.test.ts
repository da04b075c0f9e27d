/**
 * The catalog kept current at run time: a loopback server plays models.dev's
 * api.json. A changed catalog brings its new model into the switcher and into
 * the cache; a broken, oversized or silent server leaves the snapshot (or the
 * cached copy) in place, and start-up never waits for it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ModelOption, RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { SETTINGS_KEY } from "../../electron/core/api/settings";
import { SessionStore } from "../../electron/core/store";
import {
  catalogUrl,
  LiveCatalog,
  MAX_CATALOG_BYTES,
  MODELS_DEV_URL,
  MODELS_URL_ENV,
} from "../../electron/core/providers/catalog/live-catalog";
import snapshot from "../../electron/core/providers/catalog/models-dev-snapshot.json";
import { listProviders, snapshotCatalogModels } from "../../electron/core/providers/registry";

const NEW_ID = "claude-zz-next-1";

/** The bundled snapshot with one model added to Anthropic, as models.dev would publish it. */
function changedCatalog(): unknown {
  const copy = structuredClone(snapshot) as unknown as Record<string, { models: Record<string, unknown> }>;
  copy.anthropic.models[NEW_ID] = {
    id: NEW_ID,
    name: "Claude ZZ Next",
    family: "claude-sonnet",
    reasoning: true,
    reasoning_options: [{ type: "effort", values: ["low", "medium", "high"] }],
    tool_call: true,
    release_date: "2027-01-01",
    modalities: { input: ["text", "image"], output: ["text"] },
    limit: { context: 2_000_000, output: 200_000 },
  };
  return copy;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-catalog-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A loopback server answering every request with `answer`; `seen` resolves at its first request. */
async function serve(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; seen: Promise<void>; server: Server }> {
  let markSeen = () => {};
  const seen = new Promise<void>((resolve) => (markSeen = resolve));
  const server = createServer((req, res) => {
    markSeen();
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api.json`, seen, server };
}

const json = (body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
};

/** A workbench whose catalog cache is in `dataDir` (its database in a folder of its own). */
async function workbench(dataDir: string, url: string) {
  const wb = await createWorkbench({
    dbPath: join(tempDir(), "workbench.db"),
    host: { mode: "web" },
    version: "test",
    env: { ANTHROPIC_API_KEY: "sk-ant-test" },
    modelCatalog: { cacheFile: join(dataDir, "models-dev.json"), url },
  });
  cleanups.push(() => wb.close());
  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>) => {
    const res = await wb.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.message}`);
    return res.result as RequestResult<M>;
  };
  const ids = async () => (await call("models.list", {})).map((m: ModelOption) => `${m.provider}/${m.id}`);
  return { wb, call, ids };
}

describe("the model catalog fetched at run time", () => {
  it("a changed api.json brings its new model into the list, with its facts, and is cached for the next start", async () => {
    const dir = tempDir();
    const server = await serve(json(changedCatalog()));
    const { call, ids } = await workbench(dir, server.url);
    await vi.waitFor(async () => expect(await ids()).toContain(`anthropic/${NEW_ID}`), { timeout: 60_000, interval: 50 });
    const model = (await call("models.list", {})).find((m) => m.id === NEW_ID);
    expect(model).toMatchObject({ contextWindow: 2_000_000, maxOutput: 200_000, reasoning: true, input: ["text", "image"] });
    expect(model?.reasoningLevels).toEqual(["default", "off", "low", "medium", "high"]);
    // Nobody publishes its price yet: unknown, not free.
    expect(model?.priceUnknown).toBe(true);
    await vi.waitFor(() => expect(existsSync(join(dir, "models-dev.json"))).toBe(true), { timeout: 60_000, interval: 50 });

    // Next start, offline: the cached copy, not the snapshot.
    const offline = await serve((_req, res) => res.writeHead(503).end());
    const again = await workbench(dir, offline.url);
    await vi.waitFor(async () => expect(await again.ids()).toContain(`anthropic/${NEW_ID}`), { timeout: 60_000, interval: 50 });
  });

  it("does not wait for a silent catalog server to start, and offers the snapshot's models meanwhile", async () => {
    const dir = tempDir();
    let release: (() => void) | null = null;
    const server = await serve((_req, res) => {
      release = () => json(changedCatalog())(_req, res);
    });
    const { ids } = await workbench(dir, server.url);
    await server.seen;
    // Started, asked, not answered: the snapshot's models are listed.
    const now = await ids();
    expect(now).toContain("anthropic/claude-sonnet-5");
    expect(now).not.toContain(`anthropic/${NEW_ID}`);
    expect(release).not.toBeNull();
    release!();
    await vi.waitFor(async () => expect(await ids()).toContain(`anthropic/${NEW_ID}`), { timeout: 60_000, interval: 50 });
  });

  it.each([
    ["an HTTP error", (_req: IncomingMessage, res: ServerResponse) => res.writeHead(500).end("oops")],
    ["an answer that is not JSON", (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200).end("<html>")],
    ["JSON that is no catalog", json({ hello: "world" })],
    ["a catalog without a valid model", json({ anthropic: { id: "anthropic", name: "A", models: { x: { id: "x" } } } })],
    ["a dropped connection", (req: IncomingMessage) => req.socket.destroy()],
  ])("keeps the snapshot after %s, and says why", async (_name, answer) => {
    const server = await serve(answer);
    const live = new LiveCatalog({ providers: listProviders(), snapshot: snapshotCatalogModels, cacheFile: join(tempDir(), "c.json") });
    const result = await live.refresh(server.url);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(server.url);
    expect(live.models()).toBe(snapshotCatalogModels());
    expect(live.status().source).toBe("snapshot");
  });

  it("gives up on a catalog that sends more than the cap, and on one that never answers", async () => {
    const huge = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const push = () => {
        while (sent <= MAX_CATALOG_BYTES + chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", push);
        }
        res.end();
      };
      push();
    });
    const live = new LiveCatalog({ providers: listProviders(), snapshot: snapshotCatalogModels, cacheFile: null });
    const big = await live.refresh(huge.url);
    expect(big).toMatchObject({ ok: false, error: expect.stringMatching(/larger than 32 MB/) });

    const silent = await serve(() => undefined);
    const patient = new LiveCatalog({ providers: listProviders(), snapshot: snapshotCatalogModels, cacheFile: null, timeoutMs: 2_000 });
    const timedOut = await patient.refresh(silent.url);
    expect(timedOut.ok).toBe(false);
    expect(patient.models()).toBe(snapshotCatalogModels());
  });

  it("ignores a damaged cache file and rewrites it after the next good fetch", async () => {
    const dir = tempDir();
    const cacheFile = join(dir, "models-dev.json");
    writeFileSync(cacheFile, "{ not json");
    const server = await serve(json(changedCatalog()));
    const live = new LiveCatalog({ providers: listProviders(), snapshot: snapshotCatalogModels, cacheFile });
    expect(await live.refresh(server.url)).toMatchObject({ ok: true, source: "fetched" });
    expect(live.models().some((m) => m.id === NEW_ID)).toBe(true);
    expect(JSON.parse(readFileSync(cacheFile, "utf8"))).toMatchObject({ url: server.url });
  });

  it("fetches from the URL set in Settings, and from a new one at once when it is changed", async () => {
    const dir = tempDir();
    const plain = await serve(json(snapshot));
    const changed = await serve(json(changedCatalog()));
    const dbPath = join(dir, "workbench.db");
    const setup = SessionStore.open(dbPath);
    setup.setSetting(SETTINGS_KEY, { modelCatalogUrl: plain.url });
    setup.close();
    // No URL from the environment: Settings decides.
    const wb = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {}, modelCatalog: { cacheFile: null } });
    cleanups.push(() => wb.close());
    await plain.seen;
    const res = await wb.handle("settings.update", { modelCatalogUrl: changed.url });
    expect(res.ok).toBe(true);
    await changed.seen;
    await vi.waitFor(
      async () => {
        const list = await wb.handle("models.list", {});
        expect(list.ok && (list.result as ModelOption[]).some((m) => m.id === NEW_ID)).toBe(true);
      },
      { timeout: 60_000, interval: 50 },
    );
  });

  it("takes its URL from the environment first, then Settings, then models.dev; tests fetch nothing by default", () => {
    expect(catalogUrl({ [MODELS_URL_ENV]: "http://127.0.0.1:9/a.json" }, "http://127.0.0.1:8/b.json")).toBe("http://127.0.0.1:9/a.json");
    expect(catalogUrl({}, "http://127.0.0.1:8/b.json")).toBe("http://127.0.0.1:8/b.json");
    expect(catalogUrl({}, null)).toBe(MODELS_DEV_URL);
    // test/global-setup.ts turns the fetch off for every core a test starts.
    expect(process.env[MODELS_URL_ENV]).toBe("off");
  });
});
