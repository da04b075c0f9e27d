/**
 * Builds the `window.workbench` object from two narrow capabilities (invoke one
 * channel, receive event frames) and the contract's name lists. Nothing of
 * ipcRenderer itself reaches the renderer (checklist item 20). No runtime
 * Electron import, so the tests exercise it under plain Node.
 */
import type { ApiResponse, EventName, RequestMethod } from "../../shared/api";
import type { WorkbenchBridge } from "../../shared/bridge";
import { requestChannel } from "./channels";

export interface BridgeDeps {
  /** ipcRenderer.invoke bound to one channel at a time. */
  invoke: (channel: string, params: unknown) => Promise<unknown>;
  /** Registers the single receiver for event frames (name, payload). */
  onEventFrame: (receiver: (name: unknown, payload: unknown) => void) => void;
  requestMethods: readonly string[];
  eventNames: readonly string[];
}

function failure(code: "UNKNOWN_METHOD" | "UNAVAILABLE" | "INVALID_REQUEST", message: string): ApiResponse<unknown> {
  return { ok: false, error: { code, message } };
}

/** A value the main process returned, checked just enough to keep the "never rejects" promise. */
function asResponse(value: unknown): ApiResponse<unknown> {
  if (typeof value === "object" && value !== null && "ok" in value) return value as ApiResponse<unknown>;
  return failure("UNAVAILABLE", "malformed IPC response");
}

export function createBridge(deps: BridgeDeps): WorkbenchBridge {
  const methods = new Set(deps.requestMethods);
  const eventNames = new Set(deps.eventNames);
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  deps.onEventFrame((name, payload) => {
    if (typeof name !== "string" || !eventNames.has(name)) return;
    const set = listeners.get(name);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        listener(payload);
      } catch (err) {
        console.error(`workbench: a listener for ${name} threw`, err);
      }
    }
  });

  return {
    call(method: RequestMethod, params: unknown): Promise<ApiResponse<unknown>> {
      if (typeof method !== "string" || !methods.has(method)) {
        return Promise.resolve(failure("UNKNOWN_METHOD", `unknown method: ${String(method)}`));
      }
      return deps
        .invoke(requestChannel(method), params)
        .then(asResponse, (err: unknown) =>
          failure("UNAVAILABLE", `the workbench core did not answer ${method}: ${err instanceof Error ? err.message : String(err)}`),
        );
    },
    on(event: EventName, listener: (payload: unknown) => void): () => void {
      if (typeof event !== "string" || !eventNames.has(event)) {
        throw new TypeError(`unknown workbench event: ${String(event)}`);
      }
      if (typeof listener !== "function") throw new TypeError("listener must be a function");
      let set = listeners.get(event);
      if (set === undefined) {
        set = new Set();
        listeners.set(event, set);
      }
      // A wrapper per subscription, so subscribing the same function twice needs two unsubscribes.
      const entry = (payload: unknown) => listener(payload);
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
  };
}
