/**
 * What the user is told about the session database's health: a damaged file
 * salvaged at start, damage found by the background check, entries found
 * missing at open. One sentence of what happened, one of what was kept, one
 * of what to do.
 */
import type { IntegrityReport, Recovered, SalvageReport } from "../store";

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
