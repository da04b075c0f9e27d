/** grep: content search, ripgrep when available, the built-in engine otherwise. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "./context";
import { errors, failure, toolError } from "./errors";
import { grepBuiltin, grepRg, type GrepQuery } from "./grep-engines";
import { formatGrep, type GrepFile, type GrepRaw } from "./grep-format";
import { filterByGlob } from "./glob-match";
import { verifyRgFile } from "./grep-verify";
import { BINARY_SNIFF_BYTES } from "./limits";
import type { ResolvedPath, Sandbox } from "./sandbox";
import type { GrepArgs } from "./schemas";
import { decodeText, looksBinary } from "./text-file";
import type { Result, ToolOutcome } from "./types";

export type GrepEngine = "rg" | "builtin";

export async function runGrep(args: GrepArgs, ctx: ToolContext, engine?: GrepEngine): Promise<ToolOutcome> {
  if (args.pattern.includes("\n") || (!args.literal && /(^|[^\\])\\n/.test(args.pattern))) {
    return failure(
      toolError(
        "INVALID_ARGUMENTS",
        "grep matches one line at a time; the pattern cannot contain a newline.",
        "Search for one line of the text, then read the file around the match.",
      ),
    );
  }
  const resolved = await ctx.sandbox.resolve(args.path ?? ".");
  if (!resolved.ok) return failure(resolved.error);
  const target = resolved.value;
  if (target.kind === "missing") return failure(errors.notFound(args.path ?? "."));
  if (target.kind === "file") {
    const head = await ctx.sandbox.readHead(target, BINARY_SNIFF_BYTES);
    if (!head.ok) return failure(head.error);
    if (looksBinary(head.value)) return failure(errors.binaryFile(target.rel));
  }
  const query: GrepQuery = {
    pattern: args.pattern,
    literal: args.literal ?? false,
    ignoreCase: args.ignoreCase ?? false,
    context: args.context ?? 0,
    include: args.include,
  };
  const use: GrepEngine = engine ?? (ctx.rgPath ? "rg" : "builtin");
  const started = Date.now();
  const raw =
    use === "rg" && ctx.rgPath ? await viaRg(ctx, target, query, ctx.rgPath) : await grepBuiltin(ctx.sandbox, target, query, ctx.signal);
  if (!raw.ok) return failure(raw.error);
  if (ctx.signal.aborted) return failure(errors.aborted());
  // The searched folder must still be the checked one (no swap for a link during the search).
  if (!(await ctx.sandbox.stillAt(target))) return failure(errors.changedDuringUse(target.rel));
  const formatted = formatGrep(raw.value, query.context);
  return {
    ok: true,
    content: [{ type: "text", text: formatted.text }],
    details: {
      pattern: args.pattern,
      path: target.rel,
      engine: use === "rg" && ctx.rgPath ? "rg" : "builtin",
      matches: formatted.matches,
      files: formatted.files,
      truncated: formatted.truncated,
      durationMs: Date.now() - started,
    },
  };
}

async function viaRg(ctx: ToolContext, target: ResolvedPath, q: GrepQuery, rgPath: string): Promise<Result<GrepRaw>> {
  const ancestors = target.kind === "directory" ? await ancestorIgnoreRules(ctx.sandbox, target) : [];
  let tmp: string | null = null;
  const files: string[] = [];
  try {
    // The rules rg gets are the verified copies, never a path in the workspace rg would open itself.
    for (const [i, a] of ancestors.entries()) {
      tmp ??= await mkdtemp(join(tmpdir(), "awb-rg-"));
      const file = join(tmp, `ignore-${i}`);
      await writeFile(file, a.base === "." ? a.text : rebaseGitignore(a.text, a.base));
      files.push(file);
    }
    // Each file is verified as soon as rg is done with it, while rg searches the rest.
    const verify = (f: GrepFile) => verifyRgFile(ctx.sandbox, f);
    const raw = await grepRg(ctx.sandbox.root, target.rel, q, { rgPath, ignoreFiles: files, verify }, ctx.signal);
    if (!raw.ok) return raw;
    let found = raw.value.files;
    // rg's type filter matched file names only; a pattern with "/" is checked on the whole path.
    if (target.kind === "directory" && q.include?.includes("/")) {
      const keep = await filterByGlob(
        q.include,
        found.map((f) => f.path),
        ctx.signal,
      );
      if (!keep.ok) return keep;
      found = found.filter((_, i) => keep.value[i]);
    }
    return { ok: true, value: { files: found, incomplete: raw.value.incomplete } };
  } finally {
    // Our own temp folder under the OS temp dir: a failed cleanup loses nothing.
    if (tmp) await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** .gitignore files in the folders above `dir` (root included, `dir` excluded). */
async function ancestorIgnoreRules(sandbox: Sandbox, dir: ResolvedPath): Promise<{ base: string; text: string }[]> {
  if (dir.rel === ".") return [];
  const parts = dir.rel.split("/");
  const out: { base: string; text: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const base = i === 0 ? "." : parts.slice(0, i).join("/");
    const gi = await sandbox.resolve(base === "." ? ".gitignore" : `${base}/.gitignore`);
    if (!gi.ok || gi.value.kind !== "file") continue;
    const buf = await sandbox.readFile(gi.value);
    if (buf.ok) out.push({ base, text: decodeText(buf.value).text });
  }
  return out;
}

/** Rewrites a nested .gitignore so its rules read relative to the workspace root. */
export function rebaseGitignore(text: string, base: string): string {
  const prefix = base.replace(/[*?[\]{}!\\]/g, "\\$&");
  return text
    .split("\n")
    .map((raw) => {
      const line = raw.replace(/\r$/, "");
      if (line.trim() === "" || line.startsWith("#")) return line;
      const neg = line.startsWith("!");
      const body = neg ? line.slice(1) : line;
      const anchored = body.replace(/\/$/, "").includes("/");
      const rest = body.startsWith("/") ? body.slice(1) : body;
      return `${neg ? "!" : ""}/${prefix}/${anchored ? "" : "**/"}${rest}`;
    })
    .join("\n");
}
