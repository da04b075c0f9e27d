/**
 * The request body each assistant message was answered to, recorded as it
 * went out ("what the model saw", docs/architecture.md#review-and-replay).
 *
 * A turn's requests repeat each other: each carries the whole history before
 * it plus one more step. So a body is cut into content-defined chunks (a gear
 * rolling hash picks the cut points from the bytes themselves, so an insertion
 * moves only the chunks around it) and each distinct chunk is stored once per
 * session, deflated; a record is the list of its chunks' hashes. A 300-call
 * turn then stores its history about once, not 300 times.
 *
 * Chunks belong to their session (deleted with it, copied into a fork), so no
 * chunk is shared between sessions and none needs reference counting.
 */
import { createHash } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { StoreContext } from "./db";
import { StoreError } from "./errors";
import { SEQ_SPAN } from "./keys";

const HASH_BYTES = 16;
const MIN_CHUNK = 1024;
const MAX_CHUNK = 32 * 1024;
/** A cut where the hash's top 12 bits are zero: chunks of about 4 KiB past the minimum. */
const CUT_MASK = 0xfff00000;

/** 256 fixed pseudo-random 32-bit values (a xorshift sequence), the gear table. */
const GEAR: Uint32Array = (() => {
  const table = new Uint32Array(256);
  let x = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    table[i] = x >>> 0;
  }
  return table;
})();

/** Content-defined cut points of `bytes` (each chunk's end), MIN_CHUNK..MAX_CHUNK long except the last. */
export function chunkEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  let start = 0;
  while (start < bytes.length) {
    const limit = Math.min(bytes.length, start + MAX_CHUNK);
    let end = limit;
    let hash = 0;
    for (let i = start + MIN_CHUNK; i < limit; i++) {
      hash = ((hash << 1) + GEAR[bytes[i]]) >>> 0;
      if ((hash & CUT_MASK) === 0) {
        end = i + 1;
        break;
      }
    }
    ends.push(end);
    start = end;
  }
  return ends;
}

export interface RecordedRequestSize {
  /** Bytes of the bodies as sent. */
  sent: number;
  /** Bytes the records and their chunks take in the database (data and hashes, not SQLite's page overhead). */
  stored: number;
  requests: number;
}

/** Records `raw` as the request behind the session's entry `seq`. Runs inside the caller's transaction when there is one. */
export function recordRequest(ctx: StoreContext, sessionNum: number, seq: number, raw: string): void {
  const bytes = Buffer.from(raw, "utf8");
  const hashes: Buffer[] = [];
  const insert = ctx.stmt(`INSERT OR IGNORE INTO request_chunks (session_num, hash, data) VALUES (?, ?, ?)`);
  let start = 0;
  for (const end of chunkEnds(bytes)) {
    const chunk = bytes.subarray(start, end);
    const hash = createHash("sha256").update(chunk).digest().subarray(0, HASH_BYTES);
    // Compressing only what is new: a chunk already stored is skipped by its hash.
    if (!hasChunk(ctx, sessionNum, hash)) insert.run(sessionNum, hash, deflateRawSync(chunk));
    hashes.push(hash);
    start = end;
  }
  ctx
    .stmt(`INSERT OR REPLACE INTO request_records (entry_id, chunks, bytes) VALUES (?, ?, ?)`)
    .run(sessionNum * SEQ_SPAN + seq, Buffer.concat(hashes), bytes.length);
}

function hasChunk(ctx: StoreContext, sessionNum: number, hash: Buffer): boolean {
  return ctx.stmt(`SELECT 1 FROM request_chunks WHERE session_num = ? AND hash = ?`).get(sessionNum, hash) !== undefined;
}

/** The recorded body behind entry `seq`, or undefined when none was recorded (older sessions, imports). */
export function loadRequest(ctx: StoreContext, sessionNum: number, seq: number): string | undefined {
  const row = ctx.stmt(`SELECT chunks, bytes FROM request_records WHERE entry_id = ?`).get(sessionNum * SEQ_SPAN + seq) as
    { chunks: Buffer; bytes: number } | undefined;
  if (row === undefined) return undefined;
  const read = ctx.stmt(`SELECT data FROM request_chunks WHERE session_num = ? AND hash = ?`).pluck();
  const parts: Buffer[] = [];
  for (let at = 0; at < row.chunks.length; at += HASH_BYTES) {
    const data = read.get(sessionNum, row.chunks.subarray(at, at + HASH_BYTES)) as Buffer | undefined;
    if (data === undefined) throw new StoreError("DAMAGED", `the recorded request of entry #${seq} lost a chunk`);
    parts.push(inflateRawSync(data));
  }
  const body = Buffer.concat(parts);
  if (body.length !== row.bytes) throw new StoreError("DAMAGED", `the recorded request of entry #${seq} has the wrong length`);
  return body.toString("utf8");
}

/** Copies the records of entries 1..atSeq and the session's chunks into a fork (same seqs). */
export function copyRequests(ctx: StoreContext, fromNum: number, toNum: number, atSeq: number): void {
  const from = fromNum * SEQ_SPAN;
  const to = toNum * SEQ_SPAN;
  const copied = ctx
    .stmt(
      `INSERT INTO request_records (entry_id, chunks, bytes)
       SELECT entry_id - ? + ?, chunks, bytes FROM request_records WHERE entry_id BETWEEN ? AND ?`,
    )
    .run(from, to, from + 1, from + atSeq).changes;
  if (copied > 0) {
    ctx
      .stmt(`INSERT OR IGNORE INTO request_chunks (session_num, hash, data) SELECT ?, hash, data FROM request_chunks WHERE session_num = ?`)
      .run(toNum, fromNum);
  }
}

/** What a session's records take against what was sent (bench and tests). */
export function recordedSize(ctx: StoreContext, sessionNum: number): RecordedRequestSize {
  const lo = sessionNum * SEQ_SPAN;
  const records = ctx
    .stmt(
      `SELECT count(*) AS n, coalesce(sum(bytes), 0) AS sent, coalesce(sum(length(chunks)), 0) AS hashes FROM request_records WHERE entry_id BETWEEN ? AND ?`,
    )
    .get(lo, lo + SEQ_SPAN - 1) as { n: number; sent: number; hashes: number };
  const chunks = ctx
    .stmt(`SELECT coalesce(sum(length(data) + length(hash)), 0) FROM request_chunks WHERE session_num = ?`)
    .pluck()
    .get(sessionNum) as number;
  return { sent: records.sent, stored: records.hashes + chunks, requests: records.n };
}
