/**
 * On a task call's card: the sub-agent's session, which opens from here
 * (docs/sub-agents.md#sub-agents). Known from the call's result once it is
 * stored, and while it runs from the session list (the child names its
 * parent step and the call).
 */
import type { ToolResultMessage } from "../../../../shared/protocol";
import { useWorkspaceStore } from "../../stores/workspace-store";
import { useTranscriptContext } from "./transcript-context";

function resultSession(result: ToolResultMessage | null): string | null {
  const details = result?.details;
  if (typeof details !== "object" || details === null || !("subAgent" in details)) return null;
  const sub = details.subAgent;
  return typeof sub === "object" && sub !== null && "sessionId" in sub && typeof sub.sessionId === "string" ? sub.sessionId : null;
}

export function SubAgentLink({ toolCallId, result }: { toolCallId: string; result: ToolResultMessage | null }) {
  const { sessionId, actions } = useTranscriptContext();
  const stored = resultSession(result);
  const listed = useWorkspaceStore(
    (s) => s.sessions.find((x) => x.parentToolCallId === toolCallId && x.parentSessionId === sessionId) ?? null,
  );
  const childId = stored ?? listed?.id ?? null;
  const open = actions.openSession;
  if (!childId || !open) return null;
  return (
    <button type="button" className="link-button sub-agent-link" onClick={() => open(childId)} title="The sub-agent's own transcript">
      Open sub-agent session
    </button>
  );
}
