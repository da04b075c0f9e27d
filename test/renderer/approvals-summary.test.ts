import { describe, expect, it } from "vitest";
import { approvalsSummary } from "../../renderer/src/replay/replay-format";

const none = { approved: 0, approvedForSession: 0, denied: 0, autoApproved: 0, autoDenied: 0 };

describe("the approvals line of the statistics", () => {
  it("says each decision once in the plain case", () => {
    expect(approvalsSummary({ granted: 1, denied: 1, byDecision: { ...none, approved: 1, denied: 1 } })).toBe("1 approved, 1 denied");
    expect(approvalsSummary({ granted: 0, denied: 0, byDecision: none })).toBe("0 approved, 0 denied");
  });

  it("says how they were given when it is not the plain case", () => {
    expect(approvalsSummary({ granted: 3, denied: 1, byDecision: { ...none, approved: 2, approvedForSession: 1, autoDenied: 1 } })).toBe(
      "3 approved (2 once, 1 for the session), 1 denied by a rule",
    );
    expect(approvalsSummary({ granted: 1, denied: 2, byDecision: { ...none, autoApproved: 1, denied: 1, autoDenied: 1 } })).toBe(
      "1 approved by a rule, 2 denied (1 by the user, 1 by a rule)",
    );
  });
});
