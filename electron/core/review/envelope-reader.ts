/**
 * Reads a JSON export as it arrives, in chunks of any size cut anywhere
 * (inside a string, an escape, a number), without holding the whole file:
 * each element of `entries`, `notes`, `toolCalls` and `problems` comes out as
 * its own JSON text as soon as it is complete, and the other top-level fields
 * as parsed values. So an import parses one entry at a time (bounded work per
 * slice) instead of one JSON.parse of the whole file, which holds the event
 * loop for as long as the file is large.
 *
 * It checks the syntax between elements and the nesting and size of each
 * element; the text of an element is checked by JSON.parse when it is used.
 */

export const ARRAY_FIELDS = ["entries", "notes", "toolCalls", "problems"] as const;
export type ArrayField = (typeof ARRAY_FIELDS)[number];
export const VALUE_FIELDS = ["format", "version", "session", "redaction"] as const;
export type ValueField = (typeof VALUE_FIELDS)[number];

export type ReaderItem =
  | { kind: "value"; field: ValueField; value: unknown }
  | { kind: "element"; field: ArrayField; index: number; text: string }
  | { kind: "arrayEnd"; field: ArrayField; count: number };

export interface ReaderLimits {
  /** Characters of one element or top-level value. */
  itemChars: number;
  /** Nesting of objects and arrays inside one element (the envelope's own two levels not counted). */
  depth: number;
}

/** Malformed input; `message` says where. */
export class ReadError extends Error {
  override readonly name = "ReadError";
}

type Mode =
  | "start"
  | "keyOrClose"
  | "key"
  | "colon"
  | "value"
  | "afterValue"
  | "arrayOpen"
  | "elementOrClose"
  | "element"
  | "afterElement"
  | "capture"
  | "end";

interface Capture {
  /** What the captured text is. */
  target: "key" | "value" | "element";
  parts: string[];
  chars: number;
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** A number, true, false or null: ends at the first delimiter. */
  scalar: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const STRING_STOP = /["\\]/g;

const KNOWN_FIELDS: ReadonlySet<string> = new Set([...ARRAY_FIELDS, ...VALUE_FIELDS]);

export class EnvelopeReader {
  private mode: Mode = "start";
  /** Characters consumed before the current chunk (for positions in errors). */
  private offset = 0;
  private cap: Capture | null = null;
  /** Where the current capture starts in the current chunk. */
  private capStart = 0;
  private key: string | null = null;
  private readonly seen = new Set<string>();
  private array: ArrayField | null = null;
  private index = 0;
  private items: ReaderItem[] = [];

  constructor(private readonly limits: ReaderLimits) {}

  /** The items completed by this chunk, in order. Throws ReadError. */
  feed(chunk: string): ReaderItem[] {
    this.items = [];
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.mode === "capture") {
        i = this.captureFrom(chunk, i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      // A byte-order mark may open the file.
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || (c === 0xfeff && this.mode === "start")) {
        i++;
        continue;
      }
      i = this.structural(chunk, i, c);
    }
    if (this.mode === "capture" && this.cap) {
      const piece = chunk.slice(this.capStart);
      this.cap.parts.push(piece);
      this.cap.chars += piece.length;
    }
    this.capStart = 0;
    this.offset += n;
    return this.items;
  }

  /** Throws ReadError unless the document is complete. */
  end(): void {
    if (this.mode !== "end") throw new ReadError("the file ends before the export does (it is cut off or not JSON)");
  }

  private structural(chunk: string, i: number, c: number): number {
    switch (this.mode) {
      case "start":
        if (c !== LBRACE)
          throw this.error(i, c === LBRACKET ? "the file is a JSON array, not an export" : "expected the export's opening {");
        this.mode = "keyOrClose";
        return i + 1;
      case "keyOrClose":
      case "key":
        if (c === RBRACE && this.mode === "keyOrClose") {
          this.mode = "end";
          return i + 1;
        }
        if (c !== QUOTE) throw this.error(i, "expected a field name");
        return this.startCapture(chunk, i, "key", false, true);
      case "colon":
        if (c !== COLON) throw this.error(i, "expected :");
        this.mode = this.array ? "arrayOpen" : "value";
        return i + 1;
      case "value":
        return this.startCapture(chunk, i, "value", !(c === LBRACE || c === LBRACKET || c === QUOTE), c === QUOTE);
      case "arrayOpen":
        if (c !== LBRACKET) throw this.error(i, `"${this.array}" must be an array`);
        this.mode = "elementOrClose";
        return i + 1;
      case "elementOrClose":
      case "element":
        if (c === RBRACKET && this.mode === "elementOrClose") return this.closeArray(i);
        if (c !== LBRACE) throw this.error(i, `${this.array} ${this.index + 1} is not an object`);
        return this.startCapture(chunk, i, "element", false, false);
      case "afterElement":
        if (c === RBRACKET) return this.closeArray(i);
        if (c !== COMMA) throw this.error(i, "expected , or ]");
        this.mode = "element";
        return i + 1;
      case "afterValue":
        if (c === RBRACE) {
          this.mode = "end";
          return i + 1;
        }
        if (c !== COMMA) throw this.error(i, "expected , or }");
        this.mode = "key";
        return i + 1;
      case "end":
        throw this.error(i, "unexpected text after the export");
      case "capture":
        throw new ReadError("internal: structural() during a capture");
    }
  }

  private closeArray(i: number): number {
    const field = this.array as ArrayField;
    this.items.push({ kind: "arrayEnd", field, count: this.index });
    this.array = null;
    this.mode = "afterValue";
    return i + 1;
  }

  private startCapture(chunk: string, i: number, target: Capture["target"], scalar: boolean, inString: boolean): number {
    this.cap = { target, parts: [], chars: 0, depth: 0, inString, escaped: false, scalar };
    this.capStart = i;
    this.mode = "capture";
    // A string starts with its quote consumed; an object or array is counted by captureFrom.
    return inString ? i + 1 : i;
  }

  /** Scans the captured value from `i`; returns where scanning stopped (the end of the chunk or of the value). */
  private captureFrom(chunk: string, i: number): number {
    const cap = this.cap as Capture;
    const n = chunk.length;
    const maxDepth = this.limits.depth;
    while (i < n) {
      if (cap.inString) {
        if (cap.escaped) {
          cap.escaped = false;
          i++;
          continue;
        }
        STRING_STOP.lastIndex = i;
        const stop = STRING_STOP.exec(chunk);
        if (stop === null) break;
        i = stop.index;
        if (chunk.charCodeAt(i) === BACKSLASH) {
          cap.escaped = true;
          i++;
          continue;
        }
        cap.inString = false;
        i++;
        if (cap.depth === 0) return this.complete(chunk, i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (cap.scalar) {
        if (c === COMMA || c === RBRACE || c === RBRACKET || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
          return this.complete(chunk, i);
        i++;
        continue;
      }
      if (c === QUOTE) cap.inString = true;
      else if (c === LBRACE || c === LBRACKET) {
        if (++cap.depth > maxDepth + 1) throw this.error(i, `${this.where()} is nested more than ${maxDepth} levels deep`);
      } else if (c === RBRACE || c === RBRACKET) {
        if (--cap.depth === 0) return this.complete(chunk, i + 1);
      }
      i++;
    }
    this.grow(n - this.capStart);
    return n;
  }

  private grow(chars: number): void {
    const cap = this.cap as Capture;
    if (cap.chars + chars > this.limits.itemChars) {
      throw new ReadError(`${this.where()} is larger than ${Math.round(this.limits.itemChars / 1024 / 1024)} MB of JSON`);
    }
  }

  /** The capture ends before `end` in this chunk. */
  private complete(chunk: string, end: number): number {
    const cap = this.cap as Capture;
    this.grow(end - this.capStart);
    cap.parts.push(chunk.slice(this.capStart, end));
    const text = cap.parts.length === 1 ? cap.parts[0] : cap.parts.join("");
    this.cap = null;
    if (cap.target === "key") this.takeKey(text, end);
    else if (cap.target === "element") {
      const field = this.array as ArrayField;
      this.items.push({ kind: "element", field, index: this.index++, text });
      this.mode = "afterElement";
    } else {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        throw new ReadError(`"${this.key}" is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
      this.items.push({ kind: "value", field: this.key as ValueField, value });
      this.mode = "afterValue";
    }
    return end;
  }

  private takeKey(text: string, end: number): void {
    let key: string;
    try {
      key = JSON.parse(text) as string;
    } catch {
      throw this.error(end, "a field name is not a valid JSON string");
    }
    if (!KNOWN_FIELDS.has(key))
      throw new ReadError(`not an Agent Workbench session export (it has a field ${JSON.stringify(key.slice(0, 40))})`);
    if (this.seen.has(key)) throw new ReadError(`the field "${key}" appears twice`);
    this.seen.add(key);
    this.key = key;
    this.array = (ARRAY_FIELDS as readonly string[]).includes(key) ? (key as ArrayField) : null;
    this.index = 0;
    this.mode = "colon";
  }

  private where(): string {
    const cap = this.cap;
    if (cap?.target === "element") return `${this.array} ${this.index + 1}`;
    return `"${this.key ?? "a field"}"`;
  }

  private error(i: number, what: string): ReadError {
    return new ReadError(`the file is not a valid export at character ${this.offset + i + 1}: ${what}`);
  }
}
