/**
 * The Electron transport: the preload's `window.workbench` bridge, which
 * returns the same ApiResponse objects as the WebSocket. Results and events are
 * parsed here exactly as in web mode.
 */
import type { EventName, EventPayload, RequestMethod, RequestParams, RequestResult, WorkbenchClient } from "../../../shared/api";
import type { WorkbenchBridge } from "../../../shared/bridge";
import type { ConnectionAware, ConnectionInfo, UnvalidatedCalls } from "./connection";
import { EventHub, toApiError, unwrapResponse, unwrapUnvalidated } from "./transport";

declare global {
  interface Window {
    workbench?: WorkbenchBridge;
  }
}

export class BridgeClient implements WorkbenchClient, ConnectionAware, UnvalidatedCalls {
  private readonly hub = new EventHub();
  private readonly subscribed = new Set<EventName>();

  constructor(private readonly bridge: WorkbenchBridge) {}

  async call<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    let raw: unknown;
    try {
      raw = await this.bridge.call(method, params);
    } catch (err) {
      throw toApiError(err);
    }
    return unwrapResponse(method, raw);
  }

  async callUnvalidated(method: RequestMethod, params: unknown): Promise<unknown> {
    let raw: unknown;
    try {
      raw = await this.bridge.call(method, params);
    } catch (err) {
      throw toApiError(err);
    }
    return unwrapUnvalidated(method, raw);
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    // One bridge subscription per event name; fan out locally.
    if (!this.subscribed.has(event)) {
      this.subscribed.add(event);
      this.bridge.on(event, (payload) => this.hub.emit(event, payload));
    }
    return this.hub.add(event, listener);
  }

  connection(): ConnectionInfo {
    return { status: "open", generation: 1 };
  }

  onConnection(): () => void {
    return () => undefined;
  }
}
