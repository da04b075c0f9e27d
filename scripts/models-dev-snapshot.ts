/**
 * Writes the bundled models.dev snapshot (electron/core/providers/catalog/
 * models-dev-snapshot.json) from a models.dev checkout: providers/<id>/
 * provider.toml and providers/<id>/models/**.toml, with `base_model` entries
 * merged over models/<base>.toml as models.dev's own build does. The output
 * has the shape of https://models.dev/api.json (what the app fetches at run
 * time), cut to the app's providers and the fields it reads, so one parser
 * serves both.
 *
 * Usage: tsx scripts/models-dev-snapshot.ts <models.dev checkout> <commit>
 * (a bare mirror works through `git archive <commit> providers models | tar -x -C <dir>`).
 * Update the commit in the README next to the snapshot when you run it.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { MODELS_DEV_PROVIDERS } from "../electron/core/providers/catalog/overrides";
import { parseModelsDev } from "../electron/core/providers/catalog/models-dev";
import { parseToml, type TomlTable, type TomlValue } from "./toml-subset";

export const SNAPSHOT_PATH = join("electron", "core", "providers", "catalog", "models-dev-snapshot.json");

/** The model fields the app reads (models-dev.ts); the rest (benchmarks, links, modes…) stays upstream. */
const KEPT = [
  "id",
  "name",
  "family",
  "reasoning",
  "reasoning_options",
  "tool_call",
  "release_date",
  "modalities",
  "limit",
  "status",
  "cost",
];
/** What a model inherits from its base model (models.dev leaves out the id and the base's own documents). */
const NOT_INHERITED = new Set(["id", "benchmarks", "license", "links", "weights"]);

function tomlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return tomlFiles(path);
      return name.endsWith(".toml") ? [path] : [];
    });
}

function readToml(path: string): TomlTable {
  try {
    return parseToml(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

function isTable(v: TomlValue | undefined): v is TomlTable {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Tables merge key by key; anything else (arrays included) is replaced. */
function mergeDeep(base: TomlTable, over: TomlTable): TomlTable {
  const out: TomlTable = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = out[key];
    out[key] = isTable(under) && isTable(value) ? mergeDeep(under, value) : value;
  }
  return out;
}

/** Removes a dotted path, and tables it leaves empty. */
function omit(table: TomlTable, path: string): void {
  const [head, ...rest] = path.split(".");
  if (!(head in table)) return;
  if (rest.length === 0) {
    delete table[head];
    return;
  }
  const child = table[head];
  if (!isTable(child)) return;
  omit(child, rest.join("."));
  if (Object.keys(child).length === 0) delete table[head];
}

function modelEntry(root: string, file: string, modelsDir: string): Record<string, unknown> {
  let model = readToml(file);
  const base = model.base_model;
  if (typeof base === "string") {
    const basePath = join(root, "models", `${base}.toml`);
    if (!existsSync(basePath)) throw new Error(`${file}: base_model ${base} not found`);
    const inherited = Object.fromEntries(Object.entries(readToml(basePath)).filter(([k]) => !NOT_INHERITED.has(k)));
    const { base_model: _base, base_model_omit: omitted, ...own } = model;
    model = mergeDeep(inherited, own);
    if (Array.isArray(omitted)) for (const path of omitted) if (typeof path === "string") omit(model, path);
  }
  const id = relative(modelsDir, file)
    .split(sep)
    .join("/")
    .replace(/\.toml$/, "");
  const out: Record<string, unknown> = { id };
  for (const key of KEPT) if (key !== "id" && model[key] !== undefined) out[key] = model[key];
  return out;
}

export function buildSnapshot(root: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const id of MODELS_DEV_PROVIDERS) {
    const dir = join(root, "providers", id);
    const provider = readToml(join(dir, "provider.toml"));
    const modelsDir = join(dir, "models");
    const models: Record<string, unknown> = {};
    for (const file of tomlFiles(modelsDir)) {
      const model = modelEntry(root, file, modelsDir);
      models[String(model.id)] = model;
    }
    out[id] = { id, name: provider.name, env: provider.env, ...(provider.api ? { api: provider.api } : {}), models };
  }
  return out;
}

function main(): void {
  const [root, commit] = process.argv.slice(2);
  if (!root || !commit) throw new Error("usage: tsx scripts/models-dev-snapshot.ts <models.dev checkout> <commit>");
  const snapshot = buildSnapshot(root);
  // The app's own parser must keep every model the snapshot carries.
  const parsed = parseModelsDev(snapshot, MODELS_DEV_PROVIDERS);
  const written = Object.values(snapshot).reduce<number>((n, p) => n + Object.keys((p as { models: object }).models).length, 0);
  const kept = Object.values(parsed).reduce((n, p) => n + Object.keys(p.models).length, 0);
  if (kept !== written) throw new Error(`the app's parser keeps ${kept} of ${written} models: fix models-dev.ts or the script`);
  writeFileSync(SNAPSHOT_PATH, `${JSON.stringify(snapshot, null, 1)}\n`);
  console.log(`wrote ${SNAPSHOT_PATH}: ${kept} models of ${MODELS_DEV_PROVIDERS.length} providers from models.dev ${commit}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
