/**
 * The models and providers this workbench offers: the bundled registry plus
 * extras (custom models, the demo) and the models local servers list, with
 * base URLs from settings applied.
 */
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import type { AssistantMessage, ModelRef } from "../../../shared/protocol";
import type { ResolvedModel } from "../agent/ports";
import { streamModel } from "../providers";
import { discoveredModel, isLocalServer, listServerModels } from "../providers/local-models";
import { listModels, listProviders, usageWithCost } from "../providers/registry";
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
}

/** SDKs insist on a key; keyless servers (Ollama, LM Studio, the demo) ignore it. */
const NO_KEY = "no-key-needed";

export class ModelCatalog {
  /** The provider with its base URL applied, kept while the URL stays the same: per-provider caches key on the object. */
  private readonly withUrl = new Map<ProviderConfig, { url: string; provider: ProviderConfig }>();
  /** Per local server (provider key): the models it listed when last asked. */
  private readonly discovered = new Map<string, ModelInfo[]>();
  /** Per local server: whether it answered when last asked (absent: not asked yet). */
  private readonly reachable = new Map<string, boolean>();
  private discovering: Promise<void> | null = null;

  constructor(private readonly options: CatalogOptions) {}

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

  /** Bundled and extra models, then what local servers listed that neither has. */
  models(): ModelInfo[] {
    const keys = new Set(this.options.extraModels.map(modelKey));
    const providers = new Set(this.providers().map((p) => p.key));
    const known = [...listModels().filter((m) => !keys.has(modelKey(m))), ...this.options.extraModels];
    const knownKeys = new Set(known.map(modelKey));
    const listed = [...this.discovered.values()].flat().filter((m) => !knownKeys.has(modelKey(m)));
    return [...known, ...listed].filter((m) => providers.has(m.provider));
  }

  /**
   * `models().find(...)`: an extra model wins over a bundled one with the same
   * ref; its provider must be offered. Any id of a local server resolves (a
   * session keeps its model while the server is down or before it was asked).
   */
  find(ref: ModelRef): ModelInfo | undefined {
    const same = (m: ModelInfo) => m.provider === ref.provider && m.api === ref.api && m.id === ref.id;
    const model = this.options.extraModels.find(same) ?? listModels().find(same);
    if (model !== undefined) return this.provider(model.provider) !== undefined ? model : undefined;
    const provider = this.provider(ref.provider);
    if (provider === undefined || !isLocalServer(provider) || provider.api !== ref.api) return undefined;
    return this.discovered.get(provider.key)?.find(same) ?? discoveredModel(provider, ref.id);
  }

  /**
   * Asks every local server for its models (concurrent callers share one
   * round). A server that cannot be reached lists nothing until asked again.
   */
  discoverLocalModels(): Promise<void> {
    this.discovering ??= Promise.all(
      this.providers()
        .filter(isLocalServer)
        .map(async (provider) => {
          try {
            this.discovered.set(provider.key, await listServerModels(provider));
            this.reachable.set(provider.key, true);
          } catch {
            this.discovered.delete(provider.key);
            this.reachable.set(provider.key, false);
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

function modelKey(m: ModelInfo): string {
  return `${m.provider}\u0000${m.api}\u0000${m.id}`;
}
