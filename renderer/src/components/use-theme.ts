/** Dark or light: the user's setting, or the system's when the setting is "system". */
import { useEffect, useSyncExternalStore } from "react";
import { useSettingsStore } from "../stores/settings-store";

const query = typeof window !== "undefined" ? window.matchMedia("(prefers-color-scheme: dark)") : null;

function subscribe(cb: () => void): () => void {
  query?.addEventListener("change", cb);
  return () => query?.removeEventListener("change", cb);
}

export function useSystemDark(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => query?.matches ?? false,
    () => false,
  );
}

export function useDarkMode(): boolean {
  const theme = useSettingsStore((s) => s.settings?.theme ?? "system");
  const systemDark = useSystemDark();
  return theme === "system" ? systemDark : theme === "dark";
}

/** Puts the effective theme on <html> for the CSS variables. */
export function useApplyTheme(): void {
  const dark = useDarkMode();
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? "dark" : "light";
  }, [dark]);
}
