/** glob: files by name pattern, newest first, paged. */
import { filterByGlob } from "./glob-match";
import { posix } from "node:path";
import type { ToolContext } from "./context";
import { errors, failure, toolError } from "./errors";
import { comparePaths } from "./grep-format";
import { GLOB_MAX_RESULTS } from "./limits";
import type { GlobArgs } from "./schemas";
import type { ToolOutcome } from "./types";
import { walk, type WalkEntry } from "./walk";

export function parseCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return 0;
  return /^\d{1,9}$/.test(cursor) ? Number(cursor) : null;
}

export async function runGlob(args: GlobArgs, ctx: ToolContext): Promise<ToolOutcome> {
  const offset = parseCursor(args.cursor);
  if (offset === null) return failure(errors.badCursor(args.cursor ?? ""));
  if (args.pattern.startsWith("/") || args.pattern.split("/").includes("..")) {
    return failure(
      toolError(
        "INVALID_ARGUMENTS",
        `The pattern "${args.pattern}" must be relative and must not contain "..".`,
        "Give a pattern relative to `path` (default: the workspace root), e.g. src/**/*.ts.",
      ),
    );
  }
  const resolved = await ctx.sandbox.resolve(args.path ?? ".");
  if (!resolved.ok) return failure(resolved.error);
  const dir = resolved.value;
  if (dir.kind === "missing") return failure(errors.dirNotFound(args.path ?? "."));
  if (dir.kind !== "directory") return failure(errors.notADirectory(dir.rel));

  const files: WalkEntry[] = [];
  for await (const entry of walk(ctx.sandbox, dir, { signal: ctx.signal, mtimes: true })) {
    if (entry.kind === "file") files.push(entry);
  }
  if (ctx.signal.aborted) return failure(errors.aborted());
  const isMatch = await filterByGlob(
    args.pattern,
    files.map((e) => (dir.rel === "." ? e.rel : posix.relative(dir.rel, e.rel))),
    ctx.signal,
  );
  if (!isMatch.ok) return failure(isMatch.error);
  const matched = files.filter((_, i) => isMatch.value[i]);
  // Modification times were read by the walker, through each folder's descriptor.
  const found = matched.map((e) => ({ rel: e.rel, mtimeMs: e.mtimeMs ?? 0 }));
  found.sort((a, b) => b.mtimeMs - a.mtimeMs || comparePaths(a.rel, b.rel));
  const page = found.slice(offset, offset + GLOB_MAX_RESULTS);
  const end = offset + page.length;
  const truncated = end < found.length;
  let text: string;
  if (found.length === 0) text = `No files match "${args.pattern}" in ${dir.rel === "." ? "the workspace" : dir.rel}.`;
  else if (page.length === 0) text = `No more files: all ${found.length} were shown.`;
  else text = page.map((f) => f.rel).join("\n");
  if (truncated)
    text += `\n\n[Showing ${offset + 1}-${end} of ${found.length} files, newest first. Call glob again with cursor="${end}" to continue.]`;
  return {
    ok: true,
    content: [{ type: "text", text }],
    details: {
      pattern: args.pattern,
      path: dir.rel,
      total: found.length,
      shown: page.length,
      truncated,
      nextCursor: truncated ? String(end) : null,
    },
  };
}
