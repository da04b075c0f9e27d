/**
 * The bundled models.dev snapshot (README.md next to it: source, commit,
 * licence), parsed once: the catalog the app starts with and falls back to.
 */
import snapshot from "./models-dev-snapshot.json" with { type: "json" };
import { parseModelsDev, type ModelsDevCatalog } from "./models-dev";
import { MODELS_DEV_PROVIDERS } from "./overrides";

let parsed: ModelsDevCatalog | undefined;

export function bundledCatalog(): ModelsDevCatalog {
  parsed ??= parseModelsDev(snapshot, MODELS_DEV_PROVIDERS);
  return parsed;
}
