/**
 * The approval card for a side-effect call (write, edit, bash): the preview,
 * the rule that "approve for this session" / "always allow" would add (the
 * exact command or file by default, editable: a prefix such as `npm test *`,
 * or the folder), said in words, and Approve / Approve for this session /
 * Always allow / Deny.
 *
 * Keys that cannot fire by accident (docs/approvals.md): the card never takes
 * the focus, and its keys (Ctrl/Cmd+Enter, Ctrl/Cmd+Shift+Enter, Y, S, N) work
 * only while the focus is inside it, so a user typing or sending a follow-up in
 * the message box cannot answer it. Each approval gets a new card
 * (session-pane.tsx keys it by call), so the focus is never inside a card that
 * just appeared; the card says in words whether its keys are on.
 *
 * What is decided on is shown as it is: control, bidi and zero-width characters
 * in the command, path, cwd, arguments and rule are written out (⟨U+202E⟩).
 *
 * A write/edit with several hunks is reviewed hunk by hunk (review/hunk-list.tsx):
 * whichever way it is approved, only the accepted hunks are applied, or the
 * user's edit of the proposal (docs/change-review.md).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { PendingApproval } from "../../../shared/api";
import { hasInvisible, revealInvisible } from "../../../shared/invisible-chars";
import { describeRule } from "../lib/approval-rules";
import { isTextField } from "../lib/keyboard";
import { isNarrowLayout } from "../lib/layout";
import { toolSummary } from "../lib/tool-summary";
import { reviewToSend, useHunkReviewStore } from "../stores/hunk-review-store";
import { useTurnStore, type ApprovalDecision } from "../stores/turn-store";
import { useUiStore } from "../stores/ui-store";
import { HunkList } from "./review/hunk-list";
import { hunksFromUnified } from "../lib/diff-hunks";
import { DiffSummaryView, selectionFor, TooLargeDiff, type DiffSource } from "./transcript/diff-summary";

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
  // The focus is inside the card: its keys work (said in words on the card).
  const [keysOn, setKeysOn] = useState(false);
  // Ctrl/Cmd+Enter pressed outside the card (the message box): it approved nothing, and the card says so in words.
  const [missedKey, setMissedKey] = useState(false);
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
    if (wholeTool && (decision === "approveForSession" || decision === "approveAlways")) {
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

  // Hunks (and an edit of the proposal) start fresh for each proposal.
  useEffect(() => {
    const key = approval.toolCallId;
    if (preview.kind === "diff") useHunkReviewStore.getState().start(key, preview.hunks?.length ?? 0);
    return () => useHunkReviewStore.getState().clear(key);
  }, [approval.toolCallId, preview]);

  // Show the proposed change in the diff panel as soon as it is proposed (where the panel sits beside the transcript).
  // A change too large to show is not opened; one whose texts were left out opens read-only, from its diff.
  useEffect(() => {
    if (preview.kind !== "diff" || preview.tooLarge || isNarrowLayout()) return;
    const key = `approval:${approval.toolCallId}`;
    if (preview.textsOmitted) {
      const source = { key, path: preview.path, unifiedDiff: preview.unifiedDiff, before: null, after: null, origin: "proposal" as const };
      openDiff(selectionFor(source, hunksFromUnified(preview.unifiedDiff)));
      return;
    }
    openDiff({
      key,
      path: preview.path,
      before: preview.before ?? "",
      after: preview.after,
      origin: "proposal",
      review: { toolCallId: approval.toolCallId, hunks: preview.hunks ?? [] },
    });
  }, [approval.toolCallId, preview, openDiff]);

  useEffect(() => {
    if (denying) reasonRef.current?.focus();
  }, [denying]);

  useEffect(() => {
    const onWindowKey = (e: globalThis.KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key !== "Enter") return;
      if (e.target instanceof Node && cardRef.current?.contains(e.target)) return;
      setMissedKey(true);
    };
    window.addEventListener("keydown", onWindowKey);
    return () => window.removeEventListener("keydown", onWindowKey);
  }, []);

  // Bubbling from inside the card only: the message box never decides (docs/approvals.md).
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.repeat || answering || e.altKey || e.nativeEvent.isComposing) return;
    // The deny reason box takes Enter and Ctrl/Cmd+Enter as "deny with this reason", never as an approval.
    if (e.target === reasonRef.current) return;
    const modifier = e.ctrlKey || e.metaKey;
    const k = e.key.toLowerCase();
    if (modifier && k === "enter") {
      e.preventDefault();
      decide(e.shiftKey ? "approveForSession" : "approve");
      return;
    }
    if (modifier || isTextField(e.target) || !["y", "s", "n"].includes(k)) return;
    e.preventDefault();
    if (k === "y") decide("approve");
    else if (k === "s") decide("approveForSession");
    else setDenying(true);
  };

  const diffSource: DiffSource | null =
    preview.kind === "diff"
      ? {
          key: `approval:${approval.toolCallId}`,
          path: preview.path,
          unifiedDiff: preview.unifiedDiff,
          // Left out: the diff view is built from the diff, read-only.
          before: preview.textsOmitted ? null : preview.before,
          after: preview.textsOmitted ? null : preview.after,
          origin: "proposal",
          tooLarge: preview.tooLarge && { ...preview.tooLarge, added: preview.added, removed: preview.removed },
        }
      : null;
  /** The whole texts came with the proposal: the diff view may review hunks and edit it. */
  const editable = preview.kind === "diff" && !preview.textsOmitted && !preview.tooLarge;

  return (
    <section
      className="approval-card"
      role="region"
      aria-label="Approval required"
      aria-busy={answering}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      ref={cardRef}
      onFocus={() => {
        setKeysOn(true);
        setMissedKey(false);
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setKeysOn(false);
      }}
      data-keys={keysOn ? "on" : "off"}
    >
      <header>
        <span className="waiting-dot" aria-hidden />
        {/* Which agent asks: the session's own, or a sub-agent named after its task (docs/sub-agents.md#sub-agents). */}
        <strong>
          {approval.agent ? `Sub-agent “${approval.agent.name}” is waiting for your approval` : "The agent is waiting for your approval"}
        </strong>
        <span className="muted">
          {revealInvisible(approval.toolName)} · {toolSummary(approval.toolName, approval.args)}
        </span>
        <span className={`badge keys-state${keysOn ? " on" : ""}`} data-testid="keys-state">
          {keysOn ? "Keys on" : "Keys off"}
        </span>
      </header>
      {missedKey && !keysOn && (
        <p className="notice keys-missed" role="status">
          {`${MOD}+Enter outside this card approves nothing. Click the card or Tab to it, then press ${MOD}+Enter to approve once.`}
        </p>
      )}
      {/* Both texts share one cell: the focus a click brings must not move the button under the pointer
          (a hint that wraps to another height made the first click land beside its button). */}
      <p className="muted small key-hint" data-testid="key-hint">
        <span aria-hidden={!keysOn} data-shown={keysOn}>
          {`Keys on: ${MOD}+Enter or Y approves once, ${MOD}+Shift+Enter or S approves for this session, N denies.`}
        </span>
        <span aria-hidden={keysOn} data-shown={!keysOn}>
          {`Keys work once the focus is in this card (click it or Tab to it), never from the message box.`}
        </span>
      </p>
      {/* One scroller for everything that is decided on: at any height each part reads whole (scroll here), the buttons stay put. */}
      <div className="approval-body" data-testid="approval-body">
        {preview.kind === "diff" && diffSource && (
          <>
            <p className="muted">
              {preview.before === null ? "Create" : "Change"} <code>{revealInvisible(preview.path)}</code>
            </p>
            {preview.tooLarge ? (
              <>
                <TooLargeDiff path={preview.path} tooLarge={{ ...preview.tooLarge, added: preview.added, removed: preview.removed }} />
                <p className="muted">Approve or deny the change as a whole.</p>
              </>
            ) : perHunk ? (
              <>
                <div className="diff-summary-head">
                  <span className="diff-counts" aria-label={`${preview.added} lines added, ${preview.removed} lines removed`}>
                    <span className="added">+{preview.added}</span> <span className="removed">−{preview.removed}</span>
                  </span>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() =>
                      openDiff(
                        editable
                          ? {
                              key: diffSource.key,
                              path: preview.path,
                              before: preview.before ?? "",
                              after: preview.after,
                              origin: "proposal",
                              review: { toolCallId: approval.toolCallId, hunks },
                            }
                          : selectionFor(diffSource, hunksFromUnified(preview.unifiedDiff)),
                      )
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
                onOpen={(sel) => openDiff(editable ? { ...sel, review: { toolCallId: approval.toolCallId, hunks } } : sel)}
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
            <pre aria-label="Command">$ {revealInvisible(preview.command)}</pre>
            <p className="muted">
              in <code>{revealInvisible(preview.cwd)}</code> · timeout {Math.round(preview.timeoutMs / 1000)} s
            </p>
            {preview.sandbox && (
              <p className={preview.sandboxed ? "muted sandbox-line" : "sandbox-line unsandboxed"} aria-label="Sandbox">
                {revealInvisible(preview.sandbox)}
              </p>
            )}
            {preview.runsWorkspaceCode && preview.runsWorkspaceCode.length > 0 && (
              <p className="workspace-code" aria-label="Runs workspace code">
                Runs code from the workspace: {preview.runsWorkspaceCode.map(revealInvisible).join("; ")}. Approving it (or a rule for it)
                trusts that code as it is when it runs.
              </p>
            )}
          </div>
        )}
        {preview.kind === "fetch" && (
          <div className="command-preview">
            <p className="muted">
              Fetch a web page from <code>{revealInvisible(preview.host)}</code>. The request carries only this URL:
            </p>
            <pre aria-label="URL">{revealInvisible(preview.url)}</pre>
          </div>
        )}
        {preview.kind === "mcp" && (
          <div className="command-preview">
            <p className="muted">
              MCP tool <code>{revealInvisible(preview.tool)}</code> of server <code>{revealInvisible(preview.server)}</code>
              {preview.readOnlyHint ? " (the server says it only reads: that is the server's claim, not a guarantee)" : ""}
            </p>
            <pre aria-label="Arguments">{revealInvisible(preview.argsJson)}</pre>
          </div>
        )}
        <div className="approval-scope">
          {wholeTool ? (
            <p className="muted" data-testid="scope-words">
              For the session, or always in this workspace (while the server runs the same code), also allows this MCP tool without asking,
              whatever its arguments.
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
                      use <code>{revealInvisible(s)}</code>
                    </button>
                  ))}
              </div>
              {/* The box shows the rule's text as the browser draws it: say what it really holds. */}
              {hasInvisible(rule) && (
                <p className="invisible-note" role="note" data-testid="rule-invisible">
                  The rule holds invisible or control characters: <code>{revealInvisible(rule)}</code>
                </p>
              )}
              <p className="muted" aria-live="polite" data-testid="scope-words">
                {ruleText
                  ? `For the session or always, also allows without asking: ${describeRule(approval.toolName, ruleText)}.`
                  : "Enter a rule to approve for the session or always."}
              </p>
            </>
          ) : (
            <p className="muted" data-testid="scope-words">
              No rule can cover this command (it uses shell features such as redirections, variables, substitutions or wrappers): it can
              only be approved once.
            </p>
          )}
        </div>
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
              // Ctrl/Cmd+Enter too: out of habit it submits what is typed here, the reason; it never approves.
              if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
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
          disabled={answering || (!wholeTool && (!scoped || !ruleText))}
          onClick={() => decide("approveAlways")}
          title={
            wholeTool
              ? "Always allow this tool in this workspace (Settings lists it)"
              : "Save the rule for this workspace (Settings lists it)"
          }
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
