/** One session in the list: select, rename inline, fork, delete (with confirmation). */
import { memo, useState, type KeyboardEvent } from "react";
import type { SessionSummary } from "../../../../shared/api";
import { FOREIGN_AGENT_LABELS } from "../../../../shared/foreign-agents";
import { formatCost, formatTime } from "../../lib/format";
import { useTurnStore } from "../../stores/turn-store";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { ConfirmDialog } from "../dialogs/confirm-dialog";
import { CloseIcon, ForkIcon, PencilIcon } from "../icons";
import { ReplayButton } from "../../replay";
import { originOf } from "../../lib/session-origin";
import { PublishButton } from "../team/publish-button";

export const SessionItem = memo(function SessionItem({ session, active }: { session: SessionSummary; active: boolean }) {
  const selectSession = useWorkspaceStore((s) => s.selectSession);
  const renameSession = useWorkspaceStore((s) => s.renameSession);
  const deleteSession = useWorkspaceStore((s) => s.deleteSession);
  const forkSession = useWorkspaceStore((s) => s.forkSession);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(session.title);
  const [confirming, setConfirming] = useState(false);
  const turnStatus = useTurnStore((s) => s.turns[session.id]?.status ?? "idle");
  const parentTitle = useWorkspaceStore((s) =>
    session.parentSessionId ? (s.sessions.find((p) => p.id === session.parentSessionId)?.title ?? null) : null,
  );
  const origin = originOf(session, parentTitle);

  const commit = () => {
    const t = title.trim();
    setRenaming(false);
    if (t && t !== session.title) void renameSession(session.id, t);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") commit();
    if (e.key === "Escape") {
      setTitle(session.title);
      setRenaming(false);
    }
  };

  return (
    <li className={`session-item${active ? " active" : ""}`}>
      {renaming ? (
        <input
          aria-label="Session title"
          value={title}
          autoFocus
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={onKey}
          onBlur={commit}
          maxLength={200}
        />
      ) : (
        <button
          type="button"
          className="session-select"
          aria-current={active ? "true" : undefined}
          title={origin ? `${session.title}\n${origin}` : session.title}
          onClick={() => selectSession(session.id)}
        >
          <span className="session-name">{session.title}</span>
          {session.origin !== undefined && (
            <span className="badge origin-badge" title={`Imported from ${FOREIGN_AGENT_LABELS[session.origin]}`}>
              {FOREIGN_AGENT_LABELS[session.origin]}
            </span>
          )}
          {origin && <span className="session-origin muted">{origin}</span>}
          <span className="session-meta muted">
            {formatTime(session.updatedAt)}
            {session.totalCost > 0 ? ` · ${formatCost(session.totalCost)}` : ""}
            {session.parentToolCallId !== undefined ? " · sub-agent" : ""}
            {turnStatus === "awaitingApproval" && <span className="badge warn session-state">waiting for approval</span>}
            {turnStatus === "running" && <span className="badge session-state">running</span>}
          </span>
        </button>
      )}
      {!renaming && (
        <span className="session-actions">
          <ReplayButton session={session} />
          <PublishButton session={session} />
          <button
            type="button"
            className="icon"
            aria-label={`Rename session ${session.title}`}
            title="Rename"
            onClick={() => {
              setTitle(session.title);
              setRenaming(true);
            }}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            className="icon"
            aria-label={`Fork session ${session.title}`}
            title="Fork (copy the whole session)"
            disabled={session.entryCount === 0}
            onClick={() => void forkSession(session.id, session.entryCount)}
          >
            <ForkIcon />
          </button>
          <button
            type="button"
            className="icon"
            aria-label={`Delete session ${session.title}`}
            title="Delete"
            onClick={() => setConfirming(true)}
          >
            <CloseIcon />
          </button>
        </span>
      )}
      {confirming && (
        <ConfirmDialog
          title="Delete this session?"
          body={`“${session.title}” and its ${session.entryCount === 1 ? "1 entry" : `${session.entryCount.toLocaleString()} entries`} will be deleted. This cannot be undone.`}
          confirmLabel="Delete"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void deleteSession(session.id);
          }}
        />
      )}
    </li>
  );
});
