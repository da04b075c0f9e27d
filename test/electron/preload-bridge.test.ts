/**
 * The object the renderer gets as `window.workbench`: only named calls from
 * the contract, only contract events, and no way to reach ipcRenderer.
 */
import { describe, expect, it } from "vitest";
import { events, requests } from "../../shared/api";
import { createBridge } from "../../electron/preload/bridge";

function setup(invokeImpl?: (channel: string, params: unknown) => Promise<unknown>) {
  const invoked: Array<{ channel: string; params: unknown }> = [];
  let receiver: ((name: unknown, payload: unknown) => void) | null = null;
  const bridge = createBridge({
    invoke: (channel, params) => {
      invoked.push({ channel, params });
      return invokeImpl ? invokeImpl(channel, params) : Promise.resolve({ ok: true, result: channel });
    },
    onEventFrame: (r) => {
      receiver = r;
    },
    requestMethods: Object.keys(requests),
    eventNames: Object.keys(events),
  });
  const deliver = (name: unknown, payload: unknown) => receiver?.(name, payload);
  return { bridge, invoked, deliver };
}

describe("preload bridge", () => {
  it("exposes exactly call and on, both plain functions", () => {
    const { bridge } = setup();
    expect(Object.keys(bridge).sort()).toEqual(["call", "on"]);
    for (const v of Object.values(bridge)) expect(typeof v).toBe("function");
  });

  it("invokes the contract method on its own channel", async () => {
    const { bridge, invoked } = setup();
    await expect(bridge.call("session.list", { workspaceId: "w" })).resolves.toEqual({ ok: true, result: "wb:session.list" });
    expect(invoked).toEqual([{ channel: "wb:session.list", params: { workspaceId: "w" } }]);
  });

  it("answers UNKNOWN_METHOD for a name outside the contract without touching IPC", async () => {
    const { bridge, invoked } = setup();
    for (const name of ["event", "wb:event", "__proto__", "constructor", "session.list/../x"]) {
      // The renderer is untrusted: it can pass any string at run time.
      const res = await bridge.call(name as never, {});
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.error.code).toBe("UNKNOWN_METHOD");
    }
    expect(invoked).toEqual([]);
  });

  it("turns a failed invoke into an UNAVAILABLE answer instead of a rejection", async () => {
    const { bridge } = setup(() => Promise.reject(new Error("No handler registered for 'wb:app.info'")));
    const res = await bridge.call("app.info", {});
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.code).toBe("UNAVAILABLE");
  });

  it("delivers contract events to subscribers until they unsubscribe", () => {
    const { bridge, deliver } = setup();
    const got: unknown[] = [];
    const off = bridge.on("stream.end", (p) => got.push(p));
    deliver("stream.end", { sessionId: "a" });
    deliver("turn.error", { sessionId: "a", message: "x" });
    off();
    deliver("stream.end", { sessionId: "b" });
    expect(got).toEqual([{ sessionId: "a" }]);
  });

  it("ignores frames for names outside the contract and refuses to subscribe to them", () => {
    const { bridge, deliver } = setup();
    expect(() => bridge.on("not.an.event" as never, () => undefined)).toThrow(TypeError);
    const got: unknown[] = [];
    bridge.on("stream.end", (p) => got.push(p));
    deliver(42, {});
    deliver("toString", {});
    expect(got).toEqual([]);
  });

  it("keeps delivering to other listeners when one throws", () => {
    const { bridge, deliver } = setup();
    const got: string[] = [];
    bridge.on("stream.end", () => {
      throw new Error("listener bug");
    });
    bridge.on("stream.end", () => got.push("second"));
    const original = console.error;
    console.error = () => undefined;
    try {
      deliver("stream.end", { sessionId: "a" });
    } finally {
      console.error = original;
    }
    expect(got).toEqual(["second"]);
  });

  it("gets the contract's names inlined by the build, so the allow-list follows shared/api.ts", async () => {
    const config = (await import("node:fs")).readFileSync(new URL("../../electron.vite.config.ts", import.meta.url), "utf8");
    expect(config).toMatch(/__WB_REQUEST_METHODS__: JSON\.stringify\(Object\.keys\(requests\)\)/);
    expect(config).toMatch(/__WB_EVENT_NAMES__: JSON\.stringify\(Object\.keys\(events\)\)/);
  });
});
