/**
 * `agent run --session <id>`: only an unknown session is bad usage (exit 2,
 * "no session …"); any other failure to load it, e.g. the database failing,
 * is reported as that failure, not hidden behind "no session".
 */
import { describe, expect, it } from "vitest";
import type { ApiError } from "../../shared/api";
import type { Workbench } from "../../electron/core/api/workbench";
import { WorkbenchApiError } from "../../shared/api";
import { chooseSession, UsageError } from "../../electron/core/host/headless-run";

function failingWorkbench(error: ApiError): Workbench {
  return { handle: () => Promise.resolve({ ok: false, error }) } as unknown as Workbench;
}

describe("choosing the session of a headless run", () => {
  it("an unknown session id is a usage error naming it", async () => {
    const wb = failingWorkbench({ code: "NOT_FOUND", message: "no session s-1" });
    await expect(chooseSession(wb, "w", { session: "s-1" })).rejects.toThrow(UsageError);
    await expect(chooseSession(wb, "w", { session: "s-1" })).rejects.toThrow("no session s-1");
  });

  it("a storage failure while loading it is reported as that failure, not as a missing session", async () => {
    const wb = failingWorkbench({ code: "INTERNAL", message: "disk I/O error" });
    const err = await chooseSession(wb, "w", { session: "s-1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkbenchApiError);
    expect(err).not.toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe("disk I/O error");
  });
});
