/**
 * The models and providers this workbench offers: the bundled registry plus
 * extras (custom models, the demo), with base URLs from settings applied.
 */
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import type { AssistantMessage, ModelRef } from "../../../shared/protocol";
import type { ResolvedModel } from "../agent/ports";
import { streamModel } from "../providers";
import { listModels, listProviders, usageWithCost } from "../providers/registry";
import type { LlmContext, StreamEvent, StreamOptions } from "../providers/types";

export interface CatalogOptions {
  extraProviders: ProviderConfig[];
  extraModels: ModelInfo[];
  /** Base URL per provider key (overrides, then user settings). */
  baseUrls(): Record<string, string>;
  /** Whether the offline demo server runs; without it the demo model is hidden. */
  demo: boolean;
}

/** SDKs insist on a key; keyless servers (Ollama, LM Studio, the demo) ignore it. */
const NO_KEY = "no-key-needed";

export class ModelCatalog {
  /** The provider with its base URL applied, kept while the URL stays the same: per-provider caches key on the object. */
  private readonly withUrl = new Map<ProviderConfig, { url: string; provider: ProviderConfig }>();

  constructor(private readonly options: CatalogOptions) {}

  providers(): ProviderConfig[] {
    const extra = new Map(this.options.extraProviders.map((p) => [p.key, p]));
    const all = [...listProviders().filter((p) => !extra.has(p.key)), ...extra.values()];
    const urls = this.options.baseUrls();
    return all
      .filter((p) => this.options.demo || p.key !== "demo")
      .map((p) => (urls[p.key] ? { ...p, baseUrl: urls[p.key] } : p));
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

  models(): ModelInfo[] {
    const keys = new Set(this.options.extraModels.map(modelKey));
    const providers = new Set(this.providers().map((p) => p.key));
    return [...listModels().filter((m) => !keys.has(modelKey(m))), ...this.options.extraModels].filter((m) => providers.has(m.provider));
  }

  /** `models().find(...)`: an extra model wins over a bundled one with the same ref; its provider must be offered. */
  find(ref: ModelRef): ModelInfo | undefined {
    const same = (m: ModelInfo) => m.provider === ref.provider && m.api === ref.api && m.id === ref.id;
    const model = this.options.extraModels.find(same) ?? listModels().find(same);
    return model !== undefined && this.provider(model.provider) !== undefined ? model : undefined;
  }

  stream(resolved: ResolvedModel, context: LlmContext, options: Omit<StreamOptions, "apiKey">): AsyncIterable<StreamEvent> {
    return streamModel(resolved.model, resolved.provider, context, { ...options, apiKey: resolved.apiKey ?? NO_KEY });
  }

  /** Cost from this catalog's prices (custom models may price differently from the bundle). */
  withCost(model: ModelInfo, message: AssistantMessage): AssistantMessage {
    return { ...message, usage: usageWithCost(model, message.usage) };
  }
}

function modelKey(m: ModelInfo): string {
  return `${m.provider}\u0000${m.api}\u0000${m.id}`;
}
