/** list: a folder as an indented tree, paged with a cursor. */
import type { ToolContext } from "./context";
import { errors, failure } from "./errors";
import { parseCursor } from "./glob-tool";
import { LIST_MAX_ENTRIES } from "./limits";
import { LIST_DEFAULT_DEPTH, type ListArgs } from "./schemas";
import type { ToolOutcome } from "./types";
import { walk, type WalkEntry } from "./walk";

export async function runList(args: ListArgs, ctx: ToolContext): Promise<ToolOutcome> {
  const offset = parseCursor(args.cursor);
  if (offset === null) return failure(errors.badCursor(args.cursor ?? ""));
  const resolved = await ctx.sandbox.resolve(args.path ?? ".");
  if (!resolved.ok) return failure(resolved.error);
  const dir = resolved.value;
  if (dir.kind === "missing") return failure(errors.dirNotFound(args.path ?? "."));
  if (dir.kind !== "directory") return failure(errors.notADirectory(dir.rel));
  const maxDepth = args.depth ?? LIST_DEFAULT_DEPTH;

  const page: WalkEntry[] = [];
  let index = 0;
  let more = false;
  for await (const entry of walk(ctx.sandbox, dir, { maxDepth, includeIgnored: args.includeIgnored ?? false, signal: ctx.signal })) {
    if (index++ < offset) continue;
    if (page.length === LIST_MAX_ENTRIES) {
      more = true;
      break;
    }
    page.push(entry);
  }
  if (ctx.signal.aborted) return failure(errors.aborted());
  if (!(await ctx.sandbox.stillAt(dir))) return failure(errors.changedDuringUse(dir.rel));

  const lines = [dir.rel === "." ? "./" : `${dir.rel}/`];
  if (page.length > 0 && offset > 0) {
    // Continuation page: show the folders the first entry sits in.
    const first = page[0];
    const parts = first.rel.split("/").slice(dir.rel === "." ? 0 : dir.rel.split("/").length, -1);
    parts.forEach((name, i) => lines.push(`${"  ".repeat(i + 1)}${name}/ (continued)`));
  }
  for (const e of page) lines.push(`${"  ".repeat(e.depth)}${label(e, maxDepth)}`);
  if (page.length === 0) lines.push(offset > 0 ? "  (no more entries)" : "  (empty)");
  if (more) {
    lines.push(
      "",
      `[Showing entries ${offset + 1}-${offset + page.length}; more exist. Call list again with cursor="${offset + page.length}" to continue, or list a subfolder.]`,
    );
  }
  return {
    ok: true,
    content: [{ type: "text", text: lines.join("\n") }],
    details: { path: dir.rel, shown: page.length, truncated: more, nextCursor: more ? String(offset + page.length) : null },
  };
}

function label(e: WalkEntry, maxDepth: number): string {
  if (e.kind === "directory") return e.depth >= maxDepth ? `${e.name}/ …` : `${e.name}/`;
  if (e.kind === "symlink") return `${e.name} -> ${e.linkTarget ?? "?"}`;
  if (e.kind === "other") return `${e.name} (special file)`;
  return e.name;
}
