/** Labels and formatting specific to the replay view (the shared ones live in lib/format.ts). */
import type { TimelineKind, TimelineOutcome } from "../../../shared/review";

export const KIND_LABEL: Record<TimelineKind, string> = {
  user: "User",
  assistant: "Assistant",
  toolCall: "Tool call",
  toolResult: "Tool result",
  approval: "Approval",
  modelSwitch: "Model switch",
  reasoningChange: "Reasoning level",
  compaction: "Compaction",
  error: "Error",
  rename: "Rename",
  fork: "Fork",
};

export const OUTCOME_LABEL: Record<TimelineOutcome, string> = {
  stop: "finished",
  toolUse: "called tools",
  length: "output limit",
  error: "error",
  aborted: "aborted",
  ok: "ok",
  denied: "denied",
  missing: "no result",
  approved: "approved",
  approvedForSession: "approved for the session",
  autoApproved: "allowed by policy",
  autoDenied: "denied by policy",
};

// One formatter each, reused: the timeline formats thousands of rows.
const CLOCK = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** Time of day with seconds (steps are often seconds apart). */
export function formatClock(ts: number): string {
  return CLOCK.format(ts);
}

export function formatDateTime(ts: number): string {
  return DATE_TIME.format(ts);
}

/** Latency and durations: milliseconds under 10 s, else seconds. */
export function formatLatency(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
