/**
 * "What the model saw" as lines of text, for the dialog: the request body
 * pretty-printed once in the core and read by line windows. A request rebuilt
 * from a long session is about a megabyte of JSON; sending it whole at open,
 * then parsing and printing it again in the page, cost more than everything
 * else the dialog does (docs/performance.md#review-views-on-long-sessions-issue-20).
 *
 * The text of the last few steps opened is kept: a head call rebuilds the
 * request and replaces its text, so the windows read while scrolling come from
 * the very request the dialog opened on.
 */
import type { ModelView, ModelViewHead, ModelViewText } from "../../../shared/review";

/** Steps kept (the one open, and the one opened just before). */
const STEPS_KEPT = 2;

interface Rendered {
  view: Omit<ModelView, "body" | "raw">;
  lines: string[];
  chars: number;
}

function render(view: ModelView): Rendered {
  const text = JSON.stringify(view.body, null, 2) ?? "";
  const { seq, model, recorded, idMap, toolNames, requestTime, repairs, sources } = view;
  return { view: { seq, model, recorded, idMap, toolNames, requestTime, repairs, sources }, lines: text.split("\n"), chars: text.length };
}

function window(r: Rendered, from: number, count: number): ModelViewText {
  const start = Math.min(from, r.lines.length);
  return { totalLines: r.lines.length, totalChars: r.chars, from: start, lines: r.lines.slice(start, start + count) };
}

/** Rebuilds a request: asynchronous, since the instruction files are read again (review/handlers.ts). */
type Build = () => Promise<ModelView>;

export interface ModelViewTexts {
  /** Rebuilds the request (`build`), keeps its text, and returns the view with the first `lines` lines of the body. */
  head(sessionId: string, seq: number, build: Build, lines: number): Promise<ModelViewHead>;
  /** Lines of the body kept for that step (rebuilt with `build` when it is no longer kept). */
  text(sessionId: string, seq: number, build: Build, from: number, count: number): Promise<ModelViewText>;
}

export function createModelViewTexts(kept = STEPS_KEPT): ModelViewTexts {
  const cache = new Map<string, Rendered>();
  const keep = (key: string, r: Rendered): Rendered => {
    cache.delete(key);
    cache.set(key, r);
    while (cache.size > kept) cache.delete(cache.keys().next().value as string);
    return r;
  };
  return {
    async head(sessionId, seq, build, lines) {
      const r = keep(`${sessionId}#${seq}`, render(await build()));
      return { ...r.view, text: window(r, 0, lines) };
    },
    async text(sessionId, seq, build, from, count) {
      const key = `${sessionId}#${seq}`;
      const known = cache.get(key);
      return window(known ? keep(key, known) : keep(key, render(await build())), from, count);
    },
  };
}
