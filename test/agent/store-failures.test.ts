/**
 * A store that refuses writes during a turn: another process holding
 * SQLite's write lock past the busy timeout, a full disk (a real tmpfs), a
 * failure after the user's message was saved. Each time the core answers in
 * plain words, the session goes back to idle, nothing is half-stored, and
 * Retry (sending the same message again, as the renderer does) works once the
 * cause is gone.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { StoredEntry } from "../../shared/protocol";
import { canMountSmallDisk, mountSmallDisk, type SmallDisk } from "../store/small-disk";
import { expectEveryCallAnswered, messagesOf, startHarness, type Harness } from "./harness";

let h: Harness | null = null;
let dir: string | null = null;
let disk: SmallDisk | null = null;
let holder: Database.Database | null = null;
afterEach(async () => {
  if (holder?.inTransaction) holder.exec("ROLLBACK");
  holder?.close();
  holder = null;
  disk?.free();
  await h?.close();
  h = null;
  disk?.remove();
  disk = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** Another program's connection, holding the write lock until released. */
function holdWriteLock(dbPath: string): Database.Database {
  const db = new Database(dbPath);
  db.exec("BEGIN IMMEDIATE");
  return db;
}

const userTexts = (entries: StoredEntry[]) =>
  messagesOf(entries).flatMap((m) => (m.role === "user" ? m.content.flatMap((c) => (c.type === "text" ? [c.text] : [])) : []));

async function sendRaw(harness: Harness, text: string) {
  return harness.workbench.handle("chat.send", { sessionId: harness.sessionId, text });
}

describe("a store that refuses the user's message", () => {
  it("a held write lock: chat.send answers STORAGE in plain words, the session stays idle, and Retry works once the lock is gone", async () => {
    dir = mkdtempSync(join(tmpdir(), "wb-lock-"));
    const dbPath = join(dir, "workbench.db");
    h = await startHarness({ dbPath });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "answered after the lock" }] }]);
    holder = holdWriteLock(dbPath);

    const refused = await sendRaw(h, "hello through a lock");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe("STORAGE");
    expect(refused.error.message).toMatch(/^Another program is holding the session database locked \(.*\): close it .* press Retry\.$/);
    const { turn } = await h.call("session.load", { sessionId: h.sessionId });
    expect(turn.status).toBe("idle");
    expect(turn.queued).toEqual([]);
    expect(h.faux.requests).toHaveLength(0);

    holder.exec("ROLLBACK");
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "hello through a lock" });
    await h.waitIdle(from);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(userTexts(entries)).toEqual(["hello through a lock"]);
    expect(messagesOf(entries).at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  });

  it.skipIf(!canMountSmallDisk)(
    "a full disk: chat.send says the disk is full, the session stays idle, and Retry works once space is freed",
    async () => {
      disk = mountSmallDisk(4);
      if (disk === null) throw new Error("the tmpfs mount worked a moment ago");
      const dbPath = join(disk.path, "workbench.db");
      h = await startHarness({ dbPath });
      h.faux.script([{ type: "reply", content: [{ type: "text", text: "answered once there was room" }] }]);
      disk.fill();
      // More than any WAL the session could have grown so far: the append must take new space.
      const big = `please read this: ${"lorem ipsum dolor ".repeat(40_000)}`;

      const refused = await sendRaw(h, big);
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.error.code).toBe("STORAGE");
      expect(refused.error.message).toMatch(/^The disk holding your sessions is full \(.*\): free space and press Retry\.$/);
      expect((await h.call("session.load", { sessionId: h.sessionId })).turn.status).toBe("idle");
      // Other requests fail typed too, and the core keeps answering.
      const search = await h.workbench.handle("session.search", { query: "lorem" });
      expect(search.ok).toBe(true);

      disk.free();
      const from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: big });
      await h.waitIdle(from);
      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      expect(userTexts(entries)).toEqual([big]);
      expect(messagesOf(entries).at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
    },
  );
});

describe("a store that fails in the middle of a turn", () => {
  it("the reply cannot be saved: the turn ends with the reason in plain words, the session is idle, and Retry runs the turn again", async () => {
    dir = mkdtempSync(join(tmpdir(), "wb-lock-"));
    const dbPath = join(dir, "workbench.db");
    h = await startHarness({ dbPath });
    h.faux.script([
      // The other program takes the lock while the model answers: the reply's save waits, then fails.
      () => {
        holder = holdWriteLock(dbPath);
        return { type: "reply", content: [{ type: "toolCall", id: "toolu_r", name: "read", arguments: { path: "a.txt" } }] };
      },
      { type: "reply", content: [{ type: "text", text: "second try answered" }] },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "read a" });
    const error = await h.waitFor("turn.error", (p) => p.sessionId === h!.sessionId, from);
    await h.waitIdle(from);
    expect(error.message).toMatch(/^Another program is holding the session database locked .* press Retry\.$/);
    expect((await h.call("session.load", { sessionId: h.sessionId })).turn.status).toBe("idle");

    holder!.exec("ROLLBACK");
    const again = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "read a" });
    await h.waitIdle(again);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expectEveryCallAnswered(entries);
    expect(messagesOf(entries).at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "second try answered" }] });
  });

  it("a message queued behind a turn whose store failed is kept, in order, and saved before the next one", async () => {
    dir = mkdtempSync(join(tmpdir(), "wb-lock-"));
    const dbPath = join(dir, "workbench.db");
    h = await startHarness({ dbPath });
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    h.faux.script([
      async () => {
        await answered;
        holder = holdWriteLock(dbPath);
        return { type: "reply", content: [{ type: "text", text: "first reply, never saved" }] };
      },
      { type: "reply", content: [{ type: "text", text: "after the queue" }] },
    ]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "first" });
    expect(await h.call("chat.send", { sessionId: h.sessionId, text: "queued behind" })).toEqual({ queued: true });
    release();
    await h.waitFor("turn.error", (p) => p.sessionId === h!.sessionId, from);
    await h.waitFor("turn.state", (p) => p.sessionId === h!.sessionId && p.status === "idle", from);
    holder!.exec("ROLLBACK");

    const again = h.events.length;
    await h.call("chat.send", { sessionId: h.sessionId, text: "third" });
    await h.waitIdle(again);
    const { entries } = await h.call("session.load", { sessionId: h.sessionId });
    expect(userTexts(entries)).toEqual(["first", "queued behind", "third"]);
  });
});
