/**
 * After the user switches a session's model (or creates one with a model),
 * the draft of the next new session shows that model: the app.info default
 * loaded at start is no longer what the core will pick.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AppClient } from "../../renderer/src/api/client";
import { setClient } from "../../renderer/src/api/current";
import { useAppStore, type AppInfo } from "../../renderer/src/stores/app-store";
import { useWorkspaceStore } from "../../renderer/src/stores/workspace-store";
import type { SessionSummary } from "../../shared/api";

afterEach(() => setClient(null));

const priciest = { provider: "anthropic", api: "anthropic-messages", id: "claude-opus" } as const;
const cheap = { provider: "anthropic", api: "anthropic-messages", id: "claude-haiku" } as const;

function summary(model: typeof cheap): SessionSummary {
  return { id: "s1", workspaceId: "w1", title: "t", model, entryCount: 0 } as unknown as SessionSummary;
}

describe("the model a new session's draft shows", () => {
  it("follows a switch in the model switcher", async () => {
    useAppStore.setState({ info: { defaultModel: priciest } as unknown as AppInfo });
    setClient({
      call: (method: string) => {
        if (method !== "chat.switchModel") throw new Error(`unexpected ${method}`);
        return Promise.resolve(summary(cheap));
      },
    } as unknown as AppClient);
    await useWorkspaceStore.getState().switchModel("s1", cheap);
    expect(useAppStore.getState().info?.defaultModel).toEqual(cheap);
  });

  it("stays as it was when the switch is refused", async () => {
    useAppStore.setState({ info: { defaultModel: priciest } as unknown as AppInfo, toasts: [] });
    setClient({ call: () => Promise.reject(new Error("unknown model")) } as unknown as AppClient);
    await useWorkspaceStore.getState().switchModel("s1", cheap);
    expect(useAppStore.getState().info?.defaultModel).toEqual(priciest);
    expect(useAppStore.getState().toasts.some((t) => t.text.includes("Could not switch the model"))).toBe(true);
  });
});
