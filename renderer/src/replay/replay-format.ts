/** Labels and formatting specific to the replay view (the shared ones live in lib/format.ts). */
import type { SessionStats, TimelineKind, TimelineOutcome } from "../../../shared/review";
import { formatWith } from "../lib/format";

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
  planEdit: "Plan edit",
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
  return formatWith(CLOCK, ts);
}

export function formatDateTime(ts: number): string {
  return formatWith(DATE_TIME, ts);
}

/** Latency and durations: milliseconds under 10 s, else seconds (any stored number: see lib/format.ts). */
export function formatLatency(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  if (Math.abs(ms) >= 1e12) return `${ms.toExponential(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Approvals in one phrase, each decision said once: "2 approved, 1 denied";
 * how they were given only when it is not the plain case ("3 approved
 * (2 once, 1 for the session), 1 denied by a rule").
 */
export function approvalsSummary(a: SessionStats["approvals"]): string {
  const d = a.byDecision;
  const part = (total: number, verb: string, kinds: Array<[number, string]>, plain: string): string => {
    const given = kinds.filter(([n]) => n > 0);
    if (total === 0) return `0 ${verb}`;
    if (given.length === 1) return given[0][1] === plain ? `${total} ${verb}` : `${total} ${verb} ${given[0][1]}`;
    return `${total} ${verb} (${given.map(([n, how]) => `${n} ${how}`).join(", ")})`;
  };
  const approved = part(
    a.granted,
    "approved",
    [
      [d.approved, "once"],
      [d.approvedForSession, "for the session"],
      [d.autoApproved, "by a rule"],
    ],
    "once",
  );
  const denied = part(
    a.denied,
    "denied",
    [
      [d.denied, "by the user"],
      [d.autoDenied, "by a rule"],
    ],
    "by the user",
  );
  return `${approved}, ${denied}`;
}
