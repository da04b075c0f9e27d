/**
 * One card per tool call: name, readable summary, status, duration, exit code,
 * truncation, the approval decision, an inline diff, and raw input/output on demand.
 * The call's name, path, command and input show invisible characters written out (⟨U+202E⟩).
 */
import { memo, useMemo, useState } from "react";
import { revealInvisible } from "../../../../shared/invisible-chars";
import { decidedByText } from "../../lib/approval-rules";
import type { ToolCall } from "../../../../shared/protocol";
import { formatDuration } from "../../lib/format";
import { readToolDetails, type HookRun } from "../../lib/tool-details";
import { STATUS_LABEL, toolStatusOf } from "../../lib/tool-status";
import { errorPreview, toolPath, toolSummary } from "../../lib/tool-summary";
import { DiffSummaryView, type DiffSource } from "./diff-summary";
import { useTranscriptContext } from "./transcript-context";
import { SubAgentLink } from "./sub-agent-link";

const OUTPUT_PREVIEW_CHARS = 20_000;

const DECISION_LABEL: Record<string, string> = {
  approved: "Approved",
  approvedForSession: "Approved for this session",
  denied: "Denied",
  autoApproved: "Allowed by policy",
  autoDenied: "Denied by policy",
};

const capitalize = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

export const ToolCard = memo(function ToolCard({ call, streaming }: { call: ToolCall; streaming?: boolean }) {
  const ctx = useTranscriptContext();
  const [expanded, setExpanded] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const attached = ctx.results.get(call.id) ?? null;
  const result = attached?.message ?? null;
  const approval = ctx.approvals.get(call.id) ?? null;
  const live = ctx.toolStatus[call.id] ?? null;
  const path = toolPath(call.arguments);
  const details = useMemo(() => readToolDetails(result, path), [result, path]);
  const status = toolStatusOf({
    result,
    details,
    approval,
    live: live?.status ?? (ctx.running && !streaming ? "pending" : null),
    awaitingApproval: ctx.pendingApprovalId === call.id,
  });
  const summary = call.argumentsError ? "invalid arguments" : toolSummary(call.name, call.arguments);
  // Stored duration only once a result exists, so a reloaded session shows exactly what it showed live.
  const duration = result ? details.durationMs : (live?.durationMs ?? null);
  const output = useMemo(
    () => (result ? result.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n") : ""),
    [result],
  );
  const diffSource: DiffSource | null = useMemo(
    () =>
      details.diff
        ? {
            key: call.id,
            path: details.diff.path,
            unifiedDiff: details.diff.unifiedDiff,
            before: details.diff.before,
            after: details.diff.after,
            origin: "result",
            tooLarge: details.diff.tooLarge && { ...details.diff.tooLarge, added: details.diff.added, removed: details.diff.removed },
          }
        : null,
    [details.diff, call.id],
  );

  return (
    <article className={`tool-card status-${status}`} aria-label={`Tool call ${call.name}: ${summary}`} data-status={status}>
      <header className="tool-head">
        <button
          type="button"
          className="tool-toggle"
          aria-expanded={expanded}
          aria-label={`${expanded ? "Hide" : "Show"} details of ${call.name} ${summary}`}
          onClick={() => setExpanded((v) => !v)}
        >
          <span className="chevron" aria-hidden>
            {expanded ? "▾" : "▸"}
          </span>
          <span className="tool-name">{revealInvisible(call.name)}</span>
          <span className="tool-summary">{summary}</span>
        </button>
        <span className={`badge status status-${status}`} role="status" aria-label={`Status: ${STATUS_LABEL[status]}`}>
          {STATUS_LABEL[status]}
        </span>
        {duration !== null && <span className="meta">{formatDuration(duration)}</span>}
        {details.exitCode !== null && (
          <span className={`badge ${details.exitCode === 0 ? "ok" : "warn"}`} title="Exit code">
            exit {details.exitCode}
          </span>
        )}
        {details.truncated && (
          <span className="badge warn" title="The output was cut to the tool's limit">
            truncated
          </span>
        )}
        {call.name === "task" && <SubAgentLink toolCallId={call.id} result={result} />}
      </header>
      {approval && (approval.decision !== "autoApproved" || approval.rules) && (
        <p className={`tool-decision decision-${approval.decision}`}>
          {approval.decidedBy === "policy" && approval.rules
            ? capitalize(decidedByText(approval.rules))
            : (DECISION_LABEL[approval.decision] ?? approval.decision)}
          {approval.decidedBy === "user" && approval.rules
            ? ` · ${approval.rules[0].action === "deny" ? "always denied" : approval.rules[0].source === "session" ? "from now on" : "always allowed"}: ${approval.rules.map((r) => `\`${revealInvisible(r.pattern)}\``).join(", ")}`
            : ""}
          {approval.reason && approval.decidedBy === "user" ? `: ${approval.reason}` : ""}
          {approval.unsandboxed ? " · run unsandboxed (your choice, this command only)" : ""}
        </p>
      )}
      {details.sandboxWarnings.map((w) => (
        <p key={w} className="tool-sandbox-warning" role="alert">
          {w}
        </p>
      ))}
      {details.hooks.map((hook, i) => (
        <p key={i} className={`tool-hook${hook.decision === "deny" ? " tool-error" : ""}`} data-testid="hook-run">
          {hookLine(hook)}
        </p>
      ))}
      {call.argumentsError && <p className="tool-error">{argumentsNote(call.argumentsError)}</p>}
      {diffSource && !result?.isError && <DiffSummaryView source={diffSource} onOpen={ctx.actions.openDiff} />}
      {/* A denial is said once, by the decision line (its result only repeats it for the model). */}
      {result?.isError && !expanded && output && !deniedByDecision(approval) && <p className="tool-error">{errorPreview(output)}</p>}
      {expanded && (
        <div className="tool-raw">
          <h4>Input</h4>
          <pre aria-label="Tool input">{revealInvisible(call.rawArguments ?? JSON.stringify(call.arguments, null, 2))}</pre>
          <h4>Output</h4>
          {result ? (
            <>
              <pre aria-label="Tool output" className={result.isError ? "error" : ""}>
                {showAll ? output : output.slice(0, OUTPUT_PREVIEW_CHARS)}
              </pre>
              {output.length > OUTPUT_PREVIEW_CHARS && !showAll && (
                <button type="button" className="link-button" onClick={() => setShowAll(true)}>
                  Show all {output.length.toLocaleString()} characters
                </button>
              )}
            </>
          ) : (
            <p className="muted">No output yet.</p>
          )}
        </div>
      )}
    </article>
  );
});

/** One hook's run in words: the event, the command, and its exit status, decision and output, or why it did not run. */
function hookLine(hook: HookRun): string {
  const head = `${hook.event} hook (${hook.source}) \`${revealInvisible(hook.command.slice(0, 120))}\``;
  if (!hook.ran) return `${head}: ${hook.skipped ?? "not run"}`;
  const status = hook.timedOut ? "timed out" : `exit ${hook.exitCode ?? "?"}`;
  const decision = hook.decision ? ` · ${hook.decision}${hook.reason ? `: ${revealInvisible(hook.reason)}` : ""}` : "";
  const output = (hook.stderr || hook.stdout || "").trim();
  return `${head}: ${status}${decision}${output && !hook.reason ? ` · ${revealInvisible(output.slice(0, 300))}` : ""}`;
}

function deniedByDecision(approval: { decision: string } | null): boolean {
  return approval !== null && (approval.decision === "denied" || approval.decision === "autoDenied");
}

/** Why a call's arguments were unusable: cut off ("Stopped before its arguments were complete.") or invalid. */
function argumentsNote(error: string): string {
  const cut = /^truncated: (.+)$/.exec(error);
  if (cut) return `${cut[1][0].toUpperCase()}${cut[1].slice(1)}.`;
  return `Arguments could not be used: ${error}`;
}
