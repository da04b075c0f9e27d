/**
 * An incremental HTTP/1.1 response parser (RFC 9112) for our provider
 * transport: bytes in as the socket delivers them, head / body / end out.
 * Buffers all the way: body bytes are handed on as subarrays of the input,
 * and only a line split across pushes is copied.
 *
 * Contract:
 * - `push(chunk)` takes any split of the stream (one byte at a time, a CRLF
 *   split in two); it throws `Http1ParseError` on malformed input (a
 *   handler's own exception passes through too), after which the parser is
 *   dead (`push` throws again, `close` does nothing).
 * - `onHead` once, for the final response: 1xx interim responses (100, 102,
 *   103) are parsed and skipped; 101 is an error (we never ask to upgrade).
 * - `onBody` gets decoded body bytes, never framing, never an empty chunk.
 *   They may be subarrays of the pushed buffers: don't reuse those buffers.
 * - `onComplete` once, when the message ended: 204/304, content-length
 *   reached, the chunked terminator and its trailers (parsed, ignored), or
 *   `close()` for a body delimited by the connection close.
 * - `close()`: the peer closed. Completes a close-delimited body, throws
 *   when a message is cut short (before any byte, too), no-op once complete.
 * - Bytes after the end (we never pipeline) do not throw: they are dropped
 *   and `reusable` turns false. The response was whole, so it stands, and
 *   the outcome does not depend on whether they came in the same push.
 * - `reusable` (valid after onComplete): HTTP/1.1 without `connection:
 *   close`, HTTP/1.0 only with `connection: keep-alive`; never after a
 *   close-delimited body, content-length beside transfer-encoding, or
 *   transfer-encoding in HTTP/1.0 (RFC 9112 §6.1: framing is suspect).
 *
 * Strict on purpose: only HTTP/1.0 and HTTP/1.1; a 3-digit status 100–599;
 * header names are tokens, no whitespace before the colon, no obs-fold, no
 * control characters in values (a bare CR included). Lines end in CRLF or a
 * bare LF. `maxHeaderBytes` bounds all heads of a response together (1xx
 * ones included), and separately the trailers; a chunk-size line is bounded
 * by 4 KiB. Header values are latin1, as node:http reads them.
 */

export interface ResponseHead {
  status: number;
  statusText: string;
  /** Lower-case names; repeated headers joined with ", " (as node:http's `headers` read by headerRecord). */
  headers: Record<string, string>;
}

export interface ResponseHandlers {
  onHead(head: ResponseHead): void;
  onBody(chunk: Buffer): void;
  onComplete(): void;
}

export interface Http1ResponseParserOptions {
  /** Bytes of status lines and headers (and, separately, of trailers); 64 KiB by default. */
  maxHeaderBytes?: number;
}

export class Http1ParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Http1ParseError";
  }
}

const MAX_CHUNK_LINE_BYTES = 4096;
const CR = 13;
const LF = 10;
const SP = 32;
const HTAB = 9;
const COLON = 58;
const SEMICOLON = 59;

const HEAD = 0; // status line, then header lines, until an empty line
const LENGTH_BODY = 1;
const CLOSE_BODY = 2;
const CHUNK_SIZE = 3;
const CHUNK_DATA = 4;
const CHUNK_CR = 5; // the CRLF after chunk data
const CHUNK_LF = 6;
const TRAILERS = 7;
const DONE = 8;
const FAILED = 9;

/** RFC 9110 tchar. */
const TCHAR = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") TCHAR[c.charCodeAt(0)] = 1;

export class Http1ResponseParser {
  private readonly handlers: ResponseHandlers;
  private readonly maxHeaderBytes: number;
  private state = HEAD;
  /** Bytes of the line being read, when it spans pushes (copies). */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** The line just read: `line[lineStart, lineEnd)`, line end excluded. */
  private line: Buffer = Buffer.alloc(0);
  private lineStart = 0;
  private lineEnd = 0;
  /** Its bytes as received, line end included. */
  private lineBytes = 0;
  /** Head (or trailer) bytes read so far, line ends included. */
  private headBytes = 0;
  private sawStatusLine = false;
  private http10 = false;
  private status = 0;
  private statusText = "";
  private headers = new Map<string, string>();
  /** Body bytes left: of the content-length, or of the current chunk. */
  private remaining = 0;
  private keepAlive = false;

  constructor(handlers: ResponseHandlers, options: Http1ResponseParserOptions = {}) {
    this.handlers = handlers;
    this.maxHeaderBytes = options.maxHeaderBytes ?? 64 * 1024;
  }

  get complete(): boolean {
    return this.state === DONE;
  }

  get reusable(): boolean {
    return this.state === DONE && this.keepAlive;
  }

  push(chunk: Buffer): void {
    if (this.state === FAILED) throw new Http1ParseError("the response parser already failed");
    try {
      this.parse(chunk);
    } catch (err) {
      this.state = FAILED;
      throw err;
    }
  }

  close(): void {
    if (this.state === DONE || this.state === FAILED) return;
    if (this.state === CLOSE_BODY) {
      this.keepAlive = false;
      this.finish();
      return;
    }
    const where =
      this.state === HEAD
        ? this.headBytes + this.partialBytes > 0 ? "in the response head" : "before any response byte"
        : this.state === LENGTH_BODY
          ? `with ${this.remaining} content-length bytes unread`
          : "inside the chunked body";
    this.state = FAILED;
    throw new Http1ParseError(`connection closed before the response ended (${where})`);
  }

  private parse(chunk: Buffer): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case HEAD: {
          const next = this.readLine(chunk, i, this.maxHeaderBytes - this.headBytes, `response head larger than ${this.maxHeaderBytes} bytes`);
          if (next === -1) return;
          this.headBytes += this.lineBytes;
          i = next;
          this.headLine();
          break;
        }
        case LENGTH_BODY: {
          const take = Math.min(this.remaining, n - i);
          this.remaining -= take;
          this.handlers.onBody(i === 0 && take === n ? chunk : chunk.subarray(i, i + take));
          i += take;
          if (this.remaining === 0) this.finish();
          break;
        }
        case CLOSE_BODY:
          this.handlers.onBody(i === 0 ? chunk : chunk.subarray(i));
          return;
        case CHUNK_SIZE: {
          const next = this.readLine(chunk, i, MAX_CHUNK_LINE_BYTES, `chunk-size line longer than ${MAX_CHUNK_LINE_BYTES} bytes`);
          if (next === -1) return;
          i = next;
          this.chunkSizeLine();
          break;
        }
        case CHUNK_DATA: {
          const take = Math.min(this.remaining, n - i);
          this.remaining -= take;
          this.handlers.onBody(chunk.subarray(i, i + take));
          i += take;
          if (this.remaining === 0) this.state = CHUNK_CR;
          break;
        }
        case CHUNK_CR:
        case CHUNK_LF: {
          const b = chunk[i++];
          if (b === CR && this.state === CHUNK_CR) this.state = CHUNK_LF;
          else if (b === LF) this.state = CHUNK_SIZE;
          else throw new Http1ParseError(`expected CRLF after chunk data, got byte 0x${b.toString(16)}`);
          break;
        }
        case TRAILERS: {
          const next = this.readLine(chunk, i, this.maxHeaderBytes - this.headBytes, `trailers larger than ${this.maxHeaderBytes} bytes`);
          if (next === -1) return;
          i = next;
          this.headBytes += this.lineBytes;
          if (this.lineEnd === this.lineStart) this.finish();
          else this.headerLine(false);
          break;
        }
        default: // DONE: we never pipeline, so the connection's state is unknown
          this.keepAlive = false;
          return;
      }
    }
  }

  /**
   * Finds the end of the line starting at `from` (or continuing `partial`):
   * sets `line`/`lineStart`/`lineEnd` (CR stripped) and returns the index
   * after its LF, or -1 (the rest is kept) when the LF has not come yet.
   * `budget` bounds the line's bytes, its line end included.
   */
  private readLine(chunk: Buffer, from: number, budget: number, tooLong: string): number {
    const lf = chunk.indexOf(LF, from);
    const bytes = this.partialBytes + (lf === -1 ? chunk.length : lf + 1) - from;
    if (bytes > budget) throw new Http1ParseError(tooLong);
    this.lineBytes = bytes;
    if (lf === -1) {
      this.partial.push(Buffer.from(chunk.subarray(from)));
      this.partialBytes = bytes;
      return -1;
    }
    if (this.partialBytes === 0) {
      this.line = chunk;
      this.lineStart = from;
      this.lineEnd = lf;
    } else {
      this.partial.push(chunk.subarray(from, lf));
      this.line = Buffer.concat(this.partial);
      this.lineStart = 0;
      this.lineEnd = this.line.length;
      this.partial = [];
      this.partialBytes = 0;
    }
    if (this.lineEnd > this.lineStart && this.line[this.lineEnd - 1] === CR) this.lineEnd--;
    return lf + 1;
  }

  private headLine(): void {
    if (!this.sawStatusLine) this.statusLine();
    else if (this.lineEnd === this.lineStart) this.endOfHead();
    else this.headerLine(true);
  }

  private statusLine(): void {
    const b = this.line;
    const s = this.lineStart;
    const e = this.lineEnd;
    const version = e - s >= 12 ? b.toString("latin1", s, s + 8) : "";
    const ok =
      (version === "HTTP/1.1" || version === "HTTP/1.0") &&
      b[s + 8] === SP &&
      b[s + 9] >= 0x31 && b[s + 9] <= 0x35 &&
      isDigit(b[s + 10]) &&
      isDigit(b[s + 11]) &&
      (e === s + 12 || (b[s + 12] === SP && validValue(b, s + 13, e)));
    if (!ok) throw new Http1ParseError(`invalid status line ${quote(b, s, e)} (expected "HTTP/1.1 <3-digit status> <reason>")`);
    this.sawStatusLine = true;
    this.http10 = version === "HTTP/1.0";
    this.status = (b[s + 9] - 0x30) * 100 + (b[s + 10] - 0x30) * 10 + (b[s + 11] - 0x30);
    this.statusText = e > s + 13 ? b.toString("latin1", s + 13, e) : "";
  }

  /** A header or trailer line; `store` false checks it only (trailers are ignored). */
  private headerLine(store: boolean): void {
    const b = this.line;
    const s = this.lineStart;
    const e = this.lineEnd;
    if (b[s] === SP || b[s] === HTAB) throw new Http1ParseError(`obs-fold (a header line starting with whitespace) is not allowed: ${quote(b, s, e)}`);
    let k = s;
    while (k < e && TCHAR[b[k]] === 1) k++;
    if (k === e || b[k] !== COLON) {
      const colon = b.indexOf(COLON, s);
      const why =
        colon === -1 || colon >= e
          ? "header line without a colon"
          : b[k] === SP || b[k] === HTAB
            ? "whitespace in a header name or before the colon"
            : "invalid character in a header name";
      throw new Http1ParseError(`${why}: ${quote(b, s, e)}`);
    }
    if (k === s) throw new Http1ParseError(`empty header name: ${quote(b, s, e)}`);
    let vs = k + 1;
    let ve = e;
    while (vs < ve && (b[vs] === SP || b[vs] === HTAB)) vs++;
    while (ve > vs && (b[ve - 1] === SP || b[ve - 1] === HTAB)) ve--;
    if (!validValue(b, vs, ve)) throw new Http1ParseError(`control character in a header value: ${quote(b, s, e)}`);
    if (!store) return;
    const name = b.toString("latin1", s, k).toLowerCase();
    const value = b.toString("latin1", vs, ve);
    const prev = this.headers.get(name);
    this.headers.set(name, prev === undefined ? value : `${prev}, ${value}`);
  }

  private endOfHead(): void {
    const status = this.status;
    if (status < 200) {
      if (status === 101) throw new Http1ParseError("unexpected 101 Switching Protocols (we never ask to upgrade)");
      this.sawStatusLine = false; // an interim response: the final one follows
      this.headers = new Map();
      return;
    }
    // fromEntries defines properties, so a "__proto__" header stays a plain key.
    const headers: Record<string, string> = Object.fromEntries(this.headers);
    const connection = tokens(headers["connection"]);
    this.keepAlive = this.http10 ? connection.includes("keep-alive") : !connection.includes("close");
    // Framing first (RFC 9112 §6.3), so a bad one throws before onHead.
    let next = CLOSE_BODY;
    const te = headers["transfer-encoding"];
    const cl = headers["content-length"];
    if (status === 204 || status === 304) next = DONE;
    else if (te !== undefined) {
      const codings = tokens(te);
      const last = codings.length - 1;
      const chunkedAt = codings.indexOf("chunked");
      if (chunkedAt !== -1 && chunkedAt < last) throw new Http1ParseError(`transfer-encoding ${JSON.stringify(te)} applies chunked more than once`);
      if (codings[last] === "chunked") next = CHUNK_SIZE;
      if (cl !== undefined || this.http10) this.keepAlive = false;
    } else if (cl !== undefined) {
      this.remaining = contentLength(cl);
      next = this.remaining === 0 ? DONE : LENGTH_BODY;
    }
    this.handlers.onHead({ status, statusText: this.statusText, headers });
    this.state = next;
    if (next === DONE) this.handlers.onComplete();
  }

  private chunkSizeLine(): void {
    const b = this.line;
    const s = this.lineStart;
    const e = this.lineEnd;
    let k = s;
    let size = 0;
    for (; k < e; k++) {
      const d = hexValue(b[k]);
      if (d < 0) break;
      size = size * 16 + d;
      if (size > Number.MAX_SAFE_INTEGER) throw new Http1ParseError(`chunk size too large: ${quote(b, s, e)}`);
    }
    let ok = k > s;
    if (ok && k < e) {
      while (k < e && (b[k] === SP || b[k] === HTAB)) k++;
      ok = b[k] === SEMICOLON && validValue(b, k, e); // an extension: checked for control characters, then ignored
    }
    if (!ok) throw new Http1ParseError(`invalid chunk size line ${quote(b, s, e)} (expected hex digits, then optional ";ext")`);
    if (size === 0) {
      this.state = TRAILERS;
      this.headBytes = 0;
    } else {
      this.remaining = size;
      this.state = CHUNK_DATA;
    }
  }

  private finish(): void {
    this.state = DONE;
    this.handlers.onComplete();
  }
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const l = b | 0x20; // ASCII lower case
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/** Field-value bytes: HTAB, visible ASCII and SP, obs-text; no control characters. */
function validValue(b: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = b[k];
    if ((c < 0x20 && c !== HTAB) || c === 0x7f) return false;
  }
  return true;
}

/** A comma-separated list, lower-cased, empty elements dropped (RFC 9110 §5.6.1). */
function tokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value.split(",").map((t) => t.trim().toLowerCase()).filter((t) => t !== "");
}

/** Several identical values ("5, 5": a proxy merged two headers) are one; differing ones are an error (RFC 9112 §6.3). */
function contentLength(value: string): number {
  let length = -1;
  for (const part of value.split(",")) {
    const t = part.trim();
    if (!/^[0-9]{1,15}$/.test(t)) throw new Http1ParseError(`invalid content-length ${JSON.stringify(value)}`);
    const n = Number(t);
    if (length !== -1 && n !== length) throw new Http1ParseError(`conflicting content-length values ${JSON.stringify(value)}`);
    length = n;
  }
  return length;
}

function quote(b: Buffer, from: number, to: number): string {
  const cut = to - from > 80;
  return JSON.stringify(b.toString("latin1", from, cut ? from + 80 : to)) + (cut ? "…" : "");
}
