/**
 * Repair keeps invariant 1 across the whole session, not only at its end: a
 * call that a later assistant message left behind (a response cut inside the
 * call's arguments, then retried) is answered at open wherever it is, also in
 * a database written before every open call was tracked.
 */
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { StoredEntry } from "../../shared/protocol";
import { SessionStore } from "../../electron/core/store";
import { UNANSWERED_RESULT_TEXT } from "../../electron/core/store/repair";
import { assistant, tempDir, toolCall, toolResult, user, type TempDir } from "./helpers";

let dir: TempDir;
afterEach(() => dir?.remove());

function unanswered(entries: StoredEntry[]): string[] {
  const calls: string[] = [];
  for (const { entry } of entries) {
    if (entry.type !== "message") continue;
    const m = entry.message;
    if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall") calls.push(b.id);
    if (m.role === "toolResult") {
      const i = calls.indexOf(m.toolCallId);
      if (i >= 0) calls.splice(i, 1);
    }
  }
  return calls;
}

/** A session with a failed attempt in its middle: its call was never answered, the retry's was, and later turns followed. */
function sessionWithOrphanInTheMiddle(store: SessionStore): string {
  const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
  store.appendEntry(s.id, user("read a"));
  store.appendEntry(s.id, assistant([toolCall("toolu_cut", "read")], { stopReason: "error" }));
  store.appendEntry(s.id, assistant([toolCall("toolu_ok", "read")]));
  store.appendEntry(s.id, toolResult("toolu_ok", "contents of a"));
  store.appendEntry(s.id, assistant([{ type: "text", text: "a says hello" }]));
  for (let i = 0; i < 20; i++) {
    store.appendEntry(s.id, user(`more ${i}`));
    store.appendEntry(s.id, assistant([{ type: "text", text: `reply ${i}` }]));
  }
  return s.id;
}

describe("repair across the whole session", () => {
  it("answers, at open, a call a later assistant message left behind in the middle of the session", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const id = sessionWithOrphanInTheMiddle(store);
    expect(unanswered(store.loadEntries(id))).toEqual(["toolu_cut"]);
    store.close();

    const reopened = SessionStore.open(path);
    expect(reopened.openReport.repaired).toEqual([{ sessionId: id, added: 1 }]);
    const entries = reopened.loadEntries(id);
    expect(unanswered(entries)).toEqual([]);
    expect(entries.at(-1)?.entry).toMatchObject({
      type: "message",
      message: { role: "toolResult", toolCallId: "toolu_cut", isError: true, content: [{ type: "text", text: UNANSWERED_RESULT_TEXT }] },
    });
    reopened.close();
    const third = SessionStore.open(path);
    expect(third.openReport.repaired).toEqual([]);
    third.close();
  });

  it("scans once, at open, a session written when only the last message's open calls were recorded", () => {
    dir = tempDir();
    const path = dir.file("s.db");
    const store = SessionStore.open(path);
    const id = sessionWithOrphanInTheMiddle(store);
    // The rows as the app before this change wrote them: the later assistant message replaced the open calls.
    const fresh = store.createSession({ workspaceId: store.addWorkspace("/w2").id });
    store.appendEntry(fresh.id, assistant([toolCall("done", "read")]));
    store.appendEntry(fresh.id, toolResult("done", "ok"));
    store.close();
    const raw = new Database(path);
    raw.prepare(`UPDATE entries SET open_tool_calls = NULL`).run();
    raw.prepare(`UPDATE sessions SET calls_checked = 0`).run();
    raw.close();

    const reopened = SessionStore.open(path);
    expect(reopened.openReport.repaired).toEqual([{ sessionId: id, added: 1 }]);
    expect(unanswered(reopened.loadEntries(id))).toEqual([]);
    expect(unanswered(reopened.loadEntries(fresh.id))).toEqual([]);
    expect(reopened.getSession(fresh.id)?.entryCount).toBe(2);
    reopened.close();
    const third = SessionStore.open(path);
    expect(third.openReport.repaired).toEqual([]);
    third.close();
  });

  it("a result answers the call of its own message when an older unanswered call has the same id", () => {
    const store = SessionStore.open(":memory:");
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, assistant([toolCall("same", "read")], { stopReason: "error" }));
    store.appendEntry(s.id, assistant([toolCall("same", "read")]));
    store.appendEntry(s.id, toolResult("same", "the retry's result"));
    // The retry's call is answered; the failed attempt's is left for repair (and only it).
    expect(store.repairSession(s.id)).toBe(1);
    const entries = store.loadEntries(s.id);
    expect(entries.map((e) => (e.entry.type === "message" ? e.entry.message.role : e.entry.type))).toEqual([
      "assistant",
      "assistant",
      "toolResult",
      "toolResult",
    ]);
    expect(store.repairSession(s.id)).toBe(0);
    store.close();
  });

  it("a fork copies the calls still open up to its point, so repair answers them there too", () => {
    const store = SessionStore.open(":memory:");
    const s = store.createSession({ workspaceId: store.addWorkspace("/w").id });
    store.appendEntry(s.id, user("go"));
    store.appendEntry(s.id, assistant([toolCall("cut", "read")], { stopReason: "error" }));
    store.appendEntry(s.id, assistant([{ type: "text", text: "retried" }]));
    const fork = store.forkSession(s.id, 3);
    expect(store.repairSession(fork.id)).toBe(1);
    expect(unanswered(store.loadEntries(fork.id))).toEqual([]);
    store.close();
  });
});
