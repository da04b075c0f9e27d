/**
 * The one reader for files that reach the prompt without a tool call:
 * AGENTS.md / CLAUDE.md (the workspace's, nested ones, the user's own),
 * prompt-command templates and @-mentions (docs/prompt-files.md). It is the
 * read tool's sandbox (tools/sandbox.ts) rooted at the workspace, or at the
 * user's config folder for the user's own files, so these files pass exactly
 * the read tool's checks:
 *
 * - a symbolic link anywhere on the path is followed only while its real path
 *   stays inside the root; one that leads out is refused;
 * - regular files only: a FIFO, socket or device is refused from its lstat,
 *   and the file is opened with O_NOFOLLOW | O_NONBLOCK and its descriptor
 *   fstat-ed and proven to be the checked file before a byte is read, so a
 *   pipe swapped in meanwhile cannot block the core;
 * - the bytes are read off the main thread and capped (cut, or refused).
 *
 * Contract: nothing here throws; a file that cannot be used comes back with
 * the reason, saying whether it is simply absent.
 */
import { join } from "node:path";
import type { DirEntry } from "../tools/dir-handle";
import { Sandbox } from "../tools/sandbox";
import type { ToolError } from "../tools/types";

export type PromptFileScope = "workspace" | "user";

export interface PromptFile {
  /** Where it was read, as shown to the model and the user: workspace-relative (where a link inside led), or absolute for the user's own files. */
  path: string;
  /** The path as asked for, shown the same way. */
  asked: string;
  /** The first bytes, up to the cap. */
  data: Buffer;
  /** Its size on disk. */
  bytes: number;
  truncated: boolean;
}

export type PromptFileRead =
  | { ok: true; file: PromptFile }
  /** `missing`: there is no such file (or a folder of that name): nothing to report. */
  | { ok: false; missing: boolean; path: string; reason: string };

export interface PromptFileLimit {
  maxBytes: number;
  /** "cut": the first `maxBytes` (instruction files); "refuse": a larger file is not used at all (templates, mentions). */
  over: "cut" | "refuse";
}

const ABSENT = new Set(["NOT_FOUND", "IS_DIRECTORY", "NOT_A_DIRECTORY"]);

export class PromptFileReader {
  private constructor(
    private readonly sandbox: Sandbox,
    readonly scope: PromptFileScope,
    /** The root as given (absolute): the user's files are shown under it. */
    private readonly given: string,
  ) {}

  /** A reader rooted at `root`, or null when that folder does not exist or is not a folder. */
  static async open(root: string, scope: PromptFileScope): Promise<PromptFileReader | null> {
    const sandbox = await Sandbox.open(root);
    return sandbox.ok ? new PromptFileReader(sandbox.value, scope, sandbox.value.givenRoot) : null;
  }

  /** The real path of the root: the boundary. */
  get root(): string {
    return this.sandbox.root;
  }

  /** How a root-relative path is shown. */
  label(rel: string): string {
    return this.scope === "user" ? join(this.given, rel) : rel;
  }

  async read(rel: string, limit: PromptFileLimit): Promise<PromptFileRead> {
    const resolved = await this.sandbox.resolve(rel);
    if (!resolved.ok) return this.refusal(this.label(rel), resolved.error);
    // Shown in normal form (`./a/../b.md` is `b.md`), where a link inside the root led.
    const path = this.label(resolved.value.rel);
    if (resolved.value.kind !== "file") return { ok: false, missing: true, path, reason: "no such file" };
    const max = limit.over === "refuse" ? limit.maxBytes + 1 : limit.maxBytes;
    const read = await this.sandbox.readCapped(resolved.value, max);
    if (!read.ok) return this.refusal(path, read.error);
    const { data, size } = read.value;
    if (limit.over === "refuse" && size > limit.maxBytes)
      return { ok: false, missing: false, path, reason: `it is ${size} bytes, over the ${limit.maxBytes}-byte limit` };
    return { ok: true, file: { path, asked: this.label(rel), data, bytes: size, truncated: size > limit.maxBytes } };
  }

  /** The entries of a folder under the root, links not followed ([] when there is no such folder or it is refused). */
  async list(rel: string): Promise<DirEntry[]> {
    const resolved = await this.sandbox.resolve(rel);
    if (!resolved.ok || resolved.value.kind !== "directory") return [];
    const listed = await this.sandbox.readDir(resolved.value);
    return listed.ok ? listed.value : [];
  }

  private refusal(path: string, error: ToolError): PromptFileRead {
    // The sandbox names its root "the workspace"; here the root may be the user's config folder.
    const reason = this.scope === "user" ? error.message.replace(/the workspace/g, "your config folder") : error.message;
    return { ok: false, missing: ABSENT.has(error.errorCode), path, reason };
  }
}

/** A prompt file's text: UTF-8 without a BOM, not ending on half a character when it was cut. */
export function promptText(file: PromptFile): string {
  const text = file.data.toString("utf8").replace(/^\uFEFF/, "");
  return file.truncated ? text.replace(/\uFFFD+$/, "") : text;
}
