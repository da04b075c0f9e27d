/**
 * The IPC adapter with a fake ipcMain: which senders reach the core, and
 * whether events reach the windows.
 */
import { describe, expect, it } from "vitest";
import { events, requests, type ApiResponse, type EventName, type EventPayload } from "../../shared/api";
import type { Workbench, WorkbenchEventListener } from "../../electron/core/api/workbench";
import { registerWorkbenchIpc, type EventTarget, type InvokeEventLike, type IpcMainLike } from "../../electron/main/ipc";
import { EVENT_CHANNEL } from "../../electron/preload/channels";

type Handler = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => {
      handlers.delete(channel);
    },
  };
  return { ipcMain, handlers };
}

function fakeWorkbench() {
  const calls: Array<{ method: string; params: unknown }> = [];
  const listeners = new Set<WorkbenchEventListener>();
  let fail = false;
  const workbench: Workbench = {
    handle: async (method, params) => {
      calls.push({ method, params });
      if (fail) throw new Error("boom with secret sk-123");
      return { ok: true, result: { echoed: method } };
    },
    onEvent: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => undefined,
  };
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>) => {
    for (const l of listeners) l(name, payload);
  };
  return { workbench, calls, emit, listeners, failNext: () => (fail = true) };
}

const WINDOW_ID = 7;
const mainFrame = (url = "app://workbench/index.html"): InvokeEventLike => ({
  senderFrame: { url, parent: null },
  sender: { id: WINDOW_ID },
});

function setup() {
  const { ipcMain, handlers } = fakeIpcMain();
  const wb = fakeWorkbench();
  const sent: Array<{ target: number; channel: string; args: unknown[] }> = [];
  const target = (id: number, destroyed = false): EventTarget => ({
    id,
    isDestroyed: () => destroyed,
    send: (channel, ...args) => sent.push({ target: id, channel, args }),
  });
  const logs: string[] = [];
  const dispose = registerWorkbenchIpc({
    ipcMain,
    workbench: wb.workbench,
    trustedContentsIds: () => new Set([WINDOW_ID]),
    eventTargets: () => [target(WINDOW_ID), target(8, true)],
    log: (l) => logs.push(l),
  });
  const invoke = (channel: string, event: InvokeEventLike, params?: unknown) => {
    const h = handlers.get(channel);
    if (h === undefined) throw new Error(`no handler for ${channel}`);
    return h(event, params) as Promise<ApiResponse<unknown>>;
  };
  return { handlers, wb, sent, logs, dispose, invoke };
}

describe("IPC adapter", () => {
  it("registers one channel per request of the contract and nothing else", () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual(
      Object.keys(requests)
        .map((m) => `wb:${m}`)
        .sort(),
    );
  });

  it("passes a request from the app's main frame to the core", async () => {
    const { invoke, wb } = setup();
    const res = await invoke("wb:session.list", mainFrame(), { workspaceId: "w1" });
    expect(res).toEqual({ ok: true, result: { echoed: "session.list" } });
    expect(wb.calls).toEqual([{ method: "session.list", params: { workspaceId: "w1" } }]);
  });

  it("refuses a subframe, a foreign page, a destroyed frame and an unknown window", async () => {
    const { invoke, wb } = setup();
    const refused = [
      { senderFrame: { url: "app://workbench/index.html", parent: {} }, sender: { id: WINDOW_ID } },
      mainFrame("https://evil.example/"),
      mainFrame("file:///app/out/renderer/index.html"),
      mainFrame("app://other/index.html"),
      { senderFrame: null, sender: { id: WINDOW_ID } },
      { senderFrame: { url: "app://workbench/index.html", parent: null }, sender: { id: 99 } },
    ];
    for (const event of refused) {
      const res = await invoke("wb:workspace.open", event, { path: "/" });
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.error.code).toBe("INVALID_REQUEST");
    }
    expect(wb.calls).toEqual([]);
  });

  it("answers a typed INTERNAL error when the core throws, without logging the message", async () => {
    const { invoke, wb, logs } = setup();
    wb.failNext();
    const res = await invoke("wb:app.info", mainFrame(), {});
    expect(res).toEqual({ ok: false, error: { code: "INTERNAL", message: "internal error" } });
    expect(logs.join("\n")).not.toContain("sk-123");
  });

  it("sends an absent params argument to the core as an empty object", async () => {
    const { invoke, wb } = setup();
    await invoke("wb:app.info", mainFrame());
    expect(wb.calls[0]?.params).toEqual({});
  });

  it("forwards core events to live windows on one channel and skips destroyed ones", () => {
    const { wb, sent } = setup();
    const payload = { sessionId: "s1" };
    wb.emit("stream.end", payload);
    expect(sent).toEqual([{ target: WINDOW_ID, channel: EVENT_CHANNEL, args: ["stream.end", payload] }]);
    expect(Object.keys(events)).toContain("stream.end");
  });

  it("removes every handler and the event subscription when disposed", () => {
    const { handlers, wb, dispose } = setup();
    dispose();
    expect(handlers.size).toBe(0);
    expect(wb.listeners.size).toBe(0);
  });
});
