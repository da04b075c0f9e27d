/** Models the host offers (grouped by provider in the switcher) and provider key status. */
import { create } from "zustand";
import type { ModelOption, RequestResult } from "../../../shared/api";
import type { ModelRef } from "../../../shared/protocol";
import { client } from "../api/current";
import { useAppStore } from "./app-store";

export type ProviderStatus = RequestResult<"providers.list">[number];

interface ModelsState {
  models: ModelOption[];
  providers: ProviderStatus[];
  loaded: boolean;
  load(): Promise<void>;
  /** Asks local servers (Ollama, LM Studio) for their installed models; quiet when none answers. */
  refresh(): Promise<void>;
  setApiKey(provider: string, apiKey: string): Promise<boolean>;
}

export const useModelsStore = create<ModelsState>((set) => ({
  models: [],
  providers: [],
  loaded: false,
  async load() {
    try {
      const [models, providers] = await Promise.all([client().call("models.list", {}), client().call("providers.list", {})]);
      set({ models, providers, loaded: true });
    } catch (err) {
      useAppStore.getState().reportError("Could not list models", err);
    }
  },
  async refresh() {
    try {
      set({ models: await client().call("models.refresh", {}) });
    } catch {
      // The list already shown stays; a local server that is down is not an error.
    }
  },
  async setApiKey(provider, apiKey) {
    try {
      const status = await client().call("secrets.setApiKey", { provider, apiKey });
      set((s) => ({ providers: s.providers.map((p) => (p.key === status.key ? status : p)) }));
      // Which models count as configured depends on the keys.
      set({ models: await client().call("models.list", {}) });
      return true;
    } catch (err) {
      useAppStore.getState().reportError("Could not save the API key", err);
      return false;
    }
  },
}));

export function sameModel(a: ModelRef | null | undefined, b: ModelRef | null | undefined): boolean {
  return !!a && !!b && a.provider === b.provider && a.api === b.api && a.id === b.id;
}

export function modelRefOf(m: ModelOption): ModelRef {
  return { provider: m.provider, api: m.api, id: m.id };
}

export interface ProviderGroup {
  provider: string;
  label: string;
  models: ModelOption[];
}

const LOCAL_RANK: Record<NonNullable<ModelOption["local"]>, number> = { installed: 0, notInstalled: 1, unreachable: 1 };

/** Models grouped by provider, configured providers first, a local server's installed models first in its group, order otherwise as listed. */
export function groupModels(models: readonly ModelOption[]): ProviderGroup[] {
  const groups = new Map<string, ProviderGroup>();
  for (const m of models) {
    let g = groups.get(m.provider);
    if (!g) {
      g = { provider: m.provider, label: m.providerLabel, models: [] };
      groups.set(m.provider, g);
    }
    g.models.push(m);
  }
  for (const g of groups.values()) g.models.sort((a, b) => (a.local ? LOCAL_RANK[a.local] : 0) - (b.local ? LOCAL_RANK[b.local] : 0));
  const list = [...groups.values()];
  const configured = (g: ProviderGroup) => (g.models.some((m) => m.configured) ? 0 : 1);
  return list.sort((a, b) => configured(a) - configured(b));
}

/** Why a model cannot run now (no key, local server down or without it), or null when it can. */
export function notReadyReason(m: ModelOption): string | null {
  if (m.local === "unreachable") return "its server is not running";
  if (m.local === "notInstalled") return "the server does not have it installed";
  if (!m.configured) return m.api === "bedrock-converse-stream" ? "its AWS credentials are missing" : "its API key is missing";
  return null;
}

export interface PickerGroup extends ProviderGroup {
  /** False for the section below: models that cannot run now. */
  ready: boolean;
}

/**
 * The switcher's sections: models that can run now, grouped by provider, then
 * the ones that cannot (key missing, local server down or without the model),
 * grouped the same way under them. Rows are numbered in this order.
 */
export function pickerGroups(models: readonly ModelOption[]): PickerGroup[] {
  const ready = groupModels(models.filter((m) => notReadyReason(m) === null)).map((g) => ({ ...g, ready: true }));
  const rest = groupModels(models.filter((m) => notReadyReason(m) !== null)).map((g) => ({ ...g, ready: false }));
  return [...ready, ...rest];
}

/** Label for a model reference: the registry's name when known, else its id. */
export function modelLabel(models: readonly ModelOption[], ref: ModelRef | null | undefined): string {
  if (!ref) return "No model";
  const found = models.find((m) => sameModel(modelRefOf(m), ref));
  // A model the catalog no longer offers (the demo once a key is set): named by its stored ref.
  return found ? found.name : `${ref.provider}/${ref.id}`;
}

/** What the composer needs to know of the model a message goes to. */
export function composerModel(
  models: readonly ModelOption[],
  ref: ModelRef | null | undefined,
): { name: string; acceptsImages: boolean } | null {
  const m = ref ? models.find((o) => sameModel(o, ref)) : undefined;
  return m ? { name: m.name, acceptsImages: m.input.includes("image") } : null;
}

/** What a model without credentials lacks, in its provider's terms: Bedrock signs with AWS credentials, not an API key. */
export function missingCredential(model: Pick<ModelOption, "api">): string {
  return model.api === "bedrock-converse-stream" ? "AWS credentials missing" : "key missing";
}
