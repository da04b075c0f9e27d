/**
 * The shape of `window.workbench`, the only thing the Electron preload exposes
 * to the renderer (electron/preload/bridge.ts makes it, renderer/src/api/
 * bridge-client.ts uses it). Names are typed from the API contract; results
 * and event payloads are `unknown` on purpose: the renderer parses them with
 * the contract's zod schemas (renderer/src/api/transport.ts), exactly as in
 * web mode.
 */
import type { ApiResponse, EventName, RequestMethod } from "./api";

export interface WorkbenchBridge {
  /**
   * Invokes one WorkbenchApi request. Resolves to the core's ApiResponse; never
   * rejects: a method outside the contract answers UNKNOWN_METHOD, a core that
   * is not running answers UNAVAILABLE.
   */
  call(method: RequestMethod, params: unknown): Promise<ApiResponse<unknown>>;
  /** Subscribes to one contract event; returns the unsubscribe function. */
  on(event: EventName, listener: (payload: unknown) => void): () => void;
}

/** The global the preload defines (contextBridge.exposeInMainWorld("workbench", …)). */
export const BRIDGE_GLOBAL = "workbench";
