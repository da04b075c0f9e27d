/**
 * Session statistics for the review header: duration, turns, tool calls by
 * tool and outcome, approvals and denials, errors and retries, tokens and cost
 * per model. Pure: computed from the entries and the timeline built from them.
 */
import type { ApprovalDecision, ModelRef, StoredEntry } from "../../../shared/protocol";
import type { SessionStats, TimelineItem, ToolStats } from "../../../shared/review";
import { CONTINUE_PROMPT } from "../agent/session-agent";
import { modelLabel } from "./timeline";

type ModelLine = SessionStats["byModel"][number];

export function sessionStats(entries: readonly StoredEntry[], items: readonly TimelineItem[]): SessionStats {
  let startedAt: number | null = null;
  let endedAt: number | null = null;
  for (const { entry } of entries) {
    const at = entry.type === "message" ? entry.message.timestamp : entry.timestamp;
    if (startedAt === null || at < startedAt) startedAt = at;
    if (endedAt === null || at > endedAt) endedAt = at;
  }

  let turns = 0;
  let assistantMessages = 0;
  let requestErrors = 0;
  let aborted = 0;
  let retries = 0;
  let modelSwitches = 0;
  let compactions = 0;
  const byModel = new Map<string, ModelLine>();
  // The previous message was a failed request: the next request in the same turn is its retry.
  let afterFailure = false;

  for (const { entry } of entries) {
    if (entry.type === "modelSwitch") modelSwitches++;
    if (entry.type === "compaction") compactions++;
    if (entry.type !== "message") continue;
    const m = entry.message;
    if (m.role === "user") {
      afterFailure = false;
      if (!isLoopPrompt(m.content)) turns++;
      continue;
    }
    if (m.role === "toolResult") continue;
    assistantMessages++;
    if (afterFailure) retries++;
    afterFailure = m.stopReason === "error";
    if (m.stopReason === "error") requestErrors++;
    if (m.stopReason === "aborted") aborted++;
    addUsage(byModel, m.model, m.usage);
  }

  const tools = new Map<string, ToolStats>();
  let toolErrors = 0;
  let toolCalls = 0;
  const byDecision: Record<ApprovalDecision, number> = {
    approved: 0,
    approvedForSession: 0,
    denied: 0,
    autoApproved: 0,
    autoDenied: 0,
  };
  for (const item of items) {
    if (item.kind === "toolCall" && item.toolName !== null) {
      toolCalls++;
      let s = tools.get(item.toolName);
      if (!s) tools.set(item.toolName, (s = { toolName: item.toolName, total: 0, ok: 0, error: 0, denied: 0, aborted: 0, missing: 0 }));
      s.total++;
      if (
        item.outcome === "ok" ||
        item.outcome === "error" ||
        item.outcome === "denied" ||
        item.outcome === "aborted" ||
        item.outcome === "missing"
      ) {
        s[item.outcome]++;
      }
    }
    if (item.kind === "toolResult" && item.outcome === "error") toolErrors++;
    if (item.kind === "approval" && item.outcome !== null && item.outcome in byDecision) {
      byDecision[item.outcome as ApprovalDecision]++;
    }
  }

  const models = [...byModel.values()].sort((a, b) => b.cost - a.cost || modelLabel(a.model).localeCompare(modelLabel(b.model)));
  const totals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 };
  for (const line of models) {
    totals.input += line.input;
    totals.output += line.output;
    totals.cacheRead += line.cacheRead;
    totals.cacheWrite += line.cacheWrite;
    totals.totalTokens += line.totalTokens;
    totals.cost += line.cost;
  }

  return {
    entries: entries.length,
    startedAt,
    endedAt,
    durationMs: startedAt === null || endedAt === null ? 0 : endedAt - startedAt,
    turns,
    assistantMessages,
    toolCalls: { total: toolCalls, byTool: [...tools.values()].sort((a, b) => b.total - a.total || a.toolName.localeCompare(b.toolName)) },
    approvals: {
      granted: byDecision.approved + byDecision.approvedForSession + byDecision.autoApproved,
      denied: byDecision.denied + byDecision.autoDenied,
      byDecision,
    },
    errors: { requests: requestErrors, tools: toolErrors, retries, aborted },
    modelSwitches,
    compactions,
    byModel: models,
    totals,
  };
}

function isLoopPrompt(content: readonly { type: string; text?: string }[]): boolean {
  return content.length === 1 && content[0].type === "text" && content[0].text === CONTINUE_PROMPT;
}

function addUsage(
  byModel: Map<string, ModelLine>,
  model: ModelRef,
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens: number; cost: { total: number } },
): void {
  const key = `${model.provider}\u0000${model.api}\u0000${model.id}`;
  let line = byModel.get(key);
  if (!line) {
    line = { model, messages: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 };
    byModel.set(key, line);
  }
  line.messages++;
  line.input += usage.input;
  line.output += usage.output;
  line.cacheRead += usage.cacheRead;
  line.cacheWrite += usage.cacheWrite;
  line.totalTokens += usage.totalTokens;
  line.cost += usage.cost.total;
}
