/**
 * A turn paused before compacting (the "Ask before compacting" setting): how
 * full the context is, and Compact (the turn goes on) or Stop the turn. It
 * never takes the focus, like the approval card.
 */
import { useState } from "react";
import type { PendingCompaction } from "../../../shared/api";
import { client } from "../api/current";
import { formatTokens } from "../lib/format";
import { useAppStore } from "../stores/app-store";

export function CompactionPrompt({ sessionId, pending }: { sessionId: string; pending: PendingCompaction }) {
  const [answering, setAnswering] = useState(false);
  const answer = (decision: "compact" | "stop") => {
    setAnswering(true);
    client()
      .call("session.answerCompaction", { sessionId, decision })
      .catch((err: unknown) => useAppStore.getState().reportError("Could not answer", err))
      .finally(() => setAnswering(false));
  };
  const why =
    pending.reason === "overflow"
      ? "The provider refused the last request as too long."
      : `The next request would hold about ${formatTokens(pending.tokens)} of the model's ${formatTokens(pending.window)} tokens.`;
  return (
    <section className="approval-card compaction-prompt" role="region" aria-label="Compact the context?">
      <p>
        <strong>Compact the context?</strong> {why} Compacting replaces old tool outputs by stubs, then summarises older messages; the full
        history stays in the transcript.
      </p>
      <div className="approval-actions">
        <button type="button" className="primary" disabled={answering} onClick={() => answer("compact")}>
          Compact and go on
        </button>
        <button type="button" disabled={answering} onClick={() => answer("stop")}>
          Stop the turn
        </button>
      </div>
    </section>
  );
}
