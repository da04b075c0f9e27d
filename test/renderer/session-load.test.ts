import { describe, expect, it } from "vitest";
import { parseEnvelope, validateInChunks, validateRange } from "../../renderer/src/lib/session-load";
import { assistant, user } from "./fixtures";

const summary = {
  id: "s",
  workspaceId: "w",
  title: "t",
  createdAt: 1,
  updatedAt: 1,
  model: null,
  parentSessionId: null,
  parentSeq: null,
  entryCount: 2,
  totalCost: 0,
  totalTokens: 0,
};
const turn = { sessionId: "s", status: "idle", queued: [], pendingApproval: null };

describe("loading a session in steps", () => {
  it("refuses a response whose envelope breaks the contract, with a typed error", () => {
    expect(() => parseEnvelope({ session: summary, entries: "nope", turn })).toThrowError(/does not match the contract/);
  });

  it("leaves out and counts entries that fail validation, keeping the others", () => {
    const raw = [user(1, "a"), { seq: 2, entry: { type: "message", message: { role: "user" } } }, assistant(3, { text: "b" })];
    const out = validateRange(raw, 0, raw.length);
    expect(out.entries.map((e) => e.seq)).toEqual([1, 3]);
    expect(out.invalid).toBe(1);
  });

  it("validates the older entries in chunks and stops when cancelled", async () => {
    const raw = Array.from({ length: 2500 }, (_, i) => user(i + 1, `m${i}`));
    const all = await validateInChunks(raw, 0, raw.length, () => false);
    expect(all?.entries).toHaveLength(2500);
    expect(await validateInChunks(raw, 0, raw.length, () => true)).toBeNull();
  });
});
