/** Display formatting for tokens, money, durations and times. */

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`;
}

export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 10) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/**
 * A cost that may be only partly known: an answer from a model without a known
 * price is "price unknown", never "$0"; a sum with such answers says so.
 */
export function formatCostOf(total: number, unknown: boolean | undefined): string {
  if (!unknown) return formatCost(total);
  return total > 0 ? `${formatCost(total)} + price unknown` : "price unknown";
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m} min ${s} s`;
}

// Intl formatters are costly to create; one each, reused (a transcript formats thousands of times).
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
const DAY_MS = 86_400_000;

function startOfToday(): number {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Time of day for today's timestamps, else the date. */
export function formatTime(ts: number): string {
  const today = startOfToday();
  return ts >= today && ts < today + DAY_MS ? TIME_FORMAT.format(ts) : DATE_FORMAT.format(ts);
}

/** USD per million tokens. */
export function formatPrice(perMillion: number): string {
  if (perMillion === 0) return "free";
  return `$${perMillion < 1 ? perMillion.toFixed(2) : perMillion.toFixed(perMillion % 1 === 0 ? 0 : 2)}`;
}

export function formatContextWindow(tokens: number): string {
  if (tokens >= 1_000_000) return `${tokens / 1_000_000}M`;
  return `${Math.round(tokens / 1000)}k`;
}

export function pluralize(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
