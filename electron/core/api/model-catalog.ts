/**
 * The models and providers this workbench offers: the catalog (kept current
 * by the live catalog, else the bundled snapshot), the local examples and the
 * demo, extras (custom models), and what each provider's own models endpoint
 * lists, with base URLs from settings applied.
 */
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import type { AssistantMessage, ModelRef } from "../../../shared/protocol";
import type { ResolvedModel } from "../agent/ports";
import { streamModel } from "../providers";
import { inferenceProfileModel } from "../providers/catalog/build-models";
import type { LiveCatalog } from "../providers/catalog/live-catalog";
import { discoveredModel, isLocalServer, listServerModels } from "../providers/local-models";
import { listedModelInfo, listProviderModels } from "../providers/provider-models";
import { listProviders, snapshotCatalogModels, usageWithCost, withBuiltIns } from "../providers/registry";
import type { LlmContext, StreamEvent, StreamOptions } from "../providers/types";

export interface CatalogOptions {
  extraProviders: ProviderConfig[];
  extraModels: ModelInfo[];
  /** Base URL per provider key (overrides, then user settings). */
  baseUrls(): Record<string, string>;
  /** Whether the offline demo server runs; without it the demo model is hidden. */
  demo: boolean;
  /** The fetch for provider calls (network settings applied), or undefined for the runtime's own. */
  fetch?(): typeof globalThis.fetch | undefined;
  /** The idle-stream timeout of every call (default: the adapters', 120 s); tests shorten it. */
  idleTimeoutMs?: number;
  /** The catalog kept current at run time; absent: the bundled snapshot. */
  live?: LiveCatalog;
}

/** Whether a provider can be asked now, and with which key (cloud providers: only once their key is set). */
export interface ProviderAccess {
  ready(provider: ProviderConfig): boolean;
  apiKey(provider: ProviderConfig): string | null;
}

/** SDKs insist on a key; keyless servers (Ollama, LM Studio, the demo) ignore it. */
const NO_KEY = "no-key-needed";

export class ModelCatalog {
  /** The provider with its base URL applied, kept while the URL stays the same: per-provider caches key on the object. */
  private readonly withUrl = new Map<ProviderConfig, { url: string; provider: ProviderConfig }>();
  /** Per provider key: the models its endpoint listed when last asked (local servers: all of them; others: those the catalog lacks). */
  private readonly discovered = new Map<string, ModelInfo[]>();
  /** Per local server: whether it answered when last asked (absent: not asked yet). */
  private readonly reachable = new Map<string, boolean>();
  private discovering: Promise<void> | null = null;
  /** The built-in models and an index of them, for the catalog array they were made from. */
  private builtIn: { from: readonly ModelInfo[]; list: ModelInfo[]; byKey: Map<string, ModelInfo> } | null = null;

  constructor(private readonly options: CatalogOptions) {}

  private builtIns(): { list: ModelInfo[]; byKey: Map<string, ModelInfo> } {
    const from = this.options.live?.models() ?? snapshotCatalogModels();
    if (this.builtIn?.from !== from) {
      const list = withBuiltIns(from);
      this.builtIn = { from, list, byKey: new Map(list.map((m) => [modelKey(m), m])) };
    }
    return this.builtIn;
  }

  providers(): ProviderConfig[] {
    const extra = new Map(this.options.extraProviders.map((p) => [p.key, p]));
    const all = [...listProviders().filter((p) => !extra.has(p.key)), ...extra.values()];
    const urls = this.options.baseUrls();
    return all.filter((p) => this.options.demo || p.key !== "demo").map((p) => (urls[p.key] ? { ...p, baseUrl: urls[p.key] } : p));
  }

  /** `providers().find(...)` without building the whole list (the loop asks once per request). */
  provider(key: string): ProviderConfig | undefined {
    if (!this.options.demo && key === "demo") return undefined;
    const p = this.options.extraProviders.find((e) => e.key === key) ?? listProviders().find((b) => b.key === key);
    if (p === undefined) return undefined;
    const url = this.options.baseUrls()[key];
    if (!url) return p;
    const kept = this.withUrl.get(p);
    if (kept?.url === url) return kept.provider;
    const provider = { ...p, baseUrl: url };
    this.withUrl.set(p, { url, provider });
    return provider;
  }

  /** Catalog and extra models, then what providers' endpoints listed that neither has. */
  models(): ModelInfo[] {
    const keys = new Set(this.options.extraModels.map(modelKey));
    const providers = new Set(this.providers().map((p) => p.key));
    const known = [...this.builtIns().list.filter((m) => !keys.has(modelKey(m))), ...this.options.extraModels];
    const knownKeys = new Set(known.map(modelKey));
    const listed = [...this.discovered.values()].flat().filter((m) => !knownKeys.has(modelKey(m)));
    return [...known, ...listed].filter((m) => providers.has(m.provider));
  }

  /**
   * `models().find(...)`: an extra model wins over a catalog one with the same
   * ref; its provider must be offered. A Bedrock inference profile resolves to
   * its foundation model. Any other id on the provider's own api resolves as a
   * model the catalog does not know (a session keeps a model its provider
   * listed across restarts, and while a local server is down).
   */
  find(ref: ModelRef): ModelInfo | undefined {
    const same = (m: ModelInfo) => m.provider === ref.provider && m.api === ref.api && m.id === ref.id;
    const { list, byKey } = this.builtIns();
    const model =
      this.options.extraModels.find(same) ?? byKey.get(modelKey(ref)) ?? inferenceProfileModel(list, ref.provider, ref.api, ref.id);
    if (model !== undefined) return this.provider(model.provider) !== undefined ? model : undefined;
    const provider = this.provider(ref.provider);
    if (provider === undefined || provider.api !== ref.api || provider.key === "demo") return undefined;
    const listed = this.discovered.get(provider.key)?.find(same);
    if (listed) return listed;
    return isLocalServer(provider) ? discoveredModel(provider, ref.id) : listedModelInfo(provider, { id: ref.id });
  }

  /**
   * The model behind a stored step, for review and replay: as `find` has it,
   * else as the bundle knew it (the demo model when the demo is not running,
   * a model the catalog dropped), else an assumed model on the ref's provider
   * and api. A stored session stays inspectable whatever the catalog says today.
   */
  forStoredRef(ref: ModelRef): { model: ModelInfo; provider: ProviderConfig } | undefined {
    const found = this.find(ref);
    const offered = found && this.provider(found.provider);
    if (found && offered) return { model: found, provider: offered };
    const provider = this.options.extraProviders.find((e) => e.key === ref.provider) ?? listProviders().find((b) => b.key === ref.provider);
    if (provider === undefined || provider.api !== ref.api) return undefined;
    const model = this.builtIns().byKey.get(modelKey(ref)) ?? listedModelInfo(provider, { id: ref.id });
    return { model, provider: this.provider(provider.key) ?? provider };
  }

  /**
   * Asks every local server, and every other provider that `access` says is
   * ready, for its models (concurrent callers share one round). A provider
   * that cannot be asked lists nothing until asked again.
   */
  discoverModels(access: ProviderAccess): Promise<void> {
    const fetch = this.options.fetch?.();
    this.discovering ??= Promise.all(
      this.providers()
        .filter((p) => p.key !== "demo" && (isLocalServer(p) || access.ready(p)))
        .map(async (provider) => {
          try {
            if (isLocalServer(provider)) {
              this.discovered.set(provider.key, await listServerModels(provider));
              this.reachable.set(provider.key, true);
              return;
            }
            const listed = await listProviderModels(provider, { apiKey: access.apiKey(provider), ...(fetch ? { fetch } : {}) });
            const { byKey } = this.builtIns();
            const unknown = listed.filter((m) => !byKey.has(modelKey({ provider: provider.key, api: provider.api, id: m.id })));
            this.discovered.set(
              provider.key,
              unknown.map((m) => listedModelInfo(provider, m)),
            );
          } catch {
            this.discovered.delete(provider.key);
            if (isLocalServer(provider)) this.reachable.set(provider.key, false);
          }
        }),
    ).then(() => {
      this.discovering = null;
    });
    return this.discovering;
  }

  stream(resolved: ResolvedModel, context: LlmContext, options: Omit<StreamOptions, "apiKey">): AsyncIterable<StreamEvent> {
    const fetch = this.options.fetch?.();
    return streamModel(resolved.model, resolved.provider, context, {
      ...options,
      apiKey: resolved.apiKey ?? NO_KEY,
      ...(fetch ? { fetch } : {}),
      ...(this.options.idleTimeoutMs !== undefined ? { idleTimeoutMs: this.options.idleTimeoutMs } : {}),
    });
  }

  /** For a local server's model, once the server was asked: listed by it, not listed, or the server did not answer. */
  localAvailability(model: ModelInfo): "installed" | "notInstalled" | "unreachable" | undefined {
    const answered = this.reachable.get(model.provider);
    if (answered === undefined) return undefined;
    if (!answered) return "unreachable";
    return this.discovered.get(model.provider)?.some((m) => m.api === model.api && m.id === model.id) ? "installed" : "notInstalled";
  }

  /** Cost from this catalog's prices (custom models may price differently from the bundle). */
  withCost(model: ModelInfo, message: AssistantMessage): AssistantMessage {
    return { ...message, usage: usageWithCost(model, message.usage) };
  }
}

function modelKey(m: ModelRef): string {
  return `${m.provider}\u0000${m.api}\u0000${m.id}`;
}
