/**
 * The IPC transport of the WorkbenchApi: one `ipcMain.handle("wb:<method>")`
 * per request in shared/api.ts, events out on "wb:event". The core parses
 * every payload with its zod schema; this adapter only decides whether the
 * sender may talk to the core at all (checklist item 17).
 *
 * Electron objects are taken as narrow structural types so the adapter runs
 * under plain Node in the tests, with a fake ipcMain.
 */
import { requests, type ApiResponse, type EventName, type EventPayload, type RequestMethod } from "../../shared/api";
import type { Workbench } from "../core/api/workbench";
import { EVENT_CHANNEL, requestChannel } from "../preload/channels";
import { isAppUrl } from "./url-policy";

/** What the adapter reads of a frame (Electron's WebFrameMain). */
export interface SenderFrameLike {
  readonly url: string;
  readonly parent: unknown;
}

/** What the adapter reads of an invoke event (Electron's IpcMainInvokeEvent). */
export interface InvokeEventLike {
  readonly senderFrame: SenderFrameLike | null;
  readonly sender: { readonly id: number };
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface EventTarget {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/**
 * A sender may call the core only from the top frame of one of our windows,
 * showing one of the app's own pages. A subframe, a page navigated elsewhere or
 * a destroyed frame (senderFrame null) is refused.
 */
export function isTrustedSender(event: InvokeEventLike, trustedContentsIds: ReadonlySet<number>): boolean {
  const frame = event.senderFrame;
  if (frame === null) return false;
  if (frame.parent !== null) return false;
  if (!trustedContentsIds.has(event.sender.id)) return false;
  return isAppUrl(frame.url);
}

const untrusted: ApiResponse<never> = {
  ok: false,
  error: { code: "INVALID_REQUEST", message: "IPC refused: the sender is not the app's main frame" },
};

export interface IpcAdapterOptions {
  ipcMain: IpcMainLike;
  workbench: Workbench;
  /** Web contents ids of the app's windows, read at each call (windows come and go). */
  trustedContentsIds: () => ReadonlySet<number>;
  /** Where events go (the app's windows that are alive). */
  eventTargets: () => readonly EventTarget[];
  /** Logs method names and error codes only: payloads may carry keys or file contents. */
  log?: (line: string) => void;
}

/** Registers every request channel and the event forwarder; returns a disposer. */
export function registerWorkbenchIpc(options: IpcAdapterOptions): () => void {
  const { ipcMain, workbench } = options;
  const methods = Object.keys(requests) as RequestMethod[];
  for (const method of methods) {
    ipcMain.handle(requestChannel(method), async (event, params) => {
      if (!isTrustedSender(event, options.trustedContentsIds())) {
        options.log?.(`ipc: refused ${method} from an untrusted frame`);
        return untrusted;
      }
      try {
        return await workbench.handle(method, params === undefined ? {} : params);
      } catch (e) {
        // handle() must not reject; if it does anyway, the renderer still gets a typed error.
        options.log?.(`ipc: ${method} failed unexpectedly: ${e instanceof Error ? e.name : "unknown"}`);
        const failed: ApiResponse<never> = { ok: false, error: { code: "INTERNAL", message: "internal error" } };
        return failed;
      }
    });
  }
  const unsubscribe = workbench.onEvent(<E extends EventName>(name: E, payload: EventPayload<E>) => {
    for (const target of options.eventTargets()) {
      if (!target.isDestroyed()) target.send(EVENT_CHANNEL, name, payload);
    }
  });
  return () => {
    unsubscribe();
    for (const method of methods) ipcMain.removeHandler(requestChannel(method));
  };
}
