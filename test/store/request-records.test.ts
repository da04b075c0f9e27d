/**
 * Recorded requests (store/request-records.ts): every body reads back byte
 * for byte, a long turn stores its history about once (not once per request),
 * forks keep their steps' records and a deleted session leaves none behind.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { chunkEnds } from "../../electron/core/store/request-records";
import { MODELS, startHarness, type Harness } from "../agent/harness";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let h: Harness | null = null;
let dir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe("content-defined chunks", () => {
  it("cut the same bytes at the same places after an insertion earlier in the text", () => {
    const tail = Buffer.from(Array.from({ length: 4000 }, (_, i) => `line ${i * 7919} of the history`).join("\n"));
    const a = chunkEnds(tail);
    const prefix = Buffer.from("a new message inserted before it all\n");
    const b = chunkEnds(Buffer.concat([prefix, tail])).map((end) => end - prefix.length);
    // All but the first chunk or two line up again once the insertion is behind.
    const shared = a.filter((end) => b.includes(end)).length;
    expect(a.length).toBeGreaterThan(10);
    expect(shared).toBeGreaterThanOrEqual(a.length - 2);
  });
});

describe("a long turn's recorded requests", () => {
  it(
    "300 tool calls: every request reads back as sent, and the records take a small part of what was sent",
    async () => {
      dir = mkdtempSync(join(tmpdir(), "wb-records-"));
      const dbPath = join(dir, "sessions.db");
      const files = Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n${"// filler\n".repeat(80)}`]),
      );
      const raws: string[] = [];
      h = await startHarness({ files, dbPath, model: MODELS.anthropic, faux: { onRawBody: (raw) => raws.push(raw) } });
      await h.call("settings.update", {
        budget: { maxToolCalls: 5_000, maxOutputBytes: 1e9, maxDurationMs: 3_600_000, maxSideEffects: 10 },
      });
      let step = 0;
      const responder = () =>
        step < 300
          ? {
              type: "reply" as const,
              content: [{ type: "toolCall" as const, id: `call_${step}`, name: "read", arguments: { path: `src/f${step++}.ts` } }],
            }
          : { type: "reply" as const, content: [{ type: "text" as const, text: "read them all" }] };
      h.faux.script(Array.from({ length: 301 }, () => responder));
      await h.turn("read every file under src, one by one");

      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      const answers = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant").map((e) => e.seq);
      expect(answers).toHaveLength(301);
      expect(raws).toHaveLength(301);
      for (const i of [0, 1, 150, 299, 300]) {
        const view = await h.call("review.modelView", { sessionId: h.sessionId, seq: answers[i] });
        expect(view.recorded).toBe(true);
        expect(view.raw).toBe(raws[i]);
      }
      const sessionId = h.sessionId;
      await h.close();
      h = null;

      const db = new Database(dbPath, { readonly: true });
      try {
        const records = db
          .prepare(`SELECT count(*) AS n, sum(bytes) AS sent, sum(length(chunks)) AS hashes FROM request_records`)
          .get() as {
          n: number;
          sent: number;
          hashes: number;
        };
        const chunks = db.prepare(`SELECT count(*) AS n, sum(length(data)) AS data FROM request_chunks`).get() as {
          n: number;
          data: number;
        };
        const sent = raws.reduce((sum, r) => sum + Buffer.byteLength(r), 0);
        const stored = records.hashes + chunks.data;
        const entryBytes =
          (db.prepare(`SELECT sum(length(content)) FROM entries WHERE session_id = ?`).pluck().get(sessionId) as number) ?? 0;
        // The figures, for the record: bytes sent against bytes stored.
        console.log(
          `RECORDED ${JSON.stringify({ requests: records.n, sentBytes: sent, storedBytes: stored, chunkRows: chunks.n, entryBytes, dbFileBytes: statSync(dbPath).size, ratio: stored / sent })}`,
        );
        expect(records.n).toBe(301);
        expect(records.sent).toBe(sent);
        // Stored once, not 301 times: well under a twentieth of the bodies sent.
        expect(stored).toBeLessThan(sent / 20);
      } finally {
        db.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );

  it(
    "a fork keeps the records of the steps it copied; deleting the source leaves the fork's and drops the source's",
    async () => {
      const raws: string[] = [];
      h = await startHarness({ faux: { onRawBody: (raw) => raws.push(raw) } });
      h.faux.script([{ type: "reply", content: [{ type: "text", text: "first" }] }]);
      await h.turn("one");
      h.faux.script([{ type: "reply", content: [{ type: "text", text: "second" }] }]);
      await h.turn("two");
      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      const answers = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant").map((e) => e.seq);
      const fork = await h.call("session.fork", { sessionId: h.sessionId, atSeq: answers[0] });
      await h.call("session.delete", { sessionId: h.sessionId });
      const view = await h.call("review.modelView", { sessionId: fork.id, seq: answers[0] });
      expect(view.raw).toBe(raws[0]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
