/**
 * Picks the transport: the Electron preload bridge when present, else the
 * web-mode WebSocket whose token comes from the page's #token= fragment.
 */
import type { WorkbenchClient } from "../../../shared/api";
import { BridgeClient } from "./bridge-client";
import type { ConnectionAware, UnvalidatedCalls } from "./connection";
import { WebSocketClient, webSocketUrlFromLocation } from "./ws-client";

export type AppClient = WorkbenchClient & ConnectionAware & UnvalidatedCalls;

export type ClientChoice = { ok: true; client: AppClient } | { ok: false; reason: string };

export function selectClient(win: Window): ClientChoice {
  if (win.workbench) return { ok: true, client: new BridgeClient(win.workbench) };
  const url = webSocketUrlFromLocation(win.location);
  if (!url) {
    return {
      ok: false,
      reason: "No access token in the address. Open the link printed by `npm run web` (it ends with #token=…).",
    };
  }
  return { ok: true, client: new WebSocketClient(url) };
}
