/**
 * Request bodies as JSON text without re-encoding the whole history each
 * time. Every request re-sends the history, and encoding it is the largest
 * per-request cost once it grows; the entries the kept transform pass shares
 * between requests keep their content arrays (a merge makes a new array, never
 * writes to one), so the JSON of an entry can be cached by that array.
 *
 * The text produced is byte for byte `JSON.stringify` of the body the pure
 * builder returns (a test checks this for every API).
 */

import type { KeptEntries } from "../transform/incremental";
import type { WireMessage } from "../transform/wire-types";
import { PerObject } from "./per-object";

/** What an entry's JSON is cached by: its content, or its results (never written to once built). */
export function entryContent(message: WireMessage): object {
  return message.role === "toolResults" ? message.results : message.content;
}

/** JSON fragments cached by the identity of the object they encode. */
export class FragmentCache {
  private readonly byKey = new WeakMap<object, string>();

  get(key: object, make: () => string): string {
    let json = this.byKey.get(key);
    if (json === undefined) {
      json = make();
      this.byKey.set(key, json);
    }
    return json;
  }
}

/** Items' JSON joined by commas ("" for none): the inside of a JSON array. */
export function itemsJson(items: readonly unknown[]): string {
  let out = "";
  for (let i = 0; i < items.length; i++) out += (i === 0 ? "" : ",") + JSON.stringify(items[i]);
  return out;
}

/** A JSON array from fragments made by `itemsJson` (empty fragments are skipped). */
export function arrayJson(fragments: readonly string[]): string {
  let out = "[";
  let first = true;
  for (const fragment of fragments) {
    if (fragment.length === 0) continue;
    out += first ? fragment : `,${fragment}`;
    first = false;
  }
  return `${out}]`;
}

/**
 * The body as `JSON.stringify(body)` writes it, with the array `field` made of
 * `items` (chunks that already hold the commas between items, as
 * `EncodedPrefixes.items` returns them) after an optional `leading` item.
 * Adjacent text is joined so the body goes out in few writes.
 */
export function chunksAround(body: Record<string, unknown>, field: string, items: readonly BodyChunk[], leading?: string): BodyChunk[] {
  let head = "{";
  let tail = "";
  let seen = false;
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (key !== field && (value === undefined || typeof value === "function" || typeof value === "symbol")) continue;
    const text = `${head.length > 1 || seen ? "," : ""}${JSON.stringify(key)}:`;
    if (key === field) {
      head += `${text}[`;
      seen = true;
    } else if (seen) tail += text + jsonOf(value);
    else head += text + jsonOf(value);
  }
  if (leading !== undefined) head += items.length > 0 ? `${leading},` : leading;
  const out: BodyChunk[] = [head];
  for (const item of [...items, `]${tail}}`]) {
    const last = out[out.length - 1];
    if (typeof item === "string" && typeof last === "string") out[out.length - 1] = last + item;
    else out.push(item);
  }
  return out;
}

/** JSON of values that never change once built (frozen), by identity: the tool definitions sent with every request. */
const frozenJson = new WeakMap<object, string>();

function jsonOf(value: unknown): string {
  if (typeof value !== "object" || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let json = frozenJson.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    frozenJson.set(value, json);
  }
  return json;
}

/**
 * Per-request values derived from the caller's tool specs alone, built once
 * per specs array (the loop passes the same array for a whole turn; specs are
 * never modified in place) and frozen so their JSON is cached too.
 */
export class PerToolSpecs<T extends object> {
  private readonly values = new PerObject<T>();

  get(specs: object, variant: string, make: () => T): T {
    // A copy: the specs' own objects (schemas) stay the caller's, unfrozen.
    return this.values.get(specs, variant, () => deepFreeze(structuredClone(make())));
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A request body in pieces, sent back to back: text, or bytes already encoded (UTF-8). */
export type BodyChunk = string | Uint8Array;

/** The whole body as text (tests, and callers that need one string). */
export function bodyText(chunks: readonly BodyChunk[]): string {
  return chunks.map((c) => (typeof c === "string" ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString("utf8"))).join("");
}

/** Reasoning ids already sent in a request (a `Set` fits; `EncodedPrefixes.items` passes a cheaper view). */
export interface SentIds {
  has(id: string): boolean;
  add(id: string): void;
}

/** One group of entries encoded: its JSON items (maybe ""), where the next group starts, and reasoning ids it sent. */
export interface EncodedGroup {
  json: string;
  next: number;
  sent?: readonly string[];
}

interface Encoded {
  /** The entries covered, and the content each had (a merge swaps an entry's content). */
  entries: WireMessage[];
  contents: object[];
  /** The covered groups' JSON items, comma-joined, as UTF-8; bytes before `used` are never written again. */
  arena: Buffer;
  used: number;
  /** Reasoning ids the covered groups sent (grows with the prefix, in place). */
  sent: Set<string>;
  /**
   * The kept pass whose never-changing entries all of `entries` were, when
   * they were last recorded or checked (`KeptEntries`); undefined if some were not.
   */
  owner: object | undefined;
}

/** The memo's ids plus this request's: `has` reads both, `add` writes only this request's. */
class RequestSentIds implements SentIds {
  private readonly own = new Set<string>();

  constructor(private readonly before: ReadonlySet<string>) {}

  has(id: string): boolean {
    return this.before.has(id) || this.own.has(id);
  }

  add(id: string): void {
    this.own.add(id);
  }
}

const NO_IDS: ReadonlySet<string> = new Set();
const MIN_ARENA = 64 * 1024;

/**
 * The encoded prefix of a kept transform pass: the JSON of every group before
 * the last assistant entry, as bytes. The next request of the tool loop shares
 * those entries (same objects, same content), so only what follows them is
 * encoded — the history is neither re-encoded nor copied into a new string.
 * Any difference in the covered entries drops the prefix (it is rebuilt from
 * the entry caches). In the tool loop checking costs nothing: a prefix whose
 * entries were all frozen in the kept pass (`HistoryPass.frozenLength`) when
 * recorded is not compared again while that same pass is resumed.
 */
export class EncodedPrefixes {
  private readonly byPass = new WeakMap<WireMessage, Encoded>();

  /**
   * The array's items for `wire` as chunks (prefix bytes, then the rest as
   * text, comma-separated, no brackets).
   * `encode(from)` encodes the group starting at `from`; a group starting with
   * an assistant entry never depends on the groups after it.
   * `kept` (from `prepareRequest`) names the pass `wire` comes from: a prefix
   * recorded while all its entries were that pass's frozen entries is still
   * valid when the same pass is resumed, without comparing the entries again.
   */
  items(wire: readonly WireMessage[], encode: (from: number, sent: SentIds) => EncodedGroup, kept?: KeptEntries): BodyChunk[] {
    const first = wire[0];
    if (first === undefined) return [];
    let memo = this.byPass.get(first);
    if (memo !== undefined && !(stillFrozen(memo, wire, kept) || covers(memo, wire))) {
      memo = undefined;
      this.byPass.delete(first);
    }
    const sent = new RequestSentIds(memo?.sent ?? NO_IDS);
    let from = memo?.entries.length ?? 0;

    // Groups up to the last assistant entry (never the final entry) join the prefix.
    let boundary = wire.length - 1;
    while (boundary > from && wire[boundary].role !== "assistant") boundary--;
    let appended = "";
    const appendedSent: string[] = [];
    while (from < boundary) {
      const group = encode(from, sent);
      if (group.json.length > 0) appended += appended.length > 0 ? `,${group.json}` : group.json;
      if (group.sent) for (const id of group.sent) appendedSent.push(id);
      from = group.next;
    }
    if (from > (memo?.entries.length ?? 0)) memo = this.extend(memo, wire, from, appended, appendedSent);
    // Every entry now covered was just compared or recorded: they are this pass's for good if all are frozen.
    if (memo !== undefined) memo.owner = kept !== undefined && memo.entries.length <= kept.frozen ? kept.owner : undefined;
    let rest = "";
    while (from < wire.length) {
      const group = encode(from, sent);
      if (group.json.length > 0) rest += rest.length > 0 ? `,${group.json}` : group.json;
      from = group.next;
    }
    const chunks: BodyChunk[] = [];
    if (memo !== undefined && memo.used > 0) {
      chunks.push(memo.arena.subarray(0, memo.used));
      if (rest.length > 0) chunks.push(`,${rest}`);
    } else if (rest.length > 0) {
      chunks.push(rest);
    }
    return chunks;
  }

  private extend(
    memo: Encoded | undefined,
    wire: readonly WireMessage[],
    upTo: number,
    json: string,
    sent: readonly string[],
  ): Encoded {
    const text = memo !== undefined && memo.used > 0 && json.length > 0 ? `,${json}` : json;
    const bytes = Buffer.byteLength(text);
    const used = memo?.used ?? 0;
    let arena = memo?.arena;
    if (arena === undefined || used + bytes > arena.length) {
      // Grow into a new buffer: bytes already handed to a request are never overwritten.
      const grown = Buffer.allocUnsafe(Math.max(MIN_ARENA, 2 * (used + bytes)));
      if (arena !== undefined) arena.copy(grown, 0, 0, used);
      arena = grown;
    }
    arena.write(text, used, "utf8");
    // The old record is replaced: its arrays and set grow in place.
    const entries = memo?.entries ?? [];
    const contents = memo?.contents ?? [];
    const sentIds = memo?.sent ?? new Set<string>();
    for (let i = entries.length; i < upTo; i++) {
      entries.push(wire[i]);
      contents.push(entryContent(wire[i]));
    }
    for (const id of sent) sentIds.add(id);
    const next: Encoded = { entries, contents, arena, used: used + bytes, sent: sentIds, owner: undefined };
    this.byPass.set(wire[0], next);
    return next;
  }
}

/**
 * The prefix still describes `wire`, known without looking at its entries:
 * `wire` comes from the same kept pass (resumed, never restarted: a restart is
 * a new pass), and every covered entry was among that pass's frozen entries
 * when recorded or last compared — so they are the same objects with the same
 * content now (`HistoryPass.frozenLength`). Being frozen *now* is not enough:
 * an entry recorded after the checkpoint (before a Mistral bridge) may since
 * have been replaced. Only the entry after the prefix is checked, as in `covers`.
 */
function stillFrozen(memo: Encoded, wire: readonly WireMessage[], kept: KeptEntries | undefined): boolean {
  if (kept === undefined || memo.owner !== kept.owner) return false;
  const k = memo.entries.length;
  return k <= kept.frozen && wire.length > k && wire[k].role === "assistant";
}

/** The prefix still describes `wire`: same entries with the same content, and an assistant entry right after it. */
function covers(memo: Encoded, wire: readonly WireMessage[]): boolean {
  const { entries, contents } = memo;
  const k = entries.length;
  if (wire.length <= k || wire[k].role !== "assistant") return false;
  for (let i = 0; i < k; i++) if (wire[i] !== entries[i] || entryContent(wire[i]) !== contents[i]) return false;
  return true;
}
