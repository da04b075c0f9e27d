/**
 * What the user is told about the session database's health: a damaged file
 * salvaged at start, damage found by the background check, entries found
 * missing at open. One sentence of what happened, one of what was kept, one
 * of what to do.
 */
import type { IntegrityReport, OpenReport, Recovered, SalvageReport } from "../store";

const n = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString("en")} ${count === 1 ? one : many}`;

/** What a salvage saved, in words. */
export function salvageSummary(report: SalvageReport): string {
  if (report.sessions === 0 && report.alreadyPresent === 0) return "Nothing could be read from it.";
  const saved = `${n(report.entries, "entry", "entries")} in ${n(report.sessions, "session")}`;
  const already = report.alreadyPresent > 0 ? ` (${n(report.alreadyPresent, "session")} already here were left as they are)` : "";
  const unreadableOther = Object.entries(report.unreadable)
    .filter(([table]) => table !== "entries")
    .map(([table]) => table);
  const lost =
    report.missingEntries > 0
      ? `; ${n(report.missingEntries, "entry", "entries")} could not be read and show as missing in their sessions`
      : (report.unreadable.entries ?? 0) > 0
        ? "; some entries could not be read"
        : "";
  const other = unreadableOther.length > 0 ? `; part of ${unreadableOther.join(", ")} could not be read` : "";
  const complete = lost === "" && other === "" && report.sessions > 0;
  return complete ? `Nothing was lost: ${saved} were saved${already}.` : `${saved} were saved${already}${lost}${other}.`;
}

export function recoveredNotice(recovered: Recovered): string {
  const head = `The session database was damaged (${recovered.reason}), so a fresh one was started.`;
  const kept = `The damaged file is kept at ${recovered.movedTo}; Settings → Storage can try again to recover from it.`;
  if (recovered.salvage === null)
    return `${head} Copying from the damaged file failed (${recovered.salvageError ?? "unknown error"}). ${kept}`;
  const index = recovered.salvage.sessions > 0 ? " The search index is rebuilt from the saved entries." : "";
  return `${head} ${salvageSummary(recovered.salvage)}${index} ${kept}`;
}

/** Damage the background check found while the app runs. */
export function damageNotice(report: Extract<IntegrityReport, { ok: false }>): string {
  if (!report.damaged) return `The session database could not be checked: ${report.message}`;
  if (report.dataIntact)
    return `The session database's search index is damaged (${report.message}). Your sessions are not affected: at the next start they are copied into a fresh database and the index is rebuilt; until then search may miss messages.`;
  return `The session database reports damage (${report.message}). At the next start every entry that can still be read is copied into a fresh database, and the damaged file is kept (Settings → Storage). Export any session you need now.`;
}

/** Commits lost since the last run (a -wal file cut short, an older copy put back), or null when none were. */
export function lossNotice(report: Pick<OpenReport, "lostEntries" | "walCutShort">): string | null {
  const { lostEntries, walCutShort } = report;
  if (lostEntries.length === 0 && !walCutShort) return null;
  if (lostEntries.length === 0)
    return "The session database's -wal file was cut short (it ends inside a write): the changes made just before the app last stopped may be missing. Everything before them is intact.";
  const missing = lostEntries.reduce((sum, l) => sum + (l.acknowledged - l.kept), 0);
  const sessions = lostEntries
    .slice(0, 3)
    .map((l) => `“${l.title}” keeps ${n(l.kept, "entry", "entries")} of ${l.acknowledged.toLocaleString("en")}`)
    .join("; ");
  const more = lostEntries.length > 3 ? `; and ${n(lostEntries.length - 3, "more session")}` : "";
  const why = walCutShort
    ? "its -wal file was cut short"
    : "its -wal file was cut short or an older copy of the database was put in its place";
  return `${n(missing, "entry", "entries")} saved earlier are missing from the session database (${why}): ${sessions}${more}. What is still there is intact and kept.`;
}
