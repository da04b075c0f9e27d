/**
 * The web-mode socket, opened by the entry script before the rest of the app
 * is even loaded (main.tsx imports only this, then the app as its own chunk).
 * Once open it sends the start-up requests (boot requests: app.info and the
 * session open last time), so the core answers them while the browser still
 * downloads and evaluates React and the rest of the app. The WebSocketClient
 * adopts the socket: anything that happened to it before (open, frames,
 * close) is kept and replayed there, and a call matching a request sent here
 * gets that request's answer instead of being sent again.
 */
import { bootRequests } from "../lib/last-open";

/** ws://host/ws?token=… from the page's #token=… fragment. */
export function webSocketUrlFromLocation(loc: Location): string | null {
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ""));
  const token = hash.get("token");
  if (!token) return null;
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/ws?token=${encodeURIComponent(token)}`;
}

/** Identifies a request by method and parameters (a later call with the same ones is the same request). */
export function requestKey(method: string, params: unknown): string {
  return `${method} ${JSON.stringify(params ?? {})}`;
}

export interface EarlyRequest {
  id: number;
  method: string;
  key: string;
}

export interface EarlySocket {
  url: string;
  socket: WebSocket;
  /** What happened before the client took the socket over, in order. */
  backlog: Array<{ type: "open" } | { type: "message"; data: unknown } | { type: "close" }>;
  /** Requests already sent on it (ids from 1); their responses are in the backlog or still to come. */
  sent: EarlyRequest[];
  /** Settles once the start-up requests are sent, or the socket failed. */
  requestsOut: Promise<void>;
  /** Settles once every start-up request has its answer in the backlog, or the socket failed. */
  answersIn: Promise<void>;
}

/**
 * Whether a frame is a response, told from its first bytes without parsing it
 * (the session's entries can be large): the host writes `kind` first
 * (electron/core/web/server.ts). On the early socket each one answers a start-up request.
 */
export function isResponseFrame(text: string): boolean {
  return text.startsWith('{"kind":"response"');
}

let early: EarlySocket | null = null;

/** Opens `url` and sends `requests` as soon as it is open, unless a client has taken the socket over by then. */
export function openEarlySocket(url: string, requests: ReadonlyArray<{ method: string; params: unknown }>): EarlySocket {
  const socket = new WebSocket(url);
  let out: () => void = () => undefined;
  let answered: () => void = () => undefined;
  const requestsOut = new Promise<void>((resolve) => (out = resolve));
  const answersIn = new Promise<void>((resolve) => (answered = resolve));
  const state: EarlySocket = { url, socket, backlog: [], sent: [], requestsOut, answersIn };
  let answers = 0;
  socket.onopen = () => {
    state.backlog.push({ type: "open" });
    for (const r of requests) {
      const id = state.sent.length + 1;
      socket.send(JSON.stringify({ id, method: r.method, params: r.params }));
      state.sent.push({ id, method: r.method, key: requestKey(r.method, r.params) });
    }
    out();
  };
  socket.onmessage = (ev: MessageEvent) => {
    state.backlog.push({ type: "message", data: ev.data });
    if (typeof ev.data === "string" && isResponseFrame(ev.data) && ++answers >= requests.length) answered();
  };
  const failed = () => {
    out();
    answered();
  };
  socket.onclose = () => {
    state.backlog.push({ type: "close" });
    failed();
  };
  socket.onerror = failed;
  early = state;
  return state;
}

function openAtStart(): void {
  // The Electron bridge needs no socket; a page without a token gets the client's own message.
  if (typeof window === "undefined" || "workbench" in window || typeof WebSocket === "undefined") return;
  const url = webSocketUrlFromLocation(window.location);
  if (!url) return;
  openEarlySocket(url, bootRequests());
  performance.mark("wb:ws:early");
}

/** Resolves with `promise`, or after `maxWaitMs`; at once when there is no early socket. */
function waitForEarly(pick: (e: EarlySocket) => Promise<void>, maxWaitMs: number): Promise<void> {
  if (!early) return Promise.resolve();
  return Promise.race([pick(early), new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs))]);
}

/**
 * Resolves once the start-up requests are out (or the socket failed), or after
 * `maxWaitMs`. The entry script waits for it before it evaluates the app's
 * (preloaded) script, which holds the page's thread for a while: the socket's
 * open event would wait behind it, and so would the requests.
 */
export function earlyRequestsOut(maxWaitMs: number): Promise<void> {
  return waitForEarly((e) => e.requestsOut, maxWaitMs);
}

/**
 * Resolves once every start-up request has its answer (or the socket failed),
 * or after `maxWaitMs`. The app waits for it before its first render, so that
 * render already shows the session instead of an empty shell first.
 */
export function earlyAnswersIn(maxWaitMs: number): Promise<void> {
  return waitForEarly((e) => e.answersIn, maxWaitMs);
}

/** The socket opened at start for this URL, once (later connections are the client's own). */
export function takeEarlySocket(url: string): EarlySocket | null {
  const e = early;
  early = null;
  return e && e.url === url ? e : null;
}

openAtStart();
