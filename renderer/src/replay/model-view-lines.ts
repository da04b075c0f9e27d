/**
 * The lines of a "what the model saw" body that the page holds: the first
 * ones came with the view (review.modelViewHead); the others are read from
 * the core by chunk (review.modelViewText) when they scroll into view, so a
 * megabyte-long request opens without crossing the socket whole.
 */
import { useCallback, useMemo, useState } from "react";
import type { ModelViewText } from "../../../shared/review";
import { client, errorText } from "../api/current";

/** Lines read per request while scrolling. */
export const CHUNK_LINES = 500;

export interface BodyLines {
  totalLines: number;
  totalChars: number;
  /** Line `i`, or undefined while it has not been read. */
  line(i: number): string | undefined;
  /** Reads the chunks covering lines `first`..`last` that are not held yet. */
  ensure(first: number, last: number): void;
  /** The whole body (for Copy): read in one request unless every line came with the view. */
  all(): Promise<string>;
  /** Why a chunk could not be read. */
  error: string | null;
}

/** The chunks (of `chunk` lines) covering lines `first`..`last`, inclusive, for which `held` is false. */
export function missingChunks(first: number, last: number, held: (chunk: number) => boolean, chunk = CHUNK_LINES): number[] {
  const out: number[] = [];
  if (last < first) return out;
  for (let c = Math.floor(Math.max(0, first) / chunk); c <= Math.floor(Math.max(0, last) / chunk); c++) if (!held(c)) out.push(c);
  return out;
}

interface Held {
  head: ModelViewText;
  /** Sparse: lines by index. */
  lines: string[];
  /** Chunks read or being read. */
  chunks: Set<number>;
}

function holdHead(head: ModelViewText): Held {
  const lines: string[] = [];
  head.lines.forEach((l, i) => (lines[head.from + i] = l));
  const chunks = new Set<number>();
  // A chunk whose every line came with the head is held.
  const end = head.from + head.lines.length;
  for (let c = Math.ceil(head.from / CHUNK_LINES); c * CHUNK_LINES < head.totalLines; c++) {
    if (Math.min((c + 1) * CHUNK_LINES, head.totalLines) > end) break;
    chunks.add(c);
  }
  return { head, lines, chunks };
}

export function useBodyLines(sessionId: string | null, seq: number, head: ModelViewText): BodyLines {
  // Mutated as chunks arrive (a re-render follows each); a new head starts afresh.
  const h = useMemo(() => holdHead(head), [head]);
  const [, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const ensure = useCallback(
    (first: number, last: number) => {
      if (!sessionId) return;
      for (const c of missingChunks(first, Math.min(last, h.head.totalLines - 1), (c) => h.chunks.has(c))) {
        h.chunks.add(c);
        client()
          .call("review.modelViewText", { sessionId, seq, from: c * CHUNK_LINES, count: CHUNK_LINES })
          .then((t) => {
            t.lines.forEach((l, i) => (h.lines[t.from + i] = l));
            setVersion((v) => v + 1);
          })
          .catch((err: unknown) => {
            h.chunks.delete(c);
            setError(errorText(err));
          });
      }
    },
    [sessionId, seq, h],
  );

  const all = useCallback(async () => {
    if (head.lines.length === head.totalLines) return head.lines.join("\n");
    if (!sessionId) return "";
    const t = await client().call("review.modelViewText", { sessionId, seq, from: 0, count: head.totalLines });
    return t.lines.join("\n");
  }, [sessionId, seq, head]);

  return { totalLines: head.totalLines, totalChars: head.totalChars, line: (i) => h.lines[i], ensure, all, error };
}
