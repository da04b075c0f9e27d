/**
 * Display formatting for tokens, money, durations and times. Every helper takes
 * any number a stored entry may hold (a timestamp of -1e20, NaN, a duration of
 * 1e300) and returns short text: a throw here would take the row, or the app, down.
 */
import type { Usage } from "../../../shared/protocol";

/** Past this, numbers are shown in exponent form (toFixed would print 21+ digits). */
const HUGE = 1e12;

function huge(n: number): string {
  return n.toExponential(1);
}

export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return "?";
  if (n < 0) return `-${formatTokens(-n)}`;
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  if (n < 1_000_000_000) return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`;
  if (n < HUGE) return `${(n / 1_000_000_000).toFixed(n < 10_000_000_000 ? 2 : 1)}B`;
  return huge(n);
}

/** A message's usage spelled out: every count, cache reads and writes with what they cost, reasoning where reported. */
export function usageTitle(u: Usage): string {
  const parts = [
    `input ${u.input} (${formatCost(u.cost.input)})`,
    `output ${u.output} (${formatCost(u.cost.output)})`,
    `cache read ${u.cacheRead} (${formatCost(u.cost.cacheRead)})`,
    `cache write ${u.cacheWrite} (${formatCost(u.cost.cacheWrite)})`,
  ];
  if (u.reasoningTokens !== undefined) parts.push(`reasoning ${u.reasoningTokens} (in output)`);
  return parts.join(" · ");
}

export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return "$?";
  if (usd === 0) return "$0";
  if (Math.abs(usd) >= HUGE) return `$${huge(usd)}`;
  if (Math.abs(usd) < 0.01) return `$${usd.toFixed(4)}`;
  if (Math.abs(usd) < 10) return `$${usd.toFixed(3)}`;
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
  if (!Number.isFinite(ms)) return "?";
  if (Math.abs(ms) >= HUGE) return `${huge(ms)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m} min ${s} s`;
}

/** The largest distance from 1970 a JavaScript Date can hold (±100,000,000 days). */
const MAX_DATE_MS = 8.64e15;

/** A timestamp a Date (and Intl) can format: Intl throws a RangeError on any other. */
export function isDisplayableTime(ts: number): boolean {
  return Number.isFinite(ts) && Math.abs(ts) <= MAX_DATE_MS;
}

/** Shown for a timestamp no calendar can show. */
export const UNKNOWN_TIME = "—";

/** For `<time dateTime>`: the ISO form, or undefined (no attribute) when the timestamp has none. */
export function timeAttribute(ts: number): string | undefined {
  return isDisplayableTime(ts) ? new Date(ts).toISOString() : undefined;
}

/** `format.format(ts)`, or UNKNOWN_TIME for a timestamp out of the Date range. */
export function formatWith(format: Intl.DateTimeFormat, ts: number): string {
  return isDisplayableTime(ts) ? format.format(ts) : UNKNOWN_TIME;
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
  return formatWith(ts >= today && ts < today + DAY_MS ? TIME_FORMAT : DATE_FORMAT, ts);
}

/** USD per million tokens. */
export function formatPrice(perMillion: number): string {
  if (perMillion === 0) return "free";
  return `$${perMillion < 1 ? perMillion.toFixed(2) : perMillion.toFixed(perMillion % 1 === 0 ? 0 : 2)}`;
}

/** A model's context size: "200k", "1.05M" (at most two decimals; 1,047,576 is not "1.047576M"). */
export function formatContextWindow(tokens: number): string {
  const thousands = Math.round(tokens / 1000);
  if (thousands < 1000) return `${thousands}k`;
  return `${Number((tokens / 1_000_000).toFixed(2))}M`;
}

export function pluralize(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
