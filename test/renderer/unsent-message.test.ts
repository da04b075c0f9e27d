/**
 * A message the core's store refused (STORAGE: disk full, locked…) is held in
 * the turn store under its reason, not lost and not resent as some other
 * message: Retry sends exactly it again, and it is let go once the core took it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WorkbenchApiError } from "../../shared/api";
import type { AppClient } from "../../renderer/src/api/client";
import { setClient } from "../../renderer/src/api/current";
import { useTurnStore } from "../../renderer/src/stores/turn-store";

afterEach(() => setClient(null));

function fakeClient(answers: Array<"refuse" | "take">, sent: unknown[]): AppClient {
  return {
    call: (method: string, params: unknown) => {
      if (method !== "chat.send") throw new Error(`unexpected ${method}`);
      sent.push(params);
      if (answers.shift() === "refuse")
        return Promise.reject(
          new WorkbenchApiError({ code: "STORAGE", message: "The disk holding your sessions is full (…): free space and press Retry." }),
        );
      return Promise.resolve({ queued: false });
    },
  } as unknown as AppClient;
}

describe("a message the store refused", () => {
  it("is held with the reason, and Retry sends that same message once space is back", async () => {
    const sent: unknown[] = [];
    setClient(fakeClient(["refuse", "take"], sent));
    const taken = await useTurnStore.getState().send("s1", "my long message");
    expect(taken).toBe(true);
    expect(useTurnStore.getState().errors.s1).toMatch(/^The disk holding your sessions is full/);
    expect(useTurnStore.getState().unsent.s1).toEqual({ text: "my long message", images: [], mentions: [] });

    expect(await useTurnStore.getState().retryUnsent("s1")).toBe(true);
    expect(sent).toEqual([
      { sessionId: "s1", text: "my long message" },
      { sessionId: "s1", text: "my long message" },
    ]);
    expect(useTurnStore.getState().unsent.s1).toBeNull();
  });

  it("stays held when Retry is refused again", async () => {
    const sent: unknown[] = [];
    setClient(fakeClient(["refuse", "refuse"], sent));
    await useTurnStore.getState().send("s2", "again");
    expect(await useTurnStore.getState().retryUnsent("s2")).toBe(false);
    expect(useTurnStore.getState().unsent.s2?.text).toBe("again");
  });
});
