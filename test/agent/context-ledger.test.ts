/**
 * The size of the next request: the provider's count of the last answer plus
 * what came after it, scaled by how far the estimates fell short; a change of
 * system prompt and tools since that request counts too (the final request at
 * a limit is sent without tools, the next with them).
 */
import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type Message } from "../../shared/protocol";
import { ContextLedger } from "../../electron/core/agent/context-ledger";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const answer = (text: string, input: number): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  stopReason: "stop",
  model: { provider: "anthropic", api: "anthropic-messages", id: "m" },
  usage: { ...emptyUsage(), input, output: 10 },
  timestamp: 1,
});

describe("the context ledger", () => {
  it("takes the provider's count of the last answer and adds what came after, scaled by how far estimates fell short", () => {
    const ledger = ledgerWith();
    ledger.nextRequest(1_000);
    ledger.push(user("x".repeat(4_000))); // 1,000 tokens by estimate
    ledger.push(answer("y".repeat(40), 3_990)); // the provider counted 4,000 with the answer: twice the estimate
    expect(ledger.nextRequest(1_000)).toBe(4_000);
    ledger.push(user("z".repeat(400))); // 100 more by estimate, 200 scaled
    expect(ledger.nextRequest(1_000)).toBe(4_200);
  });

  it("adds the prompt and tools a request carries that the counted one did not", () => {
    const ledger = ledgerWith();
    ledger.nextRequest(100); // the final request at a limit: no tools
    ledger.push(user("a"));
    ledger.push(answer("b", 500));
    expect(ledger.nextRequest(100)).toBe(510);
    // The next turn's request offers the tools again: 3,000 more.
    expect(ledger.nextRequest(3_100)).toBeGreaterThanOrEqual(3_510);
  });

  it("does not calibrate from answers read back from storage (their prompt is unknown), and estimates more after an overflow", () => {
    const ledger = new ContextLedger();
    ledger.reset([user("x".repeat(400)), answer("y", 50_000)], 0);
    expect(ledger.nextRequest(1_000)).toBe(50_010);
    ledger.push(user("z".repeat(400)));
    // Scale 1: 100 tokens by estimate.
    expect(ledger.nextRequest(1_000)).toBe(50_110);
    ledger.underestimated();
    expect(ledger.nextRequest(1_000)).toBe(50_135);
  });
});

function ledgerWith(): ContextLedger {
  const ledger = new ContextLedger();
  ledger.reset([], 0);
  return ledger;
}
