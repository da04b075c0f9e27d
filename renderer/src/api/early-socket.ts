/**
 * The web-mode socket, opened before anything else of the app runs: main.tsx
 * imports this module first, so the connection (TCP, the HTTP upgrade, the
 * token check) is made while the browser still evaluates React and the rest of
 * the script, instead of after it. No imports on purpose: a module's imports
 * run before its body. The WebSocketClient adopts the socket; anything that
 * happened to it before (open, frames, close) is kept and replayed there.
 */

/** ws://host/ws?token=… from the page's #token=… fragment. */
export function webSocketUrlFromLocation(loc: Location): string | null {
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ""));
  const token = hash.get("token");
  if (!token) return null;
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/ws?token=${encodeURIComponent(token)}`;
}

export interface EarlySocket {
  url: string;
  socket: WebSocket;
  /** What happened before the client took the socket over, in order. */
  backlog: Array<{ type: "open" } | { type: "message"; data: unknown } | { type: "close" }>;
}

let early: EarlySocket | null = null;

function openEarly(): void {
  // The Electron bridge needs no socket; a page without a token gets the client's own message.
  if (typeof window === "undefined" || "workbench" in window || typeof WebSocket === "undefined") return;
  const url = webSocketUrlFromLocation(window.location);
  if (!url) return;
  const socket = new WebSocket(url);
  const backlog: EarlySocket["backlog"] = [];
  socket.onopen = () => backlog.push({ type: "open" });
  socket.onmessage = (ev: MessageEvent) => backlog.push({ type: "message", data: ev.data });
  socket.onclose = () => backlog.push({ type: "close" });
  socket.onerror = () => undefined;
  early = { url, socket, backlog };
  performance.mark("wb:ws:early");
}

/** The socket opened at start for this URL, once (later connections are the client's own). */
export function takeEarlySocket(url: string): EarlySocket | null {
  const e = early;
  early = null;
  return e && e.url === url ? e : null;
}

openEarly();
