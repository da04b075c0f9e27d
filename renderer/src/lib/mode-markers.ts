/**
 * Where Ask-mode switches show in the transcript: each switch is drawn after
 * the row of the last entry stored before it (a switch before any row is not
 * drawn; the header shows the mode). Pure.
 */
import type { ModeChange } from "../../../shared/api";
import type { TranscriptRow } from "./transcript-model";

export function modeMarkersByRow(rows: readonly TranscriptRow[], changes: readonly ModeChange[]): ReadonlyMap<number, ModeChange[]> {
  const out = new Map<number, ModeChange[]>();
  for (const change of changes) {
    // Rows are in seq order: the last row with seq <= afterSeq.
    let lo = 0;
    let hi = rows.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid].seq <= change.afterSeq) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at < 0) continue;
    const list = out.get(at);
    if (list) list.push(change);
    else out.set(at, [change]);
  }
  return out;
}
