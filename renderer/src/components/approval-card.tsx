/**
 * The approval card for a side-effect call (write, edit, bash): the preview,
 * the rule that "approve for this session" / "always allow" would add (the
 * exact command or file by default, editable: a prefix such as `npm test *`,
 * or the folder), said in words, and Approve / Approve for this session /
 * Always allow / Deny.
 *
 * Keys that cannot fire by accident (docs/approvals.md): the card never takes
 * the focus; bare keys (Y, S, N) work only while the focus is inside the card;
 * Ctrl/Cmd+Enter approves once and Ctrl/Cmd+Shift+Enter approves for the session
 * from anywhere; and the first keystroke after a card appears is never a
 * decision (it only arms the card), so a user typing a follow-up cannot answer it.
 *
 * A write/edit with several hunks is reviewed hunk by hunk (review/hunk-list.tsx):
 * whichever way it is approved, only the accepted hunks are applied, or the
 * user's edit of the proposal (docs/change-review.md).
 */
import { useEffect, useId, useRef, useState } from "react";
import type { PendingApproval } from "../../../shared/api";
import { describeRule } from "../lib/approval-rules";
import { isTextField } from "../lib/keyboard";
import { isNarrowLayout } from "../lib/layout";
import { toolSummary } from "../lib/tool-summary";
import { reviewToSend, useHunkReviewStore } from "../stores/hunk-review-store";
import { useTurnStore, type ApprovalDecision } from "../stores/turn-store";
import { useUiStore } from "../stores/ui-store";
import { HunkList } from "./review/hunk-list";
import { DiffSummaryView, type DiffSource } from "./transcript/diff-summary";

const MOD = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform) ? "Cmd" : "Ctrl";

export function ApprovalCard({ approval }: { approval: PendingApproval }) {
  const id = useId();
  const answer = useTurnStore((s) => s.answer);
  const answering = useTurnStore((s) => s.answering[approval.sessionId] === approval.toolCallId);
  const openDiff = useUiStore((s) => s.openDiff);
  const [denying, setDenying] = useState(false);
  // "Run unsandboxed" takes two clicks: the first says what it means.
  const [unconfining, setUnconfining] = useState(false);
  const [reason, setReason] = useState("");
  const suggestions = approval.suggestedRules ?? [];
  const [rule, setRule] = useState(suggestions[0] ?? "");
  const [armed, setArmed] = useState(false);
  const cardRef = useRef<HTMLElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const { preview } = approval;
  const scoped = suggestions.length > 0;
  // An MCP tool has no rules: "for this session" allows the tool itself.
  const wholeTool = preview.kind === "mcp";
  const ruleText = rule.trim();
  const hunks = preview.kind === "diff" ? (preview.hunks ?? []) : [];
  const perHunk = hunks.length > 1;
  const review = useHunkReviewStore((s) => s.reviews[approval.toolCallId]);
  const acceptedCount = review ? review.decisions.filter((d) => d === "accepted").length : hunks.length;

  const decide = (decision: ApprovalDecision) => {
    const withRule = decision === "approveForSession" || decision === "approveAlways" || decision === "denyAlways";
    if (wholeTool && decision === "approveForSession") {
      void answer(approval.sessionId, approval.toolCallId, decision);
      return;
    }
    if (withRule && (!scoped || ruleText === "")) return;
    const denied = decision === "deny" || decision === "denyAlways";
    // Any approval (once, for the session, always) applies only the accepted hunks of this call.
    const sent = denied ? undefined : reviewToSend(useHunkReviewStore.getState().reviews[approval.toolCallId]);
    void answer(approval.sessionId, approval.toolCallId, decision, {
      ...(denied ? { reason: reason.trim() || undefined } : {}),
      ...(withRule ? { rule: ruleText } : {}),
      ...(sent ? { review: sent } : {}),
    });
  };

  // A new card starts disarmed, with its own suggestions.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a new approval starts disarmed with its own suggestions; the card is reused across approvals
    setArmed(false);
    setRule(approval.suggestedRules?.[0] ?? "");
    setDenying(false);
    setUnconfining(false);
  }, [approval.toolCallId, approval.suggestedRules]);

  // Hunks (and an edit of the proposal) start fresh for each proposal.
  useEffect(() => {
    const key = approval.toolCallId;
    if (preview.kind === "diff") useHunkReviewStore.getState().start(key, preview.hunks?.length ?? 0);
    return () => useHunkReviewStore.getState().clear(key);
  }, [approval.toolCallId, preview]);

  // Show the proposed change in the diff panel as soon as it is proposed (where the panel sits beside the transcript).
  useEffect(() => {
    if (preview.kind === "diff" && !isNarrowLayout()) {
      openDiff({
        key: `approval:${approval.toolCallId}`,
        path: preview.path,
        before: preview.before ?? "",
        after: preview.after,
        origin: "proposal",
        review: { toolCallId: approval.toolCallId, hunks: preview.hunks ?? [] },
      });
    }
  }, [approval.toolCallId, preview, openDiff]);

  useEffect(() => {
    if (denying) reasonRef.current?.focus();
  }, [denying]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.repeat || answering) return;
      const inCard = cardRef.current?.contains(e.target as Node) ?? false;
      const modifier = e.ctrlKey || e.metaKey;
      const k = e.key.toLowerCase();
      const isDecision =
        (modifier && k === "enter" && !e.altKey) ||
        (inCard && !modifier && !e.altKey && !isTextField(e.target) && ["y", "s", "n"].includes(k));
      if (!armed) {
        // The first keystroke only arms the card: it was typed before the user could have read it.
        if (!["shift", "control", "meta", "alt"].includes(k)) setArmed(true);
        // A decision combo is still swallowed, so it does not send or break the message being typed.
        if (modifier && k === "enter") {
          e.preventDefault();
          e.stopPropagation();
        }
        return;
      }
      if (!isDecision) return;
      e.preventDefault();
      e.stopPropagation();
      if (modifier) decide(e.shiftKey ? "approveForSession" : "approve");
      else if (k === "y") decide("approve");
      else if (k === "s") decide("approveForSession");
      else setDenying(true);
    };
    // Capture: the composer must not also take Ctrl+Enter as "send".
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  });

  const diffSource: DiffSource | null =
    preview.kind === "diff"
      ? {
          key: `approval:${approval.toolCallId}`,
          path: preview.path,
          unifiedDiff: preview.unifiedDiff,
          before: preview.before,
          after: preview.after,
          origin: "proposal",
        }
      : null;

  return (
    <section
      ref={cardRef}
      className="approval-card"
      role="region"
      aria-label="Approval required"
      aria-busy={answering}
      tabIndex={-1}
      onFocus={() => setArmed(true)}
      onPointerDown={() => setArmed(true)}
      data-armed={armed}
    >
      <header>
        <span className="waiting-dot" aria-hidden />
        {/* Which agent asks: the session's own, or a sub-agent named after its task (docs/sub-agents.md#sub-agents). */}
        <strong>
          {approval.agent ? `Sub-agent “${approval.agent.name}” is waiting for your approval` : "The agent is waiting for your approval"}
        </strong>
        <span className="muted">
          {approval.toolName} · {toolSummary(approval.toolName, approval.args)}
        </span>
      </header>
      {preview.kind === "diff" && diffSource && (
        <>
          <p className="muted">
            {preview.before === null ? "Create" : "Change"} <code>{preview.path}</code>
          </p>
          {perHunk ? (
            <>
              <div className="diff-summary-head">
                <span className="diff-counts" aria-label={`${preview.added} lines added, ${preview.removed} lines removed`}>
                  <span className="added">+{preview.added}</span> <span className="removed">−{preview.removed}</span>
                </span>
                <button
                  type="button"
                  className="link-button"
                  onClick={() =>
                    openDiff({
                      key: diffSource.key,
                      path: preview.path,
                      before: preview.before ?? "",
                      after: preview.after,
                      origin: "proposal",
                      review: { toolCallId: approval.toolCallId, hunks },
                    })
                  }
                >
                  Open in diff view
                </button>
              </div>
              <HunkList reviewKey={approval.toolCallId} hunks={hunks} disabled={answering || review?.edited != null} />
            </>
          ) : (
            <DiffSummaryView
              source={diffSource}
              maxRows={40}
              onOpen={(sel) => openDiff({ ...sel, review: { toolCallId: approval.toolCallId, hunks } })}
            />
          )}
          {review?.edited != null && (
            <p className="notice" role="status">
              You are editing the proposal in the diff view: Approve writes your text.{" "}
              <button
                type="button"
                className="link-button"
                onClick={() => useHunkReviewStore.getState().setEdited(approval.toolCallId, null)}
              >
                Discard my edit
              </button>
            </p>
          )}
        </>
      )}
      {preview.kind === "command" && (
        <div className="command-preview">
          <pre aria-label="Command">$ {preview.command}</pre>
          <p className="muted">
            in <code>{preview.cwd}</code> · timeout {Math.round(preview.timeoutMs / 1000)} s
          </p>
          {preview.sandbox && (
            <p className={preview.sandboxed ? "muted sandbox-line" : "sandbox-line unsandboxed"} aria-label="Sandbox">
              {preview.sandbox}
            </p>
          )}
        </div>
      )}
      {preview.kind === "mcp" && (
        <div className="command-preview">
          <p className="muted">
            MCP tool <code>{preview.tool}</code> of server <code>{preview.server}</code> (not marked read-only by the server)
          </p>
          <pre aria-label="Arguments">{preview.argsJson}</pre>
        </div>
      )}
      <div className="approval-scope">
        {wholeTool ? (
          <p className="muted" data-testid="scope-words">
            For the session, also allows this MCP tool without asking, whatever its arguments.
          </p>
        ) : scoped ? (
          <>
            <div className="scope-row">
              <label htmlFor={`${id}-rule`}>Rule</label>
              <input
                id={`${id}-rule`}
                aria-label="Approval rule"
                value={rule}
                onChange={(e) => setRule(e.target.value)}
                spellCheck={false}
              />
              {suggestions
                .filter((s) => s !== ruleText)
                .map((s) => (
                  <button key={s} type="button" className="link-button" onClick={() => setRule(s)}>
                    use <code>{s}</code>
                  </button>
                ))}
            </div>
            <p className="muted" aria-live="polite" data-testid="scope-words">
              {ruleText
                ? `For the session or always, also allows without asking: ${describeRule(approval.toolName, ruleText)}.`
                : "Enter a rule to approve for the session or always."}
            </p>
          </>
        ) : (
          <p className="muted" data-testid="scope-words">
            No rule can cover this command (it uses shell features such as redirections, variables, substitutions or wrappers): it can only
            be approved once.
          </p>
        )}
      </div>
      {denying && (
        <label className="deny-reason">
          Reason for the model (optional)
          <textarea
            ref={reasonRef}
            value={reason}
            rows={2}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
                e.preventDefault();
                decide("deny");
              }
              if (e.key === "Escape") setDenying(false);
            }}
          />
        </label>
      )}
      {unconfining && (
        <p className="sandbox-line unsandboxed" role="note">
          Unsandboxed, this command runs with your full user rights: it can read and change any of your files (your home folder&apos;s keys
          included) and use the network. This applies to this one command only.
        </p>
      )}
      <div className="approval-actions">
        <button
          type="button"
          className="primary"
          disabled={answering}
          onClick={() => decide("approve")}
          aria-keyshortcuts="Control+Enter Y"
        >
          {review?.edited != null
            ? "Approve once (your edit)"
            : perHunk && acceptedCount < hunks.length
              ? `Approve once (${acceptedCount} of ${hunks.length} hunks)`
              : "Approve once"}{" "}
          <kbd>{MOD}+Enter</kbd>
        </button>
        <button
          type="button"
          disabled={answering || (!wholeTool && (!scoped || !ruleText))}
          onClick={() => decide("approveForSession")}
          aria-keyshortcuts="Control+Shift+Enter S"
        >
          Approve for this session <kbd>{MOD}+Shift+Enter</kbd>
        </button>
        <button
          type="button"
          disabled={answering || !scoped || !ruleText}
          onClick={() => decide("approveAlways")}
          title="Save the rule for this workspace (Settings lists it)"
        >
          Always allow
        </button>
        {preview.kind === "command" &&
          preview.sandboxed === true &&
          (unconfining ? (
            <button
              type="button"
              className="danger"
              disabled={answering}
              onClick={() => decide("approveUnsandboxed")}
              title="This one command only; never remembered"
            >
              Run outside the sandbox
            </button>
          ) : (
            <button type="button" disabled={answering} onClick={() => setUnconfining(true)}>
              Run unsandboxed…
            </button>
          ))}
        {denying ? (
          <>
            <button type="button" className="danger" disabled={answering} onClick={() => decide("deny")}>
              Deny
            </button>
            <button type="button" className="danger" disabled={answering || !scoped || !ruleText} onClick={() => decide("denyAlways")}>
              Always deny
            </button>
          </>
        ) : (
          <button type="button" className="danger" disabled={answering} onClick={() => setDenying(true)} aria-keyshortcuts="N">
            Deny… <kbd>N</kbd>
          </button>
        )}
      </div>
    </section>
  );
}
