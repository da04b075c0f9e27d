/**
 * Server-Sent Events, parsed per the WHATWG spec (event stream
 * interpretation) from bytes as they arrive: lines end in CRLF, LF or CR;
 * `data:` lines join with "\n"; `:` lines are comments; `event:` names the
 * event; a blank line dispatches. Chunks may split anything, a CRLF pair or a
 * multi-byte UTF-8 character included.
 *
 * Deviations, on purpose: `id` and `retry` are ignored (no reconnection), and
 * an event without an `event:` field has `event: null` (the spec's "message"),
 * since the SDKs tell the two apart.
 */
import { SseDataError } from "./errors";

export interface SseEvent {
  event: string | null;
  data: string;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

export class SseParser {
  /** Strips one BOM at the start of the stream, as the spec asks. */
  private readonly decoder = new TextDecoder("utf-8");
  /** Text after the last line end (no line end inside). */
  private pending = "";
  /** The text so far ended with CR: a LF that comes next belongs to the same line end. */
  private skipLF = false;
  private eventType: string | null = null;
  private data: string[] = [];

  /** Feeds the next bytes; returns the events they complete. */
  push(chunk: Uint8Array): SseEvent[] {
    return this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  /** Feeds decoded text (tests, and `push`). */
  pushText(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (text.length === 0) return out;
    let buf = text;
    let from = 0;
    if (this.pending !== "") {
      buf = this.pending + text;
      from = this.pending.length;
    } else if (this.skipLF && text.charCodeAt(0) === LF) {
      from = 1;
    }
    this.skipLF = false;
    let lineStart = this.pending !== "" ? 0 : from;
    let lf = buf.indexOf("\n", from);
    let cr = buf.indexOf("\r", from);
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      this.line(buf, lineStart, end, out);
      let next = end + 1;
      if (end === cr) {
        if (next === buf.length) this.skipLF = true;
        else if (buf.charCodeAt(next) === LF) next++;
      }
      lineStart = next;
      if (lf !== -1 && lf < next) lf = buf.indexOf("\n", next);
      if (cr !== -1 && cr < next) cr = buf.indexOf("\r", next);
    }
    this.pending = lineStart === 0 ? buf : buf.slice(lineStart);
    return out;
  }

  private line(buf: string, start: number, end: number, out: SseEvent[]): void {
    if (start === end) {
      this.dispatch(out);
      return;
    }
    if (buf.charCodeAt(start) === COLON) return; // comment
    let colon = buf.indexOf(":", start);
    if (colon >= end) colon = -1;
    const field = colon === -1 ? buf.slice(start, end) : buf.slice(start, colon);
    let valueStart = colon === -1 ? end : colon + 1;
    if (valueStart < end && buf.charCodeAt(valueStart) === SPACE) valueStart++;
    if (field === "data") this.data.push(buf.slice(valueStart, end));
    else if (field === "event") this.eventType = buf.slice(valueStart, end);
  }

  private dispatch(out: SseEvent[]): void {
    const type = this.eventType === "" ? null : this.eventType;
    this.eventType = null;
    // The spec dispatches nothing for a block without data.
    if (this.data.length === 0) return;
    out.push({ event: type, data: this.data.length === 1 ? this.data[0] : this.data.join("\n") });
    this.data = [];
  }
}

/** The event's data as JSON; a typed error (not a bare SyntaxError) when it is not JSON. */
export function parseEventData(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    throw new SseDataError(event.event, event.data);
  }
}
