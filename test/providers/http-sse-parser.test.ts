/**
 * The SSE parser yields the same events however the bytes are chunked: split
 * inside a multi-byte UTF-8 character, between CR and LF, inside a field name.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEventData, SseDataError, SseParser, type SseEvent } from "../../electron/core/providers/http";

const encoder = new TextEncoder();

/** Every line-end style, comments, multi-line data, and 2-, 3- and 4-byte characters. */
const STREAM =
  "\uFEFF: a comment first\r\n" +
  "event: message_start\r\n" +
  'data: {"text":"héllo — 日本語 😀"}\r\n' +
  "\r\n" +
  "event: ping\n" +
  "data: {}\n" +
  "\n" +
  "data: line one\r" +
  "data:line two\r" +
  "data\r" +
  ": comment between fields\r" +
  "id: 7\r" +
  "retry: 1000\r" +
  "\r" +
  "event: only-a-name\n" +
  "\n" +
  "event:\n" +
  "data:  two spaces keep one\n" +
  "\n" +
  "event: content_block_delta\r\n" +
  'data: {"delta":"€ and 🎉"}\r\n' +
  "\r\n" +
  "event: cut\n" +
  "data: never dispatched: the stream ends before the blank line\n";

const EXPECTED: SseEvent[] = [
  { event: "message_start", data: '{"text":"héllo — 日本語 😀"}' },
  { event: "ping", data: "{}" },
  { event: null, data: "line one\nline two\n" },
  { event: null, data: " two spaces keep one" },
  { event: "content_block_delta", data: '{"delta":"€ and 🎉"}' },
];

function parseChunks(chunks: readonly Uint8Array[]): SseEvent[] {
  const parser = new SseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

describe("SSE parser", () => {
  const bytes = encoder.encode(STREAM);

  it("parses the spec's fields, line ends and comments", () => {
    expect(parseChunks([bytes])).toEqual(EXPECTED);
  });

  it("yields the same events with the stream split at every byte position", () => {
    for (let at = 0; at <= bytes.length; at++) {
      expect(parseChunks([bytes.subarray(0, at), bytes.subarray(at)]), `split at byte ${at}`).toEqual(EXPECTED);
    }
  });

  it("yields the same events fed one byte at a time", () => {
    const single = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(parseChunks(single)).toEqual(EXPECTED);
  });

  it("the test stream really splits inside characters and between CR and LF", () => {
    // Guards the two tests above: positions that cut a 4-byte emoji and a CRLF pair exist.
    const emoji = encoder.encode("😀");
    const at = indexOfBytes(bytes, emoji);
    expect(at).toBeGreaterThan(0);
    expect(indexOfBytes(bytes, encoder.encode("\r\n"))).toBeGreaterThan(0);
    expect(parseChunks([bytes.subarray(0, at + 2), bytes.subarray(at + 2)])).toEqual(EXPECTED);
  });

  it("yields the same events for any chunking (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), (cuts) => {
        const sorted = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        const chunks = sorted.slice(1).map((end, i) => bytes.subarray(sorted[i], end));
        expect(parseChunks(chunks)).toEqual(EXPECTED);
      }),
      { numRuns: 300 },
    );
  });

  it("a CR at the end of a chunk and a LF at the start of the next are one line end", () => {
    const parser = new SseParser();
    expect(parser.pushText("data: a\r")).toEqual([]);
    expect(parser.pushText("\n\r")).toEqual([{ event: null, data: "a" }]);
    expect(parser.pushText("\ndata: b\n\n")).toEqual([{ event: null, data: "b" }]);
  });

  it("an empty chunk changes nothing", () => {
    const parser = new SseParser();
    expect(parser.push(new Uint8Array())).toEqual([]);
    expect(parser.pushText("data: x\r")).toEqual([]);
    expect(parser.push(new Uint8Array())).toEqual([]);
    expect(parser.pushText("\n\n")).toEqual([{ event: null, data: "x" }]);
  });
});

describe("event data", () => {
  it("parses JSON data", () => {
    expect(parseEventData({ event: "x", data: '{"a":[1,2]}' })).toEqual({ a: [1, 2] });
  });

  it("turns malformed data into a typed error that names the event", () => {
    const parse = () => parseEventData({ event: "content_block_delta", data: '{"type":"content_block_delta", "delta": {' });
    expect(parse).toThrow(SseDataError);
    expect(parse).toThrow(/malformed stream event "content_block_delta" .*not JSON.*\{"type":"content_block_delta"/);
  });
});

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
