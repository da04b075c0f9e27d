/**
 * Settings → Bash sandbox reaches the tools: the approval card of a bash call
 * follows the saved mode and network choice, and `tools.sandboxStatus` tells
 * Settings what this machine offers.
 */
import { afterEach, describe, expect, it } from "vitest";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";
import { startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function cardLine(harness: Harness, id: string): Promise<unknown> {
  harness.faux.script([{ type: "reply", content: [{ type: "toolCall", id, name: "bash", arguments: { command: "true" } }] }]);
  const from = harness.events.length;
  await harness.call("chat.send", { sessionId: harness.sessionId, text: "run" });
  const state = await harness.waitFor("turn.state", (s) => s.status === "awaitingApproval" && s.pendingApproval?.toolCallId === id, from);
  const preview = state.pendingApproval?.preview;
  await harness.call("chat.abort", { sessionId: harness.sessionId });
  await harness.waitIdle(from);
  return preview;
}

describe("Settings → Bash sandbox", () => {
  it("defaults to auto without network, reports this machine's sandbox, and the card follows a change at once", async () => {
    h = await startHarness();
    const settings = await h.call("settings.get", {});
    expect(settings.bashSandbox).toEqual({ mode: "auto", network: false });
    const info = detectBashSandbox();
    expect(await h.call("tools.sandboxStatus", {})).toEqual(info.reason ? { kind: info.kind, reason: info.reason } : { kind: info.kind });

    const first = await cardLine(h, "toolu_sb1");
    if (info.kind === "none") expect(first).toMatchObject({ sandboxed: false, sandbox: expect.stringMatching(/^Not sandboxed: /) });
    else expect(first).toMatchObject({ sandboxed: true, sandbox: expect.stringMatching(/no network\.$/) });

    await h.call("settings.update", { bashSandbox: { mode: "auto", network: true } });
    if (info.kind !== "none")
      expect(await cardLine(h, "toolu_sb2")).toMatchObject({ sandboxed: true, sandbox: expect.stringMatching(/network allowed\.$/) });

    await h.call("settings.update", { bashSandbox: { mode: "off", network: false } });
    expect(await cardLine(h, "toolu_sb3")).toMatchObject({
      sandboxed: false,
      sandbox: expect.stringMatching(/^Not sandboxed: the sandbox is turned off in the settings/),
    });
  });

  it("refuses a malformed mode with a typed error and keeps the stored settings", async () => {
    h = await startHarness();
    await expect(h.call("settings.update", { bashSandbox: { mode: "sometimes", network: false } } as never)).rejects.toThrow(
      /INVALID_REQUEST/,
    );
    expect((await h.call("settings.get", {})).bashSandbox).toEqual({ mode: "auto", network: false });
  });
});
