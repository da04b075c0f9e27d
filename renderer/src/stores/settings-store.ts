/** Settings from the core (default model, approval policy, budgets, base URLs, theme). */
import { create } from "zustand";
import type { Settings } from "../../../shared/api";
import type { ModelRef } from "../../../shared/protocol";
import { client } from "../api/current";
import { useAppStore } from "./app-store";
import { useModelsStore } from "./models-store";

interface SettingsState {
  settings: Settings | null;
  load(): Promise<void>;
  update(patch: Partial<Settings>): Promise<boolean>;
}

export const useSettingsStore = create<SettingsState>((set) => ({
  settings: null,
  async load() {
    try {
      set({ settings: await client().call("settings.get", {}) });
    } catch (err) {
      useAppStore.getState().reportError("Could not load settings", err);
    }
  },
  async update(patch) {
    try {
      set({ settings: await client().call("settings.update", patch) });
      // Base URLs (and what depends on them) live in the provider details too: read them again after a save.
      if (patch.baseUrls !== undefined) void useModelsStore.getState().load();
      return true;
    } catch (err) {
      useAppStore.getState().reportError("Could not save settings", err);
      return false;
    }
  },
}));

/** The model a new session gets: the one set in Settings, else what the core picks (the demo with --demo). */
export function useDefaultModel(): ModelRef | null {
  const fromSettings = useSettingsStore((s) => s.settings?.defaultModel ?? null);
  const fromCore = useAppStore((s) => s.info?.defaultModel ?? null);
  return fromSettings ?? fromCore;
}
