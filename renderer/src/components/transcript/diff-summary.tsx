/** Inline diff for a card: +/− counts and the first hunks, with "Open in diff view" (invisible characters written out). */
import { memo, useMemo } from "react";
import { revealInvisible } from "../../../../shared/invisible-chars";
import { clipHunks, hunksFromTexts, hunksFromUnified, sidesFromHunks, type DiffSummary } from "../../lib/diff-hunks";
import type { DiffSelection } from "../../stores/ui-store";

export interface DiffSource {
  key: string;
  path: string;
  unifiedDiff: string | null;
  before: string | null;
  after: string | null;
  origin: DiffSelection["origin"];
  /** The core left the diff out as too large to show (tools/diff.ts): only the counts are known. */
  tooLarge?: { diffChars: number; added: number | null; removed: number | null } | null;
}

/** "10.5 MB", "640 KB": the size of a diff left out. */
function size(chars: number): string {
  return chars >= 1024 * 1024 ? `${(chars / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(chars / 1024)} KB`;
}

/** In place of a diff too large to show: the file, the counts and a clear notice, nothing to open. */
export function TooLargeDiff({ path, tooLarge }: { path: string; tooLarge: NonNullable<DiffSource["tooLarge"]> }) {
  const { added, removed } = tooLarge;
  return (
    <div className="diff-summary diff-too-large">
      <div className="diff-summary-head">
        <span className="diff-path" title={path}>
          {path}
        </span>
        {added !== null && removed !== null && (
          <span className="diff-counts" aria-label={`${added} lines added, ${removed} lines removed`}>
            <span className="added">+{added}</span> <span className="removed">−{removed}</span>
          </span>
        )}
      </div>
      <p className="notice" role="note">
        This change is too large to show ({size(tooLarge.diffChars)} of diff).
      </p>
    </div>
  );
}

function summarize(src: DiffSource): DiffSummary {
  if (src.unifiedDiff) return hunksFromUnified(src.unifiedDiff);
  return hunksFromTexts(src.path, src.before ?? "", src.after ?? "");
}

export function selectionFor(src: DiffSource, summary: DiffSummary): DiffSelection {
  if (src.after !== null) return { key: src.key, path: src.path, before: src.before ?? "", after: src.after, origin: src.origin };
  const sides = sidesFromHunks(summary);
  return { key: src.key, path: src.path, before: sides.before, after: sides.after, origin: src.origin };
}

export const DiffSummaryView = memo(function DiffSummaryView({
  source,
  maxRows = 12,
  onOpen,
}: {
  source: DiffSource;
  maxRows?: number;
  onOpen?: (selection: DiffSelection) => void;
}) {
  const summary = useMemo(() => summarize(source), [source]);
  const clipped = useMemo(() => clipHunks(summary, maxRows), [summary, maxRows]);
  if (source.tooLarge) return <TooLargeDiff path={source.path} tooLarge={source.tooLarge} />;
  return (
    <div className="diff-summary">
      <div className="diff-summary-head">
        <span className="diff-path" title={revealInvisible(source.path)}>
          {revealInvisible(source.path)}
        </span>
        <span className="diff-counts" aria-label={`${summary.added} lines added, ${summary.removed} lines removed`}>
          <span className="added">+{summary.added}</span> <span className="removed">−{summary.removed}</span>
        </span>
        {onOpen && (
          <button type="button" className="link-button" onClick={() => onOpen(selectionFor(source, summary))}>
            Open in diff view
          </button>
        )}
      </div>
      {clipped.hunks.length > 0 && (
        <pre className="diff-hunks" aria-label={`Changes to ${revealInvisible(source.path)}`}>
          {clipped.hunks.map((h, i) => (
            <span key={i} className="hunk">
              <span className="hunk-header">{h.header}</span>
              {h.lines.map((l, j) => (
                <span key={j} className={`diff-line ${l.kind}`}>
                  {l.kind === "add" ? "+" : l.kind === "del" ? "-" : " "}
                  {revealInvisible(l.text)}
                </span>
              ))}
            </span>
          ))}
          {clipped.hiddenRows > 0 && <span className="diff-more">… {clipped.hiddenRows} more lines</span>}
        </pre>
      )}
    </div>
  );
});
