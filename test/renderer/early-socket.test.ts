/**
 * The start-up requests go out on the socket the entry script opens, before the
 * app's own code is loaded; the client that adopts the socket hands their
 * answers to the calls that ask the same thing, instead of asking again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { earlyAnswersIn, earlyRequestsOut, openEarlySocket, requestKey, takeEarlySocket } from "../../renderer/src/api/early-socket";
import { WebSocketClient } from "../../renderer/src/api/ws-client";
import { bootRequests, TAIL_ENTRIES } from "../../renderer/src/lib/last-open";

/** A WebSocket double: records frames sent, lets the test open, answer and close it. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  sent: Array<{ id: number; method: string; params: unknown }> = [];
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: Event) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(frame: string): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error("send before open");
    this.sent.push(JSON.parse(frame) as { id: number; method: string; params: unknown });
  }
  close(): void {
    this.readyState = FakeSocket.CLOSED;
  }
  serverOpen(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.(new Event("open"));
  }
  serverSend(frame: unknown): void {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(frame) }));
  }
  serverClose(): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.(new Event("close"));
  }
}

const URL = "ws://127.0.0.1:1/ws?token=t";
const INFO = {
  mode: "web",
  version: "test",
  initialWorkspace: null,
  demo: false,
  notices: [],
  defaultModel: null,
  keyStore: null,
};
const LOADED = { session: { id: "s1" }, entries: [], turn: {}, modeChanges: [] };
const requests = [
  { method: "session.load", params: { sessionId: "s1", tail: TAIL_ENTRIES } },
  { method: "app.info", params: {} },
];
/** Whether a wait has ended, read without awaiting it. */
function settled(p: Promise<void>): { done: boolean } {
  const state = { done: false };
  void p.then(() => (state.done = true));
  return state;
}

/** Lets queued microtasks run (the client replays the early backlog in one). */
const microtasks = () => new Promise<void>((r) => queueMicrotask(r));

beforeEach(() => {
  FakeSocket.all = [];
  Object.assign(globalThis, { WebSocket: FakeSocket, CloseEvent: Event, window: globalThis });
});
afterEach(() => {
  vi.useRealTimers();
  for (const k of ["WebSocket", "CloseEvent", "window"]) Reflect.deleteProperty(globalThis, k);
});

describe("early start-up requests", () => {
  it("are sent as soon as the socket opens, and their answers go to the calls that ask the same thing", async () => {
    const early = openEarlySocket(URL, requests);
    const socket = FakeSocket.all[0];
    socket.serverOpen();
    expect(socket.sent).toEqual([
      { id: 1, method: "session.load", params: { sessionId: "s1", tail: TAIL_ENTRIES } },
      { id: 2, method: "app.info", params: {} },
    ]);
    // The core answers while the app's script is still loading.
    socket.serverSend({ kind: "response", id: 2, response: { ok: true, result: INFO } });
    socket.serverSend({ kind: "response", id: 1, response: { ok: true, result: LOADED } });
    expect(early.backlog.map((e) => e.type)).toEqual(["open", "message", "message"]);

    const client = new WebSocketClient(URL);
    expect(FakeSocket.all).toHaveLength(1);
    const info = client.call("app.info", {});
    const loaded = client.callUnvalidated("session.load", { sessionId: "s1", tail: TAIL_ENTRIES });
    await expect(info).resolves.toEqual(INFO);
    await expect(loaded).resolves.toEqual(LOADED);
    // Nothing asked twice; the client's own requests number on from the early ones.
    expect(socket.sent).toHaveLength(2);
    void client.call("models.list", {});
    expect(socket.sent.at(-1)).toMatchObject({ id: 3, method: "models.list" });
    // An early answer is used once: asking again is a new request.
    void client.call("app.info", {});
    expect(socket.sent.at(-1)).toMatchObject({ id: 4, method: "app.info" });
  });

  it("validates an early answer like any other (a contract mismatch is a typed error)", async () => {
    openEarlySocket(URL, requests);
    const socket = FakeSocket.all[0];
    socket.serverOpen();
    socket.serverSend({ kind: "response", id: 2, response: { ok: true, result: { mode: "web" } } });
    const client = new WebSocketClient(URL);
    await expect(client.call("app.info", {})).rejects.toMatchObject({ error: { code: "INTERNAL" } });
  });

  it("are not sent when the client took the socket over before it opened; the client's calls go out instead", async () => {
    openEarlySocket(URL, requests);
    const client = new WebSocketClient(URL);
    const socket = FakeSocket.all[0];
    const info = client.call("app.info", {});
    socket.serverOpen();
    expect(socket.sent).toEqual([{ id: 1, method: "app.info", params: {} }]);
    socket.serverSend({ kind: "response", id: 1, response: { ok: true, result: INFO } });
    await expect(info).resolves.toEqual(INFO);
  });

  it("die with their socket: a claimed one fails as unavailable, a later call asks again on the next connection", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    openEarlySocket(URL, requests);
    const socket = FakeSocket.all[0];
    socket.serverOpen();
    const client = new WebSocketClient(URL);
    const loaded = client.callUnvalidated("session.load", { sessionId: "s1", tail: TAIL_ENTRIES });
    await microtasks(); // the backlog (the open) is replayed
    socket.serverClose();
    await expect(loaded).rejects.toMatchObject({ error: { code: "UNAVAILABLE" } });
    void client.call("app.info", {});
    vi.advanceTimersByTime(250); // the first reconnection's backoff
    const next = FakeSocket.all[1];
    expect(next).toBeDefined();
    next.serverOpen();
    expect(next.sent).toEqual([{ id: 3, method: "app.info", params: {} }]);
    client.close();
  });

  it("let the entry evaluate the app once they are out, and the app render once all are answered", async () => {
    openEarlySocket(URL, requests);
    const out = settled(earlyRequestsOut(10_000));
    const answered = settled(earlyAnswersIn(10_000));
    await microtasks();
    expect(out.done).toBe(false);
    const socket = FakeSocket.all[0];
    socket.serverOpen();
    await microtasks();
    expect(out.done).toBe(true);
    expect(socket.sent.map((f) => f.method)).toEqual(["session.load", "app.info"]);
    // An event is no answer; the first answer is not all of them.
    socket.serverSend({ kind: "event", event: "session.updated", payload: {} });
    socket.serverSend({ kind: "response", id: 2, response: { ok: true, result: INFO } });
    await microtasks();
    expect(answered.done).toBe(false);
    socket.serverSend({ kind: "response", id: 1, response: { ok: true, result: LOADED } });
    await microtasks();
    expect(answered.done).toBe(true);
    // Everything is still handed over to the client that adopts the socket.
    expect(takeEarlySocket(URL)?.backlog.map((e) => e.type)).toEqual(["open", "message", "message", "message"]);
  });

  it("stop waiting when the socket fails, or after the wait's bound; without an early socket there is no wait", async () => {
    openEarlySocket(URL, requests);
    const out = settled(earlyRequestsOut(10_000));
    const answered = settled(earlyAnswersIn(10_000));
    FakeSocket.all[0].serverClose();
    await microtasks();
    expect(out).toEqual({ done: true });
    expect(answered).toEqual({ done: true });

    vi.useFakeTimers({ toFake: ["setTimeout"] });
    openEarlySocket(URL, requests);
    FakeSocket.all[1].serverOpen();
    const slow = settled(earlyAnswersIn(800));
    vi.advanceTimersByTime(799);
    await microtasks();
    expect(slow.done).toBe(false);
    vi.advanceTimersByTime(1);
    await microtasks();
    await microtasks();
    expect(slow.done).toBe(true);

    takeEarlySocket(URL);
    const none = settled(earlyAnswersIn(10_000));
    await microtasks();
    expect(none.done).toBe(true);
  });

  it("ask for app.info, and first for the session open last time when there is one", () => {
    const store = new Map<string, string>();
    Object.assign(globalThis, {
      localStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) },
    });
    try {
      expect(bootRequests()).toEqual([{ method: "app.info", params: {} }]);
      store.set("workbench.lastOpen", JSON.stringify({ workspaceId: "w1", sessionId: "s9" }));
      expect(bootRequests()).toEqual([
        { method: "session.load", params: { sessionId: "s9", tail: TAIL_ENTRIES } },
        { method: "app.info", params: {} },
      ]);
      expect(requestKey("session.load", { sessionId: "s9", tail: TAIL_ENTRIES })).toBe(
        requestKey(bootRequests()[0].method, bootRequests()[0].params),
      );
    } finally {
      Reflect.deleteProperty(globalThis, "localStorage");
    }
  });
});
