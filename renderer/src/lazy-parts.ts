/**
 * Parts of the app that no first paint shows, each its own chunk: the app's
 * script the browser must parse and run before the first paint stays smaller.
 * They are fetched when the browser is idle after start (preloadLazyParts),
 * so opening one later does not wait for the network either.
 */
import { lazy } from "react";

const settings = () => import("./components/dialogs/settings-dialog");
const rewind = () => import("./components/rewind/rewind-dialog");
const changes = () => import("./components/review/changes-view");

export const SettingsDialog = lazy(() => settings().then((m) => ({ default: m.SettingsDialog })));
export const RewindDialog = lazy(() => rewind().then((m) => ({ default: m.RewindDialog })));
export const ChangesView = lazy(() => changes().then((m) => ({ default: m.ChangesView })));

let preloaded = false;

/** Fetches (and evaluates) the lazy parts once the page is idle; a failure is retried when a part is opened. */
export function preloadLazyParts(): void {
  if (preloaded) return;
  preloaded = true;
  const run = () => {
    for (const load of [settings, rewind, changes]) load().catch(() => undefined);
  };
  if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: 3000 });
  else setTimeout(run, 1000);
}
