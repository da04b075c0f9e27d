/** A tool call's status from what is known: its stored result, its decision, live events. */
import type { ToolStatus } from "../../../shared/api";
import type { ApprovalEntry, ToolResultMessage } from "../../../shared/protocol";
import type { ToolDetails } from "./tool-details";

export function toolStatusOf(args: {
  result: ToolResultMessage | null;
  details: ToolDetails;
  approval: ApprovalEntry | null;
  live: ToolStatus | null;
  awaitingApproval: boolean;
}): ToolStatus {
  const { result, details, approval, live, awaitingApproval } = args;
  if (result) {
    if (details.errorCode === "DENIED" || approval?.decision === "denied" || approval?.decision === "autoDenied") return "denied";
    if (details.errorCode === "ABORTED") return "aborted";
    return result.isError ? "error" : "done";
  }
  if (awaitingApproval) return "awaitingApproval";
  return live ?? "pending";
}

export const STATUS_LABEL: Record<ToolStatus, string> = {
  pending: "Pending",
  awaitingApproval: "Awaiting approval",
  running: "Running",
  done: "Done",
  error: "Error",
  denied: "Denied",
  aborted: "Aborted",
};
