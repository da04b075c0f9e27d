/**
 * A stored session as OpenTelemetry spans, following the GenAI semantic
 * conventions (docs/observability.md): one `invoke_agent` span for the
 * session, under it one `chat` span per model answer and one `execute_tool`
 * span per tool call, and a sub-agent's `invoke_agent` span under the tool
 * call that started it (same trace). Ids come from ids.ts, so the same
 * session always yields the same spans. Content (messages, tool arguments
 * and results) is only attached when `captureContent` is on, and then
 * redacted as exports are.
 */
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext } from "@opentelemetry/api";
import { resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { SessionSummary } from "../../../shared/api";
import type { AssistantMessage, Message, StopReason, StoredEntry } from "../../../shared/protocol";
import type { Redactor } from "../review/redact";
import { agentSpanId, chatSpanId, toolSpanId, traceIdOf } from "./ids";
import * as sc from "./semconv";

export interface TraceSource {
  getSession(id: string): SessionSummary | undefined;
  loadEntries(id: string): StoredEntry[];
  /** Sessions started by a task call of this one (parentToolCallId set). */
  subAgentSessions(parentId: string): SessionSummary[];
}

export interface SpanOptions {
  captureContent: boolean;
  redactor: Redactor;
  serviceVersion: string;
}

/** Sub-agents nest; a store that loops (it cannot, but a damaged one might) stops here. */
const MAX_DEPTH = 16;

const FINISH: Record<StopReason, string> = { stop: "stop", toolUse: "tool_call", length: "length", error: "error", aborted: "cancelled" };

const hr = (ms: number): HrTime => {
  const t = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  const s = Math.floor(t / 1000);
  return [s, Math.round((t - s * 1000) * 1e6)];
};

/** Every span of the session (and its sub-agents), or [] for an unknown session. Spans list children before parents. */
export function sessionSpans(source: TraceSource, sessionId: string, options: SpanOptions): ReadableSpan[] {
  const session = source.getSession(sessionId);
  if (!session) return [];
  // The trace belongs to the top-level session: a sub-agent exported alone still lands in its parent's trace.
  const rootId = rootSessionOf(source, sessionId) ?? session.id;
  const resource = resourceFromAttributes({ "service.name": "agent-workbench", "service.version": options.serviceVersion });
  const builder = new Builder(source, options, traceIdOf(rootId), rootId, resource);
  const parent =
    session.parentToolCallId !== undefined && session.parentSessionId !== null
      ? builder.context(toolSpanId(session.parentSessionId, session.parentToolCallId))
      : undefined;
  builder.session(session, parent, 0, new Set());
  return builder.spans;
}

/** The top-level session above a sub-agent's (itself for any other); null for an unknown session. */
export function rootSessionOf(source: Pick<TraceSource, "getSession">, sessionId: string): string | null {
  let root = source.getSession(sessionId);
  if (!root) return null;
  const seen = new Set([root.id]);
  while (root.parentToolCallId !== undefined && root.parentSessionId !== null && seen.size < MAX_DEPTH) {
    const up = source.getSession(root.parentSessionId);
    if (!up || seen.has(up.id)) break;
    seen.add(up.id);
    root = up;
  }
  return root.id;
}

class Builder {
  readonly spans: ReadableSpan[] = [];

  constructor(
    private readonly source: TraceSource,
    private readonly options: SpanOptions,
    private readonly traceId: string,
    private readonly conversationId: string,
    private readonly resource: Resource,
  ) {}

  context(spanId: string): SpanContext {
    return { traceId: this.traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: false };
  }

  private content(value: unknown): string {
    return this.options.redactor.text(JSON.stringify(value));
  }

  private push(
    name: string,
    spanId: string,
    parent: SpanContext | undefined,
    start: number,
    end: number,
    attributes: Attributes,
    kind: SpanKind,
    error: string | null,
  ): void {
    const startTime = hr(start);
    const endTime = hr(Math.max(start, end));
    const duration = hr(Math.max(0, end - start));
    const ctx = this.context(spanId);
    this.spans.push({
      name,
      kind,
      spanContext: () => ctx,
      parentSpanContext: parent,
      startTime,
      endTime,
      duration,
      status: error === null ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR, message: error },
      attributes,
      links: [],
      events: [],
      ended: true,
      resource: this.resource,
      instrumentationScope: { name: "agent-workbench", version: this.options.serviceVersion, schemaUrl: sc.SCHEMA_URL },
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
  }

  session(session: SessionSummary, parent: SpanContext | undefined, depth: number, visited: Set<string>): void {
    if (depth > MAX_DEPTH || visited.has(session.id)) return;
    visited.add(session.id);
    const entries = this.source.loadEntries(session.id);
    const agentId = agentSpanId(session.id);
    const agentCtx = this.context(agentId);
    const children = new Map<string, SessionSummary[]>();
    for (const child of this.source.subAgentSessions(session.id)) {
      const list = children.get(child.parentToolCallId ?? "") ?? [];
      list.push(child);
      children.set(child.parentToolCallId ?? "", list);
    }
    const occurrences = new Map<string, number>();
    const results = new Map<string, { at: number; isError: boolean; message: Message }>();
    for (const { entry } of entries) {
      if (entry.type === "message" && entry.message.role === "toolResult" && !results.has(entry.message.toolCallId))
        results.set(entry.message.toolCallId, { at: entry.message.timestamp, isError: entry.message.isError, message: entry.message });
    }
    let input = 0;
    let output = 0;
    let cost = 0;
    let first = session.createdAt;
    let last = session.createdAt;
    let since: Message[] = [];
    let prevAt = session.createdAt;
    entries.forEach(({ seq, entry }, i) => {
      const at = entry.type === "message" ? entry.message.timestamp : entry.timestamp;
      if (i === 0) first = Math.min(first, at);
      last = Math.max(last, at);
      if (entry.type !== "message") return;
      const m = entry.message;
      if (m.role !== "assistant") {
        since.push(m);
        prevAt = m.timestamp;
        return;
      }
      input += m.usage.input + m.usage.cacheRead + m.usage.cacheWrite;
      output += m.usage.output;
      cost += m.usage.cost.total;
      this.chat(session.id, seq, m, prevAt, since, agentCtx);
      since = [];
      prevAt = m.timestamp;
      for (const block of m.content) {
        if (block.type !== "toolCall") continue;
        const n = occurrences.get(block.id) ?? 0;
        occurrences.set(block.id, n + 1);
        const spanId = toolSpanId(session.id, block.id, n);
        const result = n === 0 ? results.get(block.id) : undefined;
        const attrs: Attributes = {
          [sc.ATTR_GEN_AI_OPERATION_NAME]: "execute_tool",
          [sc.ATTR_GEN_AI_TOOL_NAME]: block.name,
          [sc.ATTR_GEN_AI_TOOL_CALL_ID]: block.id,
          [sc.ATTR_GEN_AI_TOOL_TYPE]: "function",
        };
        if (this.options.captureContent) {
          attrs[sc.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = this.content(block.arguments);
          if (result)
            attrs[sc.ATTR_GEN_AI_TOOL_CALL_RESULT] = this.content(
              result.message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n"),
            );
        }
        const error = result?.isError ? "tool_error" : null;
        if (error) attrs[sc.ATTR_ERROR_TYPE] = error;
        this.push(`execute_tool ${block.name}`, spanId, agentCtx, m.timestamp, result?.at ?? m.timestamp, attrs, SpanKind.INTERNAL, error);
        if (n === 0) for (const child of children.get(block.id) ?? []) this.session(child, this.context(spanId), depth + 1, visited);
      }
    });
    const model = session.model;
    const attrs: Attributes = {
      [sc.ATTR_GEN_AI_OPERATION_NAME]: "invoke_agent",
      [sc.ATTR_GEN_AI_AGENT_ID]: session.id,
      [sc.ATTR_GEN_AI_AGENT_NAME]: session.parentToolCallId !== undefined ? "sub-agent" : "Agent Workbench",
      [sc.ATTR_GEN_AI_CONVERSATION_ID]: this.conversationId,
      [sc.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: input,
      [sc.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: output,
      [sc.ATTR_COST_USD]: cost,
    };
    if (model) {
      attrs[sc.ATTR_GEN_AI_PROVIDER_NAME] = sc.providerName(model.provider);
      attrs[sc.ATTR_GEN_AI_REQUEST_MODEL] = model.id;
    }
    this.push("invoke_agent Agent Workbench", agentId, parent, first, last, attrs, SpanKind.INTERNAL, null);
  }

  private chat(sessionId: string, seq: number, m: AssistantMessage, start: number, since: Message[], parent: SpanContext): void {
    const attrs: Attributes = {
      [sc.ATTR_GEN_AI_OPERATION_NAME]: "chat",
      [sc.ATTR_GEN_AI_PROVIDER_NAME]: sc.providerName(m.model.provider),
      [sc.ATTR_GEN_AI_REQUEST_MODEL]: m.model.id,
      [sc.ATTR_GEN_AI_RESPONSE_MODEL]: m.model.id,
      [sc.ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [FINISH[m.stopReason]],
      [sc.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: m.usage.input + m.usage.cacheRead + m.usage.cacheWrite,
      [sc.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: m.usage.output,
      [sc.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: m.usage.cacheRead,
      [sc.ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS]: m.usage.cacheWrite,
      [sc.ATTR_COST_USD]: m.usage.cost.total,
    };
    if (m.responseId) attrs[sc.ATTR_GEN_AI_RESPONSE_ID] = m.responseId;
    if (this.options.captureContent) {
      attrs[sc.ATTR_GEN_AI_INPUT_MESSAGES] = this.content(since.map(toSemconvMessage));
      attrs[sc.ATTR_GEN_AI_OUTPUT_MESSAGES] = this.content([{ ...toSemconvMessage(m), finish_reason: FINISH[m.stopReason] }]);
    }
    const error = m.stopReason === "error" ? (m.errorMessage ?? "error") : null;
    if (error !== null) attrs[sc.ATTR_ERROR_TYPE] = "provider_error";
    this.push(
      `chat ${m.model.id}`,
      chatSpanId(sessionId, seq),
      parent,
      start,
      m.timestamp,
      attrs,
      SpanKind.CLIENT,
      error === null ? null : this.options.redactor.text(error),
    );
  }
}

/** The conventions' message shape (role + parts); thinking and images are named, not carried. */
function toSemconvMessage(m: Message): { role: string; parts: unknown[] } {
  if (m.role === "toolResult") {
    const text = m.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
    return { role: "tool", parts: [{ type: "tool_call_response", id: m.toolCallId, response: text }] };
  }
  const parts = m.content.map((c) => {
    if (c.type === "text") return { type: "text", content: c.text };
    if (c.type === "toolCall") return { type: "tool_call", id: c.id, name: c.name, arguments: c.arguments };
    return { type: c.type };
  });
  return { role: m.role, parts };
}
