/**
 * The catalog kept current at run time, as opencode does with models.dev:
 * the app starts on the bundled snapshot, then (in the background, never
 * awaited by start-up) takes the copy cached in its data folder and asks
 * `https://models.dev/api.json` — or the URL set in Settings or
 * AGENT_WORKBENCH_MODELS_URL — for a fresh one, with a timeout and a size cap,
 * validated like the snapshot. Whatever fails leaves the models it had.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { ModelInfo, ProviderConfig } from "../../../../shared/models";
import { readCapped } from "../../network/read-capped";
import { catalogModels } from "./build-models";
import { parseModelsDev, type ModelsDevCatalog } from "./models-dev";
import { MODELS_DEV_PROVIDERS } from "./overrides";

export const MODELS_DEV_URL = "https://models.dev/api.json";
/** Overrides the catalog URL (tests point it at a loopback server); "off": never fetch. */
export const MODELS_URL_ENV = "AGENT_WORKBENCH_MODELS_URL";
/** A catalog that has not answered by then is given up on for this start (the snapshot or the cache stays). */
export const CATALOG_FETCH_TIMEOUT_MS = 20_000;
/** models.dev's whole api.json is a few MB; past this the answer is not what it claims. */
export const MAX_CATALOG_BYTES = 32 * 1024 * 1024;
/** A cached copy younger than this is used without asking again at start. */
export const CATALOG_MAX_AGE_MS = 60 * 60_000;

export type CatalogSource = "snapshot" | "cache" | "fetched";

export interface LiveCatalogOptions {
  /** The providers the models are built for (the bundled ones). */
  providers: readonly ProviderConfig[];
  /** The models of the bundled snapshot. */
  snapshot: () => readonly ModelInfo[];
  /** Where a fetched copy is kept (null: nowhere, e.g. an in-memory database). */
  cacheFile: string | null;
  /** The fetch to use (proxy and CA settings applied); the runtime's own otherwise. */
  fetch?: () => typeof globalThis.fetch | undefined;
  timeoutMs?: number;
  now?: () => number;
}

export type RefreshResult = { ok: true; source: CatalogSource; models: number } | { ok: false; error: string };

interface CacheFile {
  fetchedAt: number;
  url: string;
  catalog: unknown;
}

export class LiveCatalog {
  private current: readonly ModelInfo[] | null = null;
  private source: CatalogSource = "snapshot";
  private fetchedAt: number | null = null;
  private running: Promise<RefreshResult> | null = null;
  private runningUrl: string | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: LiveCatalogOptions) {}

  /** The catalog's models now (the snapshot's until a newer catalog was read). */
  models(): readonly ModelInfo[] {
    return this.current ?? this.options.snapshot();
  }

  status(): { source: CatalogSource; fetchedAt: number | null } {
    return { source: this.source, fetchedAt: this.fetchedAt };
  }

  /** Called after the models changed. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Takes the cached copy, then fetches `url` unless the cache is fresh
   * (`force`: fetch anyway; url "off": never). Never rejects. A caller asking
   * for the round under way shares it; one asking for another URL (Settings
   * changed meanwhile) or forcing runs after it.
   */
  refresh(url: string, force = false): Promise<RefreshResult> {
    if (this.running !== null && this.runningUrl === url && !force) return this.running;
    const round: Promise<RefreshResult> = (this.running ?? Promise.resolve())
      .then(() => this.round(url, force))
      .catch((err: unknown) => ({ ok: false as const, error: `the model catalog could not be updated: ${String(err)}` }));
    this.running = round;
    this.runningUrl = url;
    void round.then(() => {
      if (this.running === round) this.running = null;
    });
    return round;
  }

  private async round(url: string, force: boolean): Promise<RefreshResult> {
    const now = this.options.now ?? Date.now;
    if (this.source === "snapshot") await this.loadCache();
    if (url === "off") return this.settled();
    if (!force && this.fetchedAt !== null && now() - this.fetchedAt < CATALOG_MAX_AGE_MS) return this.settled();
    let catalog: ModelsDevCatalog;
    try {
      catalog = parseModelsDev(await this.download(url), MODELS_DEV_PROVIDERS);
    } catch (err) {
      return { ok: false, error: `the model catalog at ${url} could not be read: ${err instanceof Error ? err.message : String(err)}` };
    }
    this.use(catalog, "fetched", now());
    await this.writeCache({ fetchedAt: now(), url, catalog });
    return this.settled();
  }

  private settled(): RefreshResult {
    return { ok: true, source: this.source, models: this.models().length };
  }

  private use(catalog: ModelsDevCatalog, source: CatalogSource, fetchedAt: number): void {
    this.current = catalogModels(catalog, this.options.providers);
    this.source = source;
    this.fetchedAt = fetchedAt;
    for (const listener of this.listeners) listener();
  }

  private async loadCache(): Promise<void> {
    const file = this.options.cacheFile;
    if (file === null) return;
    try {
      const cached = JSON.parse(await readFile(file, "utf8")) as Partial<CacheFile>;
      if (typeof cached.fetchedAt !== "number") return;
      this.use(parseModelsDev(cached.catalog, MODELS_DEV_PROVIDERS), "cache", cached.fetchedAt);
    } catch {
      // No cache yet, or a damaged one: the snapshot stays, and the next fetch rewrites the file.
    }
  }

  private async writeCache(content: CacheFile): Promise<void> {
    const file = this.options.cacheFile;
    if (file === null) return;
    try {
      await mkdir(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(content));
      await rename(tmp, file);
    } catch {
      // A read-only data folder costs the cache, not the catalog just fetched.
    }
  }

  private async download(url: string): Promise<unknown> {
    const fetchImpl = this.options.fetch?.() ?? globalThis.fetch;
    const res = await fetchImpl(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? CATALOG_FETCH_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const text = await readCapped(res, MAX_CATALOG_BYTES);
    try {
      return JSON.parse(text);
    } catch {
      throw new Error("the answer is not JSON");
    }
  }
}

/** The catalog URL in force: the environment's, else the one set in Settings, else models.dev. */
export function catalogUrl(env: Record<string, string | undefined>, setting: string | null | undefined): string {
  const fromEnv = env[MODELS_URL_ENV]?.trim();
  if (fromEnv) return fromEnv;
  return setting ?? MODELS_DEV_URL;
}
