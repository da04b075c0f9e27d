/** One readable line per tool call, from its (untrusted) arguments; invisible characters written out (⟨U+202E⟩). */
import { revealInvisible } from "../../../shared/invisible-chars";

function s(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

function clip(text: string, max = 120): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** A failed call's one-line preview on its collapsed card; "…" says there is more (expand the card to read it). */
export function errorPreview(output: string, max = 300): string {
  const [first, ...rest] = output.trim().split("\n");
  const line = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return rest.some((l) => l.trim() !== "") && !line.endsWith("…") ? `${line} …` : line;
}

export function toolSummary(name: string, args: Record<string, unknown>): string {
  return revealInvisible(rawSummary(name, args));
}

function rawSummary(name: string, args: Record<string, unknown>): string {
  const path = s(args.path) ?? s(args.file_path) ?? s(args.filePath);
  switch (name) {
    case "read": {
      const offset = typeof args.offset === "number" ? args.offset : null;
      const limit = typeof args.limit === "number" ? args.limit : null;
      const range =
        offset !== null || limit !== null ? ` (lines ${offset ?? 1}${limit !== null ? `–${(offset ?? 1) + limit - 1}` : "+"})` : "";
      return `${path ?? "?"}${range}`;
    }
    case "write": {
      const content = s(args.content);
      // Counted as the write tool counts them: a final newline ends the last line, it does not start another.
      const lines = content ? content.replace(/\r?\n$/, "").split("\n").length : 0;
      return `${path ?? "?"}${content ? ` (${lines} line${lines === 1 ? "" : "s"})` : ""}`;
    }
    case "edit": {
      const edits = Array.isArray(args.edits) ? args.edits.length : 1;
      return `${path ?? "?"}${edits > 1 ? ` (${edits} replacements)` : ""}`;
    }
    case "list":
      return path ?? ".";
    case "glob":
      return `${s(args.pattern) ?? "?"}${path ? ` in ${path}` : ""}`;
    case "grep": {
      const glob = s(args.glob) ?? s(args.include);
      return `/${clip(s(args.pattern) ?? "?", 60)}/${path ? ` in ${path}` : ""}${glob ? ` (${glob})` : ""}`;
    }
    case "bash":
      return `$ ${clip(s(args.command) ?? "?")}`;
    case "todo": {
      const items = Array.isArray(args.items) ? (args.items as unknown[]) : [];
      const done = items.filter((i) => typeof i === "object" && i !== null && (i as { status?: unknown }).status === "done").length;
      return items.length === 0 ? "clear the plan" : `plan: ${done} of ${items.length} done`;
    }
    case "task":
      return clip(s(args.description) ?? "sub-agent");
    default: {
      const parts = Object.entries(args)
        .slice(0, 3)
        .map(([k, v]) => `${k}: ${clip(typeof v === "string" ? v : (JSON.stringify(v) ?? ""), 40)}`);
      return parts.join(", ");
    }
  }
}

/** The file a tool call targets, when it has one (used for diff titles and languages). */
export function toolPath(args: Record<string, unknown>): string | undefined {
  return s(args.path) ?? s(args.file_path) ?? undefined;
}
