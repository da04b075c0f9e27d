/**
 * Light inline diffs for the transcript (no Monaco there): hunks from a unified
 * diff, or computed from before/after, with +/− counts.
 */
import { parsePatch, structuredPatch } from "diff";

export interface DiffLine {
  kind: "add" | "del" | "ctx";
  text: string;
}

export interface Hunk {
  header: string;
  lines: DiffLine[];
}

export interface DiffSummary {
  hunks: Hunk[];
  added: number;
  removed: number;
}

export function hunksFromUnified(unified: string): DiffSummary {
  const patches = parsePatch(unified);
  const hunks: Hunk[] = [];
  let added = 0;
  let removed = 0;
  for (const patch of patches) {
    for (const h of patch.hunks) {
      const lines: DiffLine[] = [];
      for (const raw of h.lines) {
        const mark = raw[0];
        if (mark === "\\") continue;
        const kind = mark === "+" ? "add" : mark === "-" ? "del" : "ctx";
        if (kind === "add") added++;
        if (kind === "del") removed++;
        lines.push({ kind, text: raw.slice(1) });
      }
      hunks.push({ header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, lines });
    }
  }
  return { hunks, added, removed };
}

export function hunksFromTexts(path: string, before: string, after: string): DiffSummary {
  const patch = structuredPatch(path, path, before, after, "", "", { context: 3 });
  let added = 0;
  let removed = 0;
  const hunks = patch.hunks.map((h) => {
    const lines: DiffLine[] = [];
    for (const raw of h.lines) {
      const mark = raw[0];
      if (mark === "\\") continue;
      const kind = mark === "+" ? "add" : mark === "-" ? "del" : "ctx";
      if (kind === "add") added++;
      if (kind === "del") removed++;
      lines.push({ kind, text: raw.slice(1) });
    }
    return { header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, lines };
  });
  return { hunks, added, removed };
}

/**
 * When only a unified diff is known, rebuild the two sides from its hunks
 * (context + removed vs context + added), so the diff view can still open.
 */
export function sidesFromHunks(summary: DiffSummary): { before: string; after: string } {
  const before: string[] = [];
  const after: string[] = [];
  summary.hunks.forEach((h, i) => {
    if (i > 0) {
      before.push("…");
      after.push("…");
    }
    for (const l of h.lines) {
      if (l.kind !== "add") before.push(l.text);
      if (l.kind !== "del") after.push(l.text);
    }
  });
  return { before: before.join("\n"), after: after.join("\n") };
}

/** First rows of a summary for the inline view; the rest are counted, not shown. */
export function clipHunks(summary: DiffSummary, maxRows: number): { hunks: Hunk[]; hiddenRows: number } {
  const out: Hunk[] = [];
  let rows = 0;
  let hidden = 0;
  for (const h of summary.hunks) {
    if (rows >= maxRows) {
      hidden += h.lines.length;
      continue;
    }
    const room = maxRows - rows;
    const lines = h.lines.slice(0, room);
    hidden += h.lines.length - lines.length;
    rows += lines.length;
    out.push({ header: h.header, lines });
  }
  return { hunks: out, hiddenRows: hidden };
}
