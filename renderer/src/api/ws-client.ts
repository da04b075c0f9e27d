/**
 * The web-mode transport: one WebSocket to the web host, request ids, typed
 * errors, automatic reconnection with backoff.
 *
 * Contract: `call` resolves with the zod-parsed result or rejects with a
 * WorkbenchApiError (UNAVAILABLE when the socket dropped with the request in
 * flight). Requests made while disconnected wait for the next connection.
 */
import {
  MAX_FRAME_BYTES,
  WorkbenchApiError,
  type EventName,
  type EventPayload,
  type RequestMethod,
  type RequestParams,
  type RequestResult,
  type WorkbenchClient,
} from "../../../shared/api";
import type { ConnectionAware, ConnectionInfo, UnvalidatedCalls } from "./connection";
import { EventHub, isEventName, unwrapResponse, unwrapUnvalidated } from "./transport";

interface Pending {
  method: RequestMethod;
  /** Resolve with the result as received (the caller validates it). */
  unvalidated: boolean;
  resolve: (value: unknown) => void;
  reject: (err: WorkbenchApiError) => void;
}

const MAX_BACKOFF_MS = 5_000;

export class WebSocketClient implements WorkbenchClient, ConnectionAware, UnvalidatedCalls {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Frames waiting for an open socket. */
  private outbox: string[] = [];
  private readonly hub = new EventHub();
  private info: ConnectionInfo = { status: "connecting", generation: 0 };
  private readonly connectionListeners = new Set<(info: ConnectionInfo) => void>();
  private attempts = 0;
  private closed = false;

  constructor(private readonly url: string) {
    this.open();
  }

  call<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    return this.request(method, params, false) as Promise<RequestResult<M>>;
  }

  callUnvalidated(method: RequestMethod, params: unknown): Promise<unknown> {
    return this.request(method, params, true);
  }

  private request(method: RequestMethod, params: unknown, unvalidated: boolean): Promise<unknown> {
    const id = this.nextId++;
    const frame = JSON.stringify({ id, method, params });
    // The host would close the socket on it (and fail every request in flight): refuse it here instead.
    if (frame.length * 3 > MAX_FRAME_BYTES && utf8Length(frame) > MAX_FRAME_BYTES) {
      const mb = (n: number) => `${Math.ceil(n / 1024 / 1024)} MB`;
      return Promise.reject(
        new WorkbenchApiError({
          code: "INVALID_REQUEST",
          message: `${method} is ${mb(utf8Length(frame))}, more than one request to the workbench may carry (${mb(MAX_FRAME_BYTES)})`,
        }),
      );
    }
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { method, unvalidated, resolve, reject });
      if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(frame);
      else this.outbox.push(frame);
    });
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    return this.hub.add(event, listener);
  }

  connection(): ConnectionInfo {
    return this.info;
  }

  onConnection(listener: (info: ConnectionInfo) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private setInfo(info: ConnectionInfo): void {
    this.info = info;
    for (const l of [...this.connectionListeners]) l(info);
  }

  private open(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      performance.mark("wb:ws:open");
      this.attempts = 0;
      this.setInfo({ status: "open", generation: this.info.generation + 1 });
      const queued = this.outbox;
      this.outbox = [];
      for (const frame of queued) socket.send(frame);
    };
    socket.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data === "string") this.receive(ev.data);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failInFlight();
      if (this.closed) return;
      this.setInfo({ status: "reconnecting", generation: this.info.generation });
      const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.attempts++);
      window.setTimeout(() => this.open(), delay);
    };
    // Errors are followed by close; the close handler does the work.
    socket.onerror = () => undefined;
  }

  /** Requests already sent cannot be known to have run; the caller decides whether to retry. */
  private failInFlight(): void {
    const sentIds = [...this.pending.keys()];
    const unsent = new Set(this.outbox.map((f) => (JSON.parse(f) as { id: number }).id));
    for (const id of sentIds) {
      if (unsent.has(id)) continue;
      const p = this.pending.get(id);
      this.pending.delete(id);
      p?.reject(new WorkbenchApiError({ code: "UNAVAILABLE", message: "Connection to the workbench was lost" }));
    }
  }

  private receive(text: string): void {
    let frame: unknown;
    try {
      if (text.length > 1_000_000) performance.mark("wb:ws:large-frame");
      frame = JSON.parse(text);
    } catch {
      console.error("Workbench sent a frame that is not JSON");
      return;
    }
    if (typeof frame !== "object" || frame === null || !("kind" in frame)) return;
    if (frame.kind === "response" && "id" in frame && typeof frame.id === "number") {
      const p = this.pending.get(frame.id);
      if (!p) return;
      this.pending.delete(frame.id);
      try {
        const response = "response" in frame ? frame.response : undefined;
        p.resolve(p.unvalidated ? unwrapUnvalidated(p.method, response) : unwrapResponse(p.method, response));
      } catch (err) {
        p.reject(err instanceof WorkbenchApiError ? err : new WorkbenchApiError({ code: "INTERNAL", message: String(err) }));
      }
      return;
    }
    if (frame.kind === "event" && "event" in frame && typeof frame.event === "string" && isEventName(frame.event)) {
      this.hub.emit(frame.event, "payload" in frame ? frame.payload : undefined);
    }
  }
}

/** Bytes of `text` in UTF-8, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    // A surrogate pair is 4 bytes for 2 units; other units above 0x7ff are 3 bytes, above 0x7f 2.
    bytes += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdbff ? 1 : c >= 0xdc00 && c <= 0xdfff ? 1 : 2;
  }
  return bytes;
}

/** ws://host/ws?token=… from the page's #token=… fragment. */
export function webSocketUrlFromLocation(loc: Location): string | null {
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ""));
  const token = hash.get("token");
  if (!token) return null;
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/ws?token=${encodeURIComponent(token)}`;
}
