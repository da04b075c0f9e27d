/**
 * Headless `run`: one user turn (with its whole tool loop) in the same core as
 * the app — `startCore` and the WorkbenchApi the web host serves — stored in
 * the same database, for scripts and CI (`claude -p`, `codex exec`).
 *
 * Contract: `runHeadless` never throws for a failed turn; it resolves with the
 * exit code (0: the model answered; 1: the turn failed or was stopped; 2: bad
 * usage such as an unknown session or model, found before a new session is
 * made, so none is left behind). With `json` every failure is also an `error`
 * event on stdout and the run ends with one `result` event. Side-effect tools follow
 * `approve` and every decision is stored and reported: "all" approves each
 * call the saved policy does not deny; "read-only" and "none" deny each one
 * with a reason the model reads, whatever saved allow rules or settings
 * allow (saved deny rules still apply). Nothing is approved silently.
 * `limits` (--max-budget-usd, --max-turns) hold for the run's turn: at one the
 * agent's last answer is its tool-less summary, printed, and the run says
 * which limit stopped it and exits 1. A compaction the settings say to ask
 * for is answered "compact" (no one is there to ask), and said on stderr.
 */
import type { OtelTarget } from "../../../shared/otel";
import { formatWait } from "../agent/retry";
import type {
  EventName,
  EventPayload,
  ModelOption,
  RequestMethod,
  RequestParams,
  RequestResult,
  SessionSummary,
} from "../../../shared/api";
import { WorkbenchApiError } from "../../../shared/api";
import type { ReasoningLevel } from "../../../shared/models";
import type { AssistantMessage, ModelRef } from "../../../shared/protocol";
import type { Workbench } from "../api/workbench";

export type ApproveMode = "all" | "read-only" | "none";

export interface HeadlessRunOptions {
  workspace: string;
  prompt: string;
  /** "provider/model" as the model switcher lists it; absent: the session's model, else the default model. */
  model?: string;
  reasoning?: ReasoningLevel;
  /** An existing session id, or "continue" for the workspace's most recent session; absent: a new session. */
  session?: string | { continue: true };
  approve: ApproveMode;
  json: boolean;
  /** Trusts the workspace's `.mcp.json` servers as they are now (as "Trust and start" in Settings does); default: only already trusted ones start. */
  trustMcp?: boolean;
  /** The run's limits, over the ones in Settings. */
  limits?: { maxCostUsd?: number; maxRoundTrips?: number };
  /** Sends the session's trace here when the run ends (--otlp, OTEL_EXPORTER_OTLP_*: otel/env-target.ts). */
  otlp?: OtelTarget;
}

export interface HeadlessIo {
  /** The answer, or one JSON event per line. */
  out(line: string): void;
  /** Progress and errors for a person watching. */
  err(line: string): void;
}

export const READ_ONLY_REASON =
  "This run is read-only (--approve read-only): do not change files or run commands. Answer from what you can read.";
export const NOT_APPROVED_REASON = "Not approved: this headless run was started with --approve none, so no file change or command may run.";

/** Bad usage (unknown session, model…): exit code 2. */
export class UsageError extends Error {}

export async function call<M extends RequestMethod>(workbench: Workbench, method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
  const res = await workbench.handle(method, params);
  if (!res.ok) throw new WorkbenchApiError(res.error);
  return res.result as RequestResult<M>;
}

function findModel(models: readonly ModelOption[], ref: string): ModelRef {
  const matches = models.filter((m) => `${m.provider}/${m.id}` === ref);
  const pick = matches[0];
  if (!pick) {
    const known = [...new Set(models.map((m) => `${m.provider}/${m.id}`))].slice(0, 12).join(", ");
    throw new UsageError(`unknown model ${ref} (known: ${known}, …)`);
  }
  return { provider: pick.provider, api: pick.api, id: pick.id };
}

export async function chooseSession(
  workbench: Workbench,
  workspaceId: string,
  options: Pick<HeadlessRunOptions, "session">,
  model?: ModelRef,
): Promise<SessionSummary> {
  const session = options.session;
  if (session === undefined) return call(workbench, "session.create", { workspaceId, ...(model ? { model } : {}) });
  if (typeof session === "object") {
    const { sessions } = await call(workbench, "session.list", { workspaceId, limit: 1 });
    if (!sessions[0]) throw new UsageError("--continue: this workspace has no session yet");
    return sessions[0];
  }
  // Only "no such session" is a usage error; anything else (a storage failure) is reported as it is.
  const loaded = await call(workbench, "session.load", { sessionId: session, tail: 1 }).catch((e: unknown) => {
    if (e instanceof WorkbenchApiError && e.error.code === "NOT_FOUND") return undefined;
    throw e;
  });
  if (!loaded) throw new UsageError(`no session ${session}`);
  if (loaded.session.workspaceId !== workspaceId) throw new UsageError(`session ${session} belongs to another workspace`);
  return loaded.session;
}

/** Untrusted workspace MCP servers never start silently: trusted on request (--trust-mcp), else named on stderr. */
async function reportMcpTrust(workbench: Workbench, workspaceId: string, trust: boolean, io: HeadlessIo): Promise<void> {
  const untrusted = (await call(workbench, "mcp.status", { workspaceId })).servers.filter((s) => s.state === "untrusted");
  if (untrusted.length === 0) return;
  if (!trust) {
    io.err(
      `MCP: not starting ${untrusted.map((s) => s.name).join(", ")} from .mcp.json (not trusted; trust in Settings or pass --trust-mcp)`,
    );
    return;
  }
  const servers = untrusted.map(({ name, fingerprint }) => ({ name, fingerprint }));
  await call(workbench, "mcp.trust", { workspaceId, trusted: true, servers });
  for (const s of untrusted) io.err(`MCP: trusted ${s.name} (--trust-mcp): ${s.launch}`);
}

function textOf(message: AssistantMessage): string {
  return message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
}

/**
 * With --json, what a script reads on stdout: an `error` event for each failure (stderr keeps the
 * words for a person) and one final `result` event, whatever the outcome.
 */
export function jsonReport(io: HeadlessIo, json: boolean) {
  return {
    error(command: string, message: string, code: number): void {
      io.err(`agent ${command}: ${message}`);
      if (json) io.out(JSON.stringify({ event: "error", payload: { message, exitCode: code } }));
    },
    result<T extends object>(code: number, payload: T): number {
      if (json) io.out(JSON.stringify({ event: "result", payload: { exitCode: code, ...payload } }));
      return code;
    },
  };
}

export async function runHeadless(workbench: Workbench, options: HeadlessRunOptions, io: HeadlessIo): Promise<number> {
  const report = jsonReport(io, options.json);
  let sessionId: string;
  let created: string | null = null;
  try {
    const workspace = await call(workbench, "workspace.open", { path: options.workspace });
    // The model first: an unknown one is bad usage before any session exists.
    const wanted = options.model !== undefined ? findModel(await call(workbench, "models.list", {}), options.model) : undefined;
    await reportMcpTrust(workbench, workspace.id, options.trustMcp === true, io);
    let session = await chooseSession(workbench, workspace.id, options, wanted);
    if (options.session === undefined) created = session.id;
    sessionId = session.id;
    const current = session.model;
    if (wanted && !(current && current.provider === wanted.provider && current.api === wanted.api && current.id === wanted.id)) {
      session = await call(workbench, "chat.switchModel", { sessionId, model: wanted });
    }
    const model = session.model;
    if (model === null) throw new UsageError("no model: pass --model <provider>/<model> or configure an API key");
    if (options.reasoning !== undefined) session = await call(workbench, "chat.setReasoning", { sessionId, level: options.reasoning });
    io.err(
      `session ${sessionId} · ${model.provider}/${model.id}${session.reasoning !== "default" ? ` · reasoning ${session.reasoning}` : ""}`,
    );
  } catch (e) {
    // A session this run made and could not use is not left behind empty.
    if (created !== null) await call(workbench, "session.delete", { sessionId: created }).catch(() => undefined);
    const code = e instanceof UsageError ? 2 : 1;
    report.error("run", e instanceof Error ? e.message : String(e), code);
    return report.result(code, { sessionId: null });
  }

  let lastAssistant: AssistantMessage | null = null;
  let turnError: string | null = null;
  const answered = new Set<string>();
  let compactionAnswered = false;
  const done = new Promise<void>((resolve) => {
    const off = workbench.onEvent((event, payload) => {
      const p = payload as { sessionId?: string };
      if (p.sessionId !== sessionId && !(event === "session.updated" && (payload as SessionSummary).id === sessionId)) return;
      if (options.json) io.out(JSON.stringify({ event, payload }));
      onEvent(event, payload);
      if (event === "stream.end") {
        off();
        resolve();
      }
    });
  });

  const onEvent = <E extends EventName>(event: E, payload: unknown): void => {
    if (event === "session.entry") {
      const { entry } = payload as EventPayload<"session.entry">;
      if (entry.type === "message" && entry.message.role === "assistant") lastAssistant = entry.message;
      if (!options.json && entry.type === "approval") {
        io.err(`${entry.toolName}: ${entry.decision}${entry.reason ? ` (${entry.reason})` : ""}`);
      }
    } else if (event === "turn.retry" && !options.json) {
      const r = payload as EventPayload<"turn.retry">;
      io.err(`retrying in ${formatWait(r.delayMs)}${r.hinted ? ", as the provider asked" : ""} (attempt ${r.attempt}): ${r.error}`);
    } else if (event === "turn.error") {
      turnError = (payload as EventPayload<"turn.error">).message;
    } else if (event === "tool.status" && !options.json) {
      const s = payload as EventPayload<"tool.status">;
      if (s.status !== "running" && s.status !== "awaitingApproval") io.err(`${s.toolName}: ${s.status}`);
    } else if (event === "turn.state") {
      const state = payload as EventPayload<"turn.state">;
      if (!state.pendingCompaction) compactionAnswered = false;
      else if (!compactionAnswered) {
        compactionAnswered = true;
        io.err(
          `compacting: the next request would hold about ${state.pendingCompaction.tokens} of ${state.pendingCompaction.window} tokens`,
        );
        void call(workbench, "session.answerCompaction", { sessionId, decision: "compact" }).catch(() => undefined);
      }
      const pending = state.pendingApproval;
      // A sub-agent's approval shows in this turn with the sub-agent's own session (docs/sub-agents.md#sub-agents).
      const key = pending && `${pending.sessionId}\u0000${pending.toolCallId}`;
      if (pending && key && !answered.has(key)) {
        answered.add(key);
        const params =
          options.approve === "all"
            ? { sessionId: pending.sessionId, toolCallId: pending.toolCallId, decision: "approve" as const }
            : {
                sessionId: pending.sessionId,
                toolCallId: pending.toolCallId,
                decision: "deny" as const,
                reason: options.approve === "read-only" ? READ_ONLY_REASON : NOT_APPROVED_REASON,
              };
        void call(workbench, "approval.answer", params).catch((e: unknown) => io.err(`could not answer the approval: ${String(e)}`));
      }
    }
  };

  // Ctrl-C: the run ends either way; a failed abort changes nothing the user can act on.
  const abort = () => void call(workbench, "chat.abort", { sessionId }).catch(() => undefined);
  process.once("SIGINT", abort);
  try {
    // none / read-only: the run's own flag decides, so saved allow rules and "allow" settings do not run anything.
    await call(workbench, "chat.send", {
      sessionId,
      text: options.prompt,
      ...(options.approve === "all" ? {} : { approvals: "askEach" as const }),
      ...(options.limits && Object.keys(options.limits).length > 0 ? { limits: options.limits } : {}),
    });
    await done;
  } catch (e) {
    report.error("run", e instanceof Error ? e.message : String(e), 1);
    return report.result(1, { sessionId });
  } finally {
    process.off("SIGINT", abort);
  }

  if (options.otlp) {
    // The run's outcome stands either way: a collector that is down is said on stderr, never the exit code.
    try {
      const sent = await call(workbench, "otel.exportSession", { sessionId, target: options.otlp });
      if (!options.json) io.err(`trace: ${sent.spans} spans sent`);
    } catch (e) {
      io.err(`trace export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const last = lastAssistant as AssistantMessage | null;
  if (last?.limit && last.stopReason !== "error" && last.stopReason !== "aborted") {
    if (!options.json) io.out(textOf(last));
    io.err(`agent run stopped: this turn reached ${last.limit.detail}`);
    return report.result(1, { sessionId, answer: textOf(last), limit: last.limit.detail });
  }
  if (turnError !== null || last === null || last.stopReason === "error" || last.stopReason === "aborted") {
    const why = turnError ?? last?.errorMessage ?? (last?.stopReason === "aborted" ? "the turn was stopped" : "no answer");
    report.error("run failed", why, 1);
    return report.result(1, { sessionId });
  }
  if (!options.json) io.out(textOf(last));
  return report.result(0, { sessionId, answer: textOf(last) });
}
