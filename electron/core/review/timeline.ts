/**
 * The replay timeline: one item per stored entry, plus one per tool call
 * inside an assistant message, with model, tokens, cost, latency, tool
 * outcome and the side-effect flag. Pure: entries and audit rows in, items out.
 */
import { z } from "zod";
import type { TimelineItem, TimelineOutcome } from "../../../shared/review";
import type { AssistantMessage, ModelRef, StoredEntry, ToolCall, ToolResultMessage } from "../../../shared/protocol";
import { AuditMatcher, type AuditRow } from "./audit-rows";

/** Tools that change the workspace or run commands; everything else is read-only. */
export const SIDE_EFFECT_TOOLS: readonly string[] = ["write", "edit", "bash"];

export interface TimelineOptions {
  /** A model's name as the catalog shows it ("Claude Sonnet 4.6"); without one, provider/id. */
  modelName?(ref: ModelRef): string | undefined;
  sideEffectTools?: readonly string[];
  /** The source of a fork, for its summary: the source session's title and the replay step forked at (steps as numbered in replay). */
  forkSource?(sessionId: string, seq: number): { title: string; step: number } | undefined;
}

const SUMMARY_MAX = 140;

/** "kept from step N": the first step at or after the first entry a compaction kept. */
function keptFrom(items: readonly TimelineItem[], firstKeptSeq: number): string {
  const kept = items.find((i) => i.seq >= firstKeptSeq);
  return kept ? `kept from step ${kept.index + 1}` : "kept nothing before it";
}

function forkSummary(sessionId: string, seq: number, source: { title: string; step: number } | undefined): string {
  // Without the source session (deleted, or an imported export) only its entry number is known.
  return source ? `Forked from “${source.title}” at step ${source.step}` : `Forked from session ${sessionId} (its entry #${seq})`;
}

const ResultDetailsSchema = z.object({ errorCode: z.string().optional(), synthesized: z.boolean().optional() }).loose();

interface OpenCall {
  item: TimelineItem;
  assistantAt: number;
  model: ModelRef;
  approved: boolean;
}

export function buildTimeline(
  entries: readonly StoredEntry[],
  audit: readonly AuditRow[] = [],
  options: TimelineOptions = {},
): TimelineItem[] {
  const sideEffectTools = new Set(options.sideEffectTools ?? SIDE_EFFECT_TOOLS);
  const label = (m: ModelRef) => options.modelName?.(m) ?? modelLabel(m);
  const matcher = new AuditMatcher(audit);
  const items: TimelineItem[] = [];
  // Calls waiting for their result, per id in order (ids are opaque and may repeat).
  const open = new Map<string, OpenCall[]>();
  let lastMessageAt: number | null = null;

  const push = (item: Omit<TimelineItem, "index">): TimelineItem => {
    const full = { index: items.length, ...item };
    items.push(full);
    return full;
  };
  const findOpen = (id: string): OpenCall | undefined => open.get(id)?.[0];
  const closeOpen = (id: string): OpenCall | undefined => {
    const list = open.get(id);
    const first = list?.shift();
    if (list && list.length === 0) open.delete(id);
    return first;
  };

  for (const { seq, entry } of entries) {
    const base = {
      seq,
      model: null,
      tokens: null,
      cost: null,
      latencyMs: null,
      durationMs: null,
      toolName: null,
      toolCallId: null,
      outcome: null,
      errorCode: null,
      sideEffect: false,
      isError: false,
    };
    switch (entry.type) {
      case "message": {
        const m = entry.message;
        if (m.role === "user") {
          push({ ...base, kind: "user", timestamp: m.timestamp, summary: firstLine(m.content.map(textOrImage).join(" ")) });
        } else if (m.role === "assistant") {
          const failed = m.stopReason === "error";
          push({
            ...base,
            kind: failed ? "error" : "assistant",
            timestamp: m.timestamp,
            model: m.model,
            tokens: tokensOf(m),
            // No known price: no cost shown for the step rather than $0.
            cost: m.usage.cost.unknown ? null : m.usage.cost.total,
            latencyMs: lastMessageAt === null ? null : m.timestamp - lastMessageAt,
            outcome: m.stopReason,
            isError: failed,
            summary: assistantSummary(m),
          });
          for (const block of m.content) {
            if (block.type !== "toolCall") continue;
            const item = push({
              ...base,
              kind: "toolCall",
              timestamp: m.timestamp,
              model: m.model,
              toolName: block.name,
              toolCallId: block.id,
              outcome: "missing",
              sideEffect: sideEffectTools.has(block.name),
              summary: firstLine(`${block.name} ${argsSummary(block)}`),
            });
            const list = open.get(block.id) ?? [];
            list.push({ item, assistantAt: m.timestamp, model: m.model, approved: false });
            open.set(block.id, list);
          }
        } else {
          push(resultItem(base, m, closeOpen(m.toolCallId), matcher, sideEffectTools));
        }
        lastMessageAt = m.timestamp;
        break;
      }
      case "approval": {
        const call = findOpen(entry.toolCallId);
        if (call) {
          call.approved = true;
          call.item.sideEffect = true;
        }
        const reason = entry.reason ? `: ${entry.reason}` : "";
        push({
          ...base,
          kind: "approval",
          timestamp: entry.timestamp,
          model: call?.model ?? null,
          latencyMs: call ? entry.timestamp - call.assistantAt : null,
          toolName: entry.toolName,
          toolCallId: entry.toolCallId,
          outcome: entry.decision,
          sideEffect: true,
          summary: firstLine(`${entry.decision} ${entry.toolName} (by ${entry.decidedBy})${reason}`),
        });
        break;
      }
      case "modelSwitch":
        push({
          ...base,
          kind: "modelSwitch",
          timestamp: entry.timestamp,
          model: entry.to,
          summary: `Model switched ${entry.from ? `from ${label(entry.from)} ` : ""}to ${label(entry.to)}`,
        });
        break;
      case "reasoningChange":
        push({
          ...base,
          kind: "reasoningChange",
          timestamp: entry.timestamp,
          summary: `Reasoning level changed from ${entry.from} to ${entry.to}`,
        });
        break;
      case "compaction":
        push({
          ...base,
          kind: "compaction",
          timestamp: entry.timestamp,
          model: entry.model,
          summary:
            entry.step === "prune"
              ? `Context pruned: ${entry.pruned ?? 0} old tool outputs shown as stubs (${entry.tokensBefore} tokens before)`
              : `Context compacted (${entry.tokensBefore} tokens before; ${keptFrom(items, entry.firstKeptSeq)})`,
        });
        break;
      case "rename":
        push({ ...base, kind: "rename", timestamp: entry.timestamp, summary: firstLine(`Renamed to "${entry.title}"`) });
        break;
      case "planEdit": {
        const done = entry.items.filter((i) => i.status === "done").length;
        push({
          ...base,
          kind: "planEdit",
          timestamp: entry.timestamp,
          summary: `The user edited the plan (${done} of ${entry.items.length} done)`,
        });
        break;
      }
      case "fork":
        push({
          ...base,
          kind: "fork",
          timestamp: entry.timestamp,
          summary: forkSummary(entry.sourceSessionId, entry.sourceSeq, options.forkSource?.(entry.sourceSessionId, entry.sourceSeq)),
        });
        break;
    }
  }
  return items;
}

function resultItem(
  base: Omit<TimelineItem, "index" | "kind" | "timestamp" | "summary">,
  m: ToolResultMessage,
  call: OpenCall | undefined,
  matcher: AuditMatcher,
  sideEffectTools: Set<string>,
): Omit<TimelineItem, "index"> {
  const details = ResultDetailsSchema.safeParse(m.details);
  const synthesized = details.success && details.data.synthesized === true;
  // Synthesized results (aborted or failed turns) never had an audit row.
  const row = synthesized ? null : matcher.take(m.toolCallId, m.timestamp);
  const errorCode = (details.success ? details.data.errorCode : undefined) ?? row?.errorCode ?? null;
  const outcome = resultOutcome(m, errorCode, row);
  const sideEffect = sideEffectTools.has(m.toolName) || (call?.approved ?? false) || row?.approvalDecision != null;
  const durationMs = row?.durationMs ?? null;
  if (call) {
    call.item.outcome = outcome;
    call.item.errorCode = errorCode;
    call.item.durationMs = durationMs;
    call.item.isError = outcome === "error";
    call.item.sideEffect = call.item.sideEffect || sideEffect;
  }
  return {
    ...base,
    kind: "toolResult",
    timestamp: m.timestamp,
    model: call?.model ?? null,
    latencyMs: call ? m.timestamp - call.assistantAt : null,
    durationMs,
    toolName: m.toolName,
    toolCallId: m.toolCallId,
    outcome,
    errorCode,
    sideEffect,
    isError: outcome === "error",
    summary: firstLine(m.content.map(textOrImage).join(" ")) || "(no output)",
  };
}

function resultOutcome(m: ToolResultMessage, errorCode: string | null, row: AuditRow | null): TimelineOutcome {
  if (!m.isError) return "ok";
  if (errorCode === "DENIED" || row?.status === "denied") return "denied";
  if (errorCode === "ABORTED" || row?.status === "aborted") return "aborted";
  return "error";
}

function tokensOf(m: AssistantMessage): TimelineItem["tokens"] {
  const u = m.usage;
  return { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, total: u.totalTokens };
}

function assistantSummary(m: AssistantMessage): string {
  if (m.stopReason === "error") return firstLine(`Error: ${m.errorMessage ?? "the request failed"}`);
  const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(" ");
  if (text.trim()) return firstLine(text);
  const calls = m.content.flatMap((b) => (b.type === "toolCall" ? [b.name] : []));
  if (calls.length > 0) return `Calls ${calls.join(", ")}`;
  if (m.content.some((b) => b.type === "thinking")) return "(thinking only)";
  return m.stopReason === "aborted" ? "(aborted)" : "(empty response)";
}

const ARG_KEYS = ["path", "command", "pattern", "query", "description"];

function argsSummary(call: ToolCall): string {
  if (call.argumentsError) return `(invalid arguments: ${call.argumentsError})`;
  for (const key of ARG_KEYS) {
    const v = call.arguments[key];
    if (typeof v === "string") return v;
  }
  return JSON.stringify(call.arguments);
}

function textOrImage(block: { type: "text"; text: string } | { type: "image" }): string {
  return block.type === "text" ? block.text : "[image]";
}

export function firstLine(text: string): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}

export function modelLabel(m: ModelRef): string {
  return `${m.provider}/${m.id}`;
}

export function sameModel(a: ModelRef, b: ModelRef): boolean {
  return a.provider === b.provider && a.api === b.api && a.id === b.id;
}
