/**
 * A connection dropped inside a tool call's arguments: the failed attempt is
 * stored with its (never runnable) call, the retry succeeds. That call must
 * have its answer at once, and through later turns, a restart, an export and
 * its re-import (invariant 1, docs/architecture.md#invariants); the requests
 * that follow never send it unanswered (the faux provider's strict validators
 * check every one).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { faults, reply, text, toolCall } from "../../electron/core/faux";
import { expectAllAccepted, expectEveryCallAnswered, messagesOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
let dir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe("a response cut inside a tool call's arguments, then retried", () => {
  it("leaves no call unanswered after the turn, a later turn, a restart, an export and its import", async () => {
    dir = mkdtempSync(join(tmpdir(), "wb-cut-"));
    const dbPath = join(dir, "workbench.db");
    h = await startHarness({ dbPath, files: { "a.txt": "hello\n" } });
    h.faux.script([
      faults.dropConnection(reply([toolCall("read", { path: "a.txt", offset: 1, limit: 100 }, "toolu_cut")], { chunkSize: 3 }), 5),
      reply([toolCall("read", { path: "a.txt" }, "toolu_ok")]),
      reply([text("a.txt says hello")]),
      reply([text("and again")]),
    ]);
    await h.turn("read a.txt");
    const first = (await h.call("session.load", { sessionId: h.sessionId })).entries;
    const failed = messagesOf(first).find((m) => m.role === "assistant" && m.stopReason === "error");
    expect(failed?.content.some((b) => b.type === "toolCall")).toBe(true);
    expectEveryCallAnswered(first);

    await h.turn("once more");
    expectEveryCallAnswered((await h.call("session.load", { sessionId: h.sessionId })).entries);
    expectAllAccepted(h);

    const sessionId = h.sessionId;
    const workspaceId = h.workspaceId;
    await h.close();
    h = await startHarness({ dbPath });
    const reopened = await h.call("session.load", { sessionId });
    expectEveryCallAnswered(reopened.entries);
    expect(reopened.entries).toHaveLength(first.length + 2);

    const file = await h.call("review.export", { sessionId, format: "json" });
    const imported = await h.call("review.import", { workspaceId, content: file.content });
    expectEveryCallAnswered((await h.call("session.load", { sessionId: imported.id })).entries);
  });
});
