/**
 * Layering rules of docs/architecture.md#layers, checked on import specifiers.
 * Used by `npm run lint:layers` and by test/layers.test.ts.
 */
import { builtinModules } from "node:module";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export interface LayerViolation {
  file: string;
  specifier: string;
  rule: string;
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isNodeBuiltin = (s: string) => NODE_BUILTINS.has(s) || s.startsWith("node:");
const isElectron = (s: string) => s === "electron" || s.startsWith("electron/");
/** Libraries shared/ may use: pure, no Node or DOM. */
const SHARED_ALLOWED_PACKAGES = new Set(["zod"]);

type Layer = "shared" | "core" | "shell" | "renderer" | "other";

/**
 * The order inside the core, top to bottom: a folder may import its own rank
 * and below, never above. The web host and the API (request table, handlers,
 * composition root) drive the agent; the agent drives tools, providers and the
 * store. Folders not named here (helpers such as process/, network/) are free.
 */
const CORE_RANKS: Record<string, number> = { web: 3, api: 3, agent: 2, tools: 1, providers: 1, store: 1 };
const rankName = (rank: number) =>
  Object.keys(CORE_RANKS)
    .filter((k) => CORE_RANKS[k] === rank)
    .join("/");

/** The rank of a core file by its first folder under electron/core/ (undefined: unranked). */
function coreRank(relPath: string): number | undefined {
  const m = /^electron\/core\/([^/]+)\//.exec(relPath.split(sep).join("/"));
  return m ? CORE_RANKS[m[1]] : undefined;
}

function layerOf(relPath: string): Layer {
  const p = relPath.split(sep).join("/");
  if (p.startsWith("shared/")) return "shared";
  if (p.startsWith("electron/main/") || p.startsWith("electron/preload/")) return "shell";
  if (p.startsWith("electron/")) return "core";
  if (p.startsWith("renderer/")) return "renderer";
  return "other";
}

function importsOf(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** Checks one file's imports against its layer's rules. */
export function checkFile(root: string, file: string, source: string): LayerViolation[] {
  const rel = relative(root, file);
  const layer = layerOf(rel);
  const out: LayerViolation[] = [];
  for (const spec of importsOf(source)) {
    const bad = (rule: string) => out.push({ file: rel, specifier: spec, rule });
    const isRelative = spec.startsWith(".");
    const target = isRelative ? layerOf(relative(root, resolve(file, "..", spec))) : null;
    switch (layer) {
      case "shared":
        if (isElectron(spec)) bad("shared/ must not import electron");
        else if (isNodeBuiltin(spec)) bad("shared/ must not import Node built-ins");
        else if (isRelative && target !== "shared") bad("shared/ may import only shared/");
        else if (!isRelative && !SHARED_ALLOWED_PACKAGES.has(spec.split("/")[0]))
          bad(`shared/ may import only ${[...SHARED_ALLOWED_PACKAGES].join(", ")}`);
        break;
      case "core": {
        if (isElectron(spec)) bad("the core must never import electron");
        else if (isRelative && (target === "shell" || target === "renderer")) bad("the core must not import the shell or the renderer");
        else if (isRelative && target === "core") {
          const from = coreRank(rel);
          const to = coreRank(relative(root, resolve(file, "..", spec)));
          if (from !== undefined && to !== undefined && to > from)
            bad(`${rankName(from)} sits below ${rankName(to)} in the core: it must not import it (docs/architecture.md#layers)`);
        }
        break;
      }
      case "renderer":
        if (isElectron(spec)) bad("renderer/ must not import electron");
        else if (isNodeBuiltin(spec)) bad("renderer/ must not import Node built-ins");
        else if (isRelative && (target === "core" || target === "shell")) bad("renderer/ may import only renderer/ and shared/");
        break;
      default:
        break;
    }
  }
  return out;
}

function walk(dir: string, acc: string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return acc;
  }
  for (const name of names) {
    if (name === "node_modules" || name === "out" || name.startsWith(".")) continue;
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(full, acc);
    else if (/\.(ts|tsx|mts|cts)$/.test(name) && !/\.test\.tsx?$/.test(name)) acc.push(full);
  }
  return acc;
}

/** Checks every source file under shared/, electron/ and renderer/ of `root`. */
export function checkLayers(root: string): LayerViolation[] {
  const files = ["shared", "electron", "renderer"].flatMap((d) => walk(join(root, d), []));
  return files.flatMap((f) => checkFile(root, f, readFileSync(f, "utf8")));
}
