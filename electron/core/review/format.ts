/** Small formatting helpers shared by the Markdown and HTML exports. */

/** `2025-03-01 09:30:05 UTC`; a stored value no date can hold (a damaged or hostile entry) is shown as it is, never thrown on. */
export function formatTime(ms: number): string {
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime())) return `invalid time (${String(ms)})`;
  return date
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
}

/** `3m 12s`, `1h 02m`, `850 ms` */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

export function formatCost(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** A safe file name stem from a session title. */
export function fileStem(title: string, id: string): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug || "session"}-${id.slice(0, 8)}`;
}
