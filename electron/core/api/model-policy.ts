/**
 * Which models the user can pick and which one a new session gets: the
 * catalogue joined with key readiness, the default-model rule, and the
 * resolution of a session's model to what a request needs (with the error a
 * user can act on when it cannot be used).
 */
import type { ModelOption } from "../../../shared/api";
import { reasoningLevelsFor, type ModelInfo } from "../../../shared/models";
import { ModelRefSchema, type ModelRef } from "../../../shared/protocol";
import type { ResolvedModel } from "../agent/ports";
import { resolveCompat } from "../providers/registry";
import { needsKey, type KeyRing } from "./keys";
import type { ModelCatalog } from "./model-catalog";

export class ModelPolicy {
  constructor(
    private readonly catalog: ModelCatalog,
    private readonly keys: KeyRing,
    /** The user's saved default (Settings), read on each call. */
    private readonly savedDefault: () => ModelRef | null | undefined,
    /** Started with `--demo`: new sessions use the demo model even when a key is in the environment. */
    private readonly preferDemo = false,
    /** Where the model the user last chose is kept (the store's settings table); none: not remembered. */
    private readonly lastChoice?: { get(): unknown; set(ref: ModelRef): void },
  ) {}

  /** The user picked `ref` (switcher, new session, fork): new sessions follow it. */
  remember(ref: ModelRef): void {
    this.lastChoice?.set({ provider: ref.provider, api: ref.api, id: ref.id });
  }

  options(): ModelOption[] {
    const { catalog, keys } = this;
    return catalog.models().map((m) => {
      const provider = catalog.provider(m.provider);
      return {
        ...m,
        configured: provider ? keys.ready(provider) : false,
        providerLabel: provider?.label ?? m.provider,
        reasoningLevels: provider ? reasoningLevelsFor(m, resolveCompat(m, provider)) : [],
        ...this.localOf(m),
      };
    });
  }

  /**
   * The saved default when usable; else the demo with --demo; else the last chosen model when usable;
   * else a configured cloud model, then the demo, then any configured one.
   * `options`: what `options()` just returned, when the caller has it.
   */
  defaultModel(options: ModelOption[] = this.options()): ModelRef | null {
    const wanted = this.savedDefault();
    if (wanted && options.some((m) => m.configured && sameModel(m, wanted))) return wanted;
    const configured = options.filter((m) => m.configured);
    const demo = this.preferDemo ? configured.find((m) => m.demo) : undefined;
    if (demo) return { provider: demo.provider, api: demo.api, id: demo.id };
    // Stored data: anything malformed is ignored, never thrown.
    const last = ModelRefSchema.safeParse(this.lastChoice?.get());
    if (last.success && options.some((m) => m.configured && sameModel(m, last.data))) {
      return { provider: last.data.provider, api: last.data.api, id: last.data.id };
    }
    const real = configured.find((m) => !m.demo && this.catalog.provider(m.provider)?.apiKeyEnv);
    const pick = real ?? configured.find((m) => m.demo) ?? configured[0];
    return pick ? { provider: pick.provider, api: pick.api, id: pick.id } : null;
  }

  resolve(ref: ModelRef): ResolvedModel | { error: string } {
    const model = this.catalog.find(ref);
    if (!model) return { error: `Unknown model ${ref.provider}/${ref.id}. Pick another model in the model switcher.` };
    const provider = this.catalog.provider(model.provider);
    if (!provider) return { error: `Unknown provider ${model.provider}.` };
    const apiKey = this.keys.get(provider);
    if (needsKey(provider) && !apiKey) {
      return { error: `No API key for ${provider.label}. Set ${provider.apiKeyEnv ?? "one"} or add a key in Settings.` };
    }
    return { model, provider, apiKey };
  }

  private localOf(m: ModelInfo): Pick<ModelOption, "local"> {
    const local = this.catalog.localAvailability(m);
    return local === undefined ? {} : { local };
  }
}

function sameModel(a: ModelRef, b: ModelRef): boolean {
  return a.provider === b.provider && a.api === b.api && a.id === b.id;
}
