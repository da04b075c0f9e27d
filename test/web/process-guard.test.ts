/**
 * The process guard's own contract, on a stand-in process: a failure nothing
 * caught is logged with its stack, reported once the core is connected, and
 * reports stop at MAX_REPORTS (a failure in a loop cannot flood the UI) while
 * the log keeps every one.
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { MAX_REPORTS, installProcessGuard } from "../../electron/core/host/process-guard";

describe("process guard", () => {
  it("logs every failure, reports from when the core is connected, and caps the reports", () => {
    const emitter = new EventEmitter();
    const proc = emitter as unknown as NodeJS.Process;
    const logged: string[] = [];
    const reported: string[] = [];
    const guard = installProcessGuard((line) => logged.push(line), proc);
    emitter.emit("unhandledRejection", new Error("before the core"));
    guard.reportTo((m) => reported.push(m));
    emitter.emit("uncaughtException", new Error("boom"));
    for (let i = 0; i < MAX_REPORTS + 5; i++) emitter.emit("unhandledRejection", `reason ${i}`);

    expect(logged).toHaveLength(MAX_REPORTS + 7);
    expect(logged[0]).toMatch(/^unhandled promise rejection \(the app keeps running\): Error: before the core/);
    expect(reported).toHaveLength(MAX_REPORTS);
    expect(reported[0]).toBe("An internal error was not handled: boom. The app keeps running; if something looks wrong, restart it.");
    expect(reported.at(-1)).toMatch(/Further ones are only written to the log\.$/);

    guard.dispose();
    expect(emitter.listenerCount("unhandledRejection")).toBe(0);
    expect(emitter.listenerCount("uncaughtException")).toBe(0);
  });
});
