/**
 * Work that can wait for the first frame does: the rest of a long session is
 * asked for, and code highlighting is loaded, once the newest entries have
 * been shown (or after a bound, for a hidden page that paints nothing).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nextPaint } from "../../renderer/src/lib/after-paint";
import { setClient } from "../../renderer/src/api/current";
import type { AppClient } from "../../renderer/src/api/client";
import { useTranscriptStore } from "../../renderer/src/stores/transcript-store";
import { highlightCode, highlighterReady, highlighterVersion } from "../../renderer/src/lib/markdown";
import { assistant, user } from "./fixtures";

/** A frame clock the test advances: `frame()` runs the callbacks requested so far, as the browser does once per frame. */
let callbacks = new Map<number, FrameRequestCallback>();
let nextHandle = 1;
function frame(): void {
  const due = callbacks;
  callbacks = new Map();
  for (const cb of due.values()) cb(performance.now());
}
/** Lets timers of 0 ms and the promise reactions after them run. */
const aTask = () => new Promise<void>((r) => setTimeout(r, 0));
function tracked(p: Promise<unknown>): { done: boolean } {
  const state = { done: false };
  void p.then(() => (state.done = true));
  return state;
}

beforeEach(() => {
  callbacks = new Map();
  Object.assign(globalThis, {
    requestAnimationFrame: (cb: FrameRequestCallback) => {
      callbacks.set(nextHandle, cb);
      return nextHandle++;
    },
    cancelAnimationFrame: (h: number) => callbacks.delete(h),
  });
});
afterEach(() => {
  vi.useRealTimers();
  setClient(null);
  for (const k of ["requestAnimationFrame", "cancelAnimationFrame"]) Reflect.deleteProperty(globalThis, k);
});

describe("nextPaint", () => {
  it("resolves in a task after the next frame was produced, not before", async () => {
    const painted = tracked(nextPaint(10_000));
    await aTask();
    expect(painted.done).toBe(false);
    frame(); // the frame that shows what was rendered begins
    await aTask();
    expect(painted.done).toBe(false);
    frame(); // it was produced: the next one begins
    await aTask();
    await aTask();
    expect(painted.done).toBe(true);
  });

  it("resolves after its bound when no frame comes (a hidden page)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const painted = tracked(nextPaint(500));
    await vi.advanceTimersByTimeAsync(499);
    expect(painted.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(painted.done).toBe(true);
    // The frames it asked for are given back.
    expect(callbacks.size).toBe(0);
  });
});

describe("a long session's first load", () => {
  it("shows its newest entries first and asks for the older ones only once they are on screen", async () => {
    const asked: string[] = [];
    const session = {
      id: "s1",
      workspaceId: "w1",
      title: "Long",
      createdAt: 1,
      updatedAt: 2,
      model: null,
      reasoning: "default",
      parentSessionId: null,
      parentSeq: null,
      entryCount: 4,
      totalCost: 0,
      totalTokens: 0,
    };
    const turn = { sessionId: "s1", mode: "agent", status: "idle", queued: [], pendingApproval: null };
    const fake = {
      callUnvalidated: (method: string) => {
        asked.push(method);
        if (method === "session.load")
          return Promise.resolve({ session, entries: [user(3, "newer"), assistant(4, { text: "newest" })], turn, modeChanges: [] });
        return Promise.resolve({ entries: [user(1, "older"), assistant(2, { text: "oldest answer" })] });
      },
    };
    setClient(fake as unknown as AppClient);
    const loading = useTranscriptStore.getState().load("s1");
    for (let i = 0; i < 5; i++) await aTask();
    const view = useTranscriptStore.getState().view;
    expect(view?.status).toBe("ready");
    expect(view?.complete).toBe(false);
    expect(view?.model.rows).toHaveLength(2);
    expect(asked).toEqual(["session.load"]);

    frame();
    frame();
    await loading;
    expect(asked).toEqual(["session.load", "session.entries"]);
    expect(useTranscriptStore.getState().view).toMatchObject({ complete: true });
    expect(useTranscriptStore.getState().view?.model.rows).toHaveLength(4);
  });
});

describe("code highlighting", () => {
  it("is loaded once the frame showing the plain code was produced", async () => {
    const before = highlighterVersion();
    expect(highlightCode("const a = 1;", "ts")).toBe("const a = 1;");
    // The load waits for a frame: one is asked for, and without it nothing loads.
    expect(callbacks.size).toBe(1);
    await aTask();
    expect(highlighterVersion()).toBe(before);
    frame();
    frame();
    await highlighterReady();
    expect(highlighterVersion()).toBe(before + 1);
    expect(highlightCode("const a = 1;", "ts")).toContain("hljs-keyword");
  });
});
