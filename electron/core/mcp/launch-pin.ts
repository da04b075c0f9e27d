/**
 * What trusting a workspace MCP server pins (docs/mcp-trust.md): the entry
 * itself, and the workspace files it runs. A server entry names its code
 * (`node tools/server.mjs`), and an approved command can rewrite that code;
 * trust must then lapse, so the fingerprint covers the code's content:
 *
 * - every argument (and the command, and the value of `--opt=value`) that
 *   names a path inside the workspace, resolved against the server's cwd:
 *   its content when it is a file, "missing" when it is not there yet;
 * - the whole folder of each such file (not the workspace root's), sub-folders
 *   included but `node_modules` and `.git` left out, up to PIN_MAX_FILES files
 *   and PIN_MAX_BYTES; past that only the named file is pinned, and a note says so;
 * - the package manifest and lockfiles in the nearest folder, from the file's
 *   up to the workspace root, that has one (`package.json`, `pyproject.toml`…).
 *
 * Files are read through the tools' sandbox (a link leading out of the
 * workspace is recorded as such, never followed; a FIFO is never opened).
 * What cannot be pinned is said in `notes`: code fetched at start (`npx pkg`),
 * files outside the workspace, a remote server.
 *
 * Contract: never throws; anything unreadable is recorded as its reason.
 */
import { createHash } from "node:crypto";
import { isAbsolute, posix, relative, resolve, sep } from "node:path";
import { Sandbox, isInside, joinRel, type ResolvedPath } from "../tools/sandbox";
import type { McpServerEntry } from "./config";

export const PIN_MAX_FILES = 500;
export const PIN_MAX_BYTES = 8 * 1024 * 1024;
const SKIPPED_DIRS = new Set(["node_modules", ".git"]);
const MANIFESTS = [
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lockb",
  "pyproject.toml",
  "requirements.txt",
  "uv.lock",
  "poetry.lock",
  "Pipfile.lock",
  "Cargo.toml",
  "Cargo.lock",
  "go.mod",
  "go.sum",
  "deno.json",
  "deno.lock",
];
/** Runners that fetch the server's code from a registry when it starts. */
const FETCHING_RUNNERS = new Set(["npx", "pnpx", "bunx", "uvx", "pipx", "yarn", "pnpm", "deno"]);

export interface LaunchPin {
  /** sha256 over the entry and what its files hold: what trust stores. */
  fingerprint: string;
  /** sha256 over the entry alone (to tell the user which part changed). */
  configHash: string;
  /** Workspace-relative path → "sha256:<hex>", "missing" or why it could not be read. */
  files: Record<string, string>;
  /** What is not pinned, in words. */
  notes: string[];
}

/** JSON with sorted object keys, so equal values give equal hashes. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** sha256 over the server's name and its whole configuration as written in the file. */
export function configHash(entry: McpServerEntry): string {
  return sha256(canonical({ name: entry.name, config: entry.config }));
}

function finish(entry: McpServerEntry, files: Record<string, string>, notes: string[]): LaunchPin {
  const config = configHash(entry);
  return { fingerprint: sha256(canonical({ config, files })), configHash: config, files, notes };
}

/** The pin of an entry. Only workspace entries pin files: the user's own servers need no trust. */
export async function pinLaunch(entry: McpServerEntry, workspaceRoot: string): Promise<LaunchPin> {
  const { config } = entry;
  if (entry.source !== "workspace") return finish(entry, {}, []);
  if (config.transport === "http") return finish(entry, {}, ["a remote server: what runs behind its URL is not pinned"]);
  const sandbox = await Sandbox.open(workspaceRoot);
  if (!sandbox.ok) return finish(entry, {}, [`the workspace cannot be read: ${sandbox.error.message}`]);
  const pinner = new Pinner(sandbox.value);
  await pinner.pinEntry(config.command, config.args, config.cwd);
  return finish(entry, pinner.files, pinner.notes);
}

class Pinner {
  readonly files: Record<string, string> = {};
  readonly notes: string[] = [];
  private bytes = 0;

  constructor(private readonly sandbox: Sandbox) {}

  async pinEntry(command: string, args: readonly string[], cwd: string | undefined): Promise<void> {
    if (cwd?.includes("${")) this.notes.push("its cwd reads your environment: files are looked up from the workspace root");
    const base = cwd && !cwd.includes("${") ? resolve(this.sandbox.givenRoot, cwd) : this.sandbox.givenRoot;
    const candidates = [command, ...args, ...args.flatMap((a) => (/^--?[\w-]+=/.test(a) ? [a.slice(a.indexOf("=") + 1)] : []))];
    const named: ResolvedPath[] = [];
    for (const candidate of candidates) {
      if (candidate === "" || candidate.startsWith("-") || candidate.includes("${")) continue;
      // A bare word is a program on PATH (the command) or a plain argument.
      const pathLike = candidate.includes("/") || /\.\w+$/.test(candidate);
      if (candidate === command && !candidate.includes("/")) continue;
      const abs = isAbsolute(candidate) ? resolve(candidate) : resolve(base, candidate);
      const inside = isInside(this.sandbox.givenRoot, abs) || isInside(this.sandbox.root, abs);
      if (!inside) {
        if (pathLike) this.notes.push(`${candidate} is outside the workspace: not pinned`);
        continue;
      }
      const rel = relative(isInside(this.sandbox.givenRoot, abs) ? this.sandbox.givenRoot : this.sandbox.root, abs)
        .split(sep)
        .join("/");
      if (rel === "") continue;
      const resolved = await this.sandbox.resolve(rel);
      if (!resolved.ok) {
        this.files[rel] = `refused: ${resolved.error.message}`;
        continue;
      }
      if (resolved.value.kind === "missing") {
        // Recorded, so a script created after trust is not run unreviewed.
        if (pathLike) this.files[rel] = "missing";
        continue;
      }
      if (resolved.value.kind === "file") {
        await this.pinFile(resolved.value);
        named.push(resolved.value);
      }
    }
    if (named.length === 0 && FETCHING_RUNNERS.has(posix.basename(command)))
      this.notes.push(`${command} fetches the server's code when it starts: that code is not pinned`);
    for (const file of named) {
      await this.pinFolder(posix.dirname(file.rel));
      await this.pinManifests(posix.dirname(file.rel));
    }
    if (named.length > 0) this.notes.push("code the server loads from outside these files is not pinned");
  }

  private async pinFile(file: ResolvedPath): Promise<void> {
    if (this.files[file.rel]?.startsWith("sha256:")) return;
    const read = await this.sandbox.readCapped(file, PIN_MAX_BYTES);
    if (!read.ok) {
      this.files[file.rel] = `refused: ${read.error.message}`;
      return;
    }
    this.bytes += read.value.data.length;
    const cut = read.value.size > PIN_MAX_BYTES ? `cut at ${PIN_MAX_BYTES} of ${read.value.size}:` : "";
    this.files[file.rel] = `sha256:${cut}${sha256(read.value.data)}`;
  }

  /** The folder of a named file, unless it is the workspace root; all of it or, past the limits, none of it but a note. */
  private async pinFolder(dir: string): Promise<void> {
    if (dir === ".") return;
    const found: ResolvedPath[] = [];
    const refused: Record<string, string> = {};
    if (!(await this.collect(dir, found, refused, { bytes: this.bytes }))) {
      this.notes.push(
        `${dir}/ holds more than ${PIN_MAX_FILES} files or ${PIN_MAX_BYTES / 1024 / 1024} MB: only the files named are pinned`,
      );
      return;
    }
    Object.assign(this.files, refused);
    for (const file of found) await this.pinFile(file);
  }

  /** Lists the files under `dir` (links resolved by the sandbox, inside the workspace only); false past the limits. */
  private async collect(dir: string, found: ResolvedPath[], refused: Record<string, string>, total: { bytes: number }): Promise<boolean> {
    const resolved = await this.sandbox.resolve(dir);
    if (!resolved.ok || resolved.value.kind !== "directory") return true;
    const listed = await this.sandbox.readDir(resolved.value);
    if (!listed.ok) return true;
    for (const entry of listed.value.sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = joinRel(dir, entry.name);
      if (entry.kind === "directory") {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        if (!(await this.collect(rel, found, refused, total))) return false;
        continue;
      }
      if (entry.kind === "other") {
        refused[rel] = "not a regular file";
        continue;
      }
      const file = await this.sandbox.resolve(rel);
      if (!file.ok) {
        refused[rel] = `refused: ${file.error.message}`;
        continue;
      }
      // A link to a folder is not walked: what it holds is outside this folder's tree.
      if (file.value.kind !== "file") continue;
      found.push(file.value);
      total.bytes += file.value.stats?.size ?? 0;
      if (found.length > PIN_MAX_FILES || total.bytes > PIN_MAX_BYTES) return false;
    }
    return true;
  }

  /** The manifests of the nearest folder, from `dir` up to the workspace root, that has one. */
  private async pinManifests(dir: string): Promise<void> {
    for (let cur = dir; ; cur = posix.dirname(cur)) {
      let any = false;
      for (const name of MANIFESTS) {
        const rel = cur === "." ? name : `${cur}/${name}`;
        const resolved = await this.sandbox.resolve(rel);
        if (!resolved.ok) {
          this.files[rel] = `refused: ${resolved.error.message}`;
          any = true;
        } else if (resolved.value.kind === "file") {
          await this.pinFile(resolved.value);
          any = true;
        }
      }
      if (any || cur === ".") return;
    }
  }
}
