/**
 * "Run unsandboxed" (docs/tool-sandbox.md): a separate, explicit choice for
 * one bash call the card showed as sandboxed. That call runs outside the OS
 * sandbox and says so in its approval entry and result; it is never a rule,
 * never for the session, and refused for anything but a sandboxed bash call.
 */
import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FauxStep } from "../../electron/core/faux";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";
import { expectEveryCallAnswered, startHarness, type Harness } from "./harness";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const sandbox = detectBashSandbox();
const outside = [join(tmpdir(), `awb-unsandboxed-${process.pid}-1`), join(tmpdir(), `awb-unsandboxed-${process.pid}-2`)];

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  for (const f of outside) rmSync(f, { force: true });
});

const call = (id: string, name: string, args: Record<string, unknown>): FauxStep => ({
  type: "reply",
  content: [{ type: "toolCall", id, name, arguments: args }],
});
const done: FauxStep = { type: "reply", content: [{ type: "text", text: "done" }] };

async function asked(harness: Harness, toolCallId: string, from: number) {
  return harness.waitFor("turn.state", (s) => s.status === "awaitingApproval" && s.pendingApproval?.toolCallId === toolCallId, from);
}

describe.skipIf(sandbox.kind === "none")(`Run unsandboxed (needs an OS sandbox; this machine: ${sandbox.kind})`, () => {
  it(
    "runs that one call outside the sandbox, records it, and asks again for the same command",
    async () => {
      h = await startHarness();
      const [inSandbox, unsandboxed] = outside;
      h.faux.script([
        call("t1", "bash", { command: `touch ${inSandbox}` }),
        call("t2", "bash", { command: `touch ${unsandboxed}` }),
        call("t3", "bash", { command: `touch ${unsandboxed}` }),
        done,
      ]);
      const from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: "touch files outside" });

      await asked(h, "t1", from);
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "t1", decision: "approve" });
      const second = await asked(h, "t2", from);
      expect(second.pendingApproval?.preview).toMatchObject({ kind: "command", sandboxed: true });
      // Not a rule, and never for the session.
      await expect(
        h.call("approval.answer", {
          sessionId: h.sessionId,
          toolCallId: "t2",
          decision: "approveUnsandboxed",
          rule: `touch ${unsandboxed}`,
        }),
      ).rejects.toThrow(/INVALID_REQUEST/);
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "t2", decision: "approveUnsandboxed" });
      // The same command is asked again: the choice covered one call.
      await asked(h, "t3", from);
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "t3", decision: "deny" });
      await h.waitIdle(from);

      // The sandboxed call's /tmp was private; the unsandboxed one wrote to the real one.
      expect(existsSync(inSandbox)).toBe(false);
      expect(existsSync(unsandboxed)).toBe(true);

      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      expectEveryCallAnswered(entries);
      const approvals = entries.flatMap((e) => (e.entry.type === "approval" ? [e.entry] : []));
      expect(approvals.map((a) => [a.toolCallId, a.decision, a.unsandboxed ?? false])).toEqual([
        ["t1", "approved", false],
        ["t2", "approved", true],
        ["t3", "denied", false],
      ]);
      const details = (id: string) =>
        entries.flatMap((e) =>
          e.entry.type === "message" && e.entry.message.role === "toolResult" && e.entry.message.toolCallId === id
            ? [e.entry.message.details]
            : [],
        )[0];
      expect(details("t1")).toMatchObject({ sandbox: sandbox.kind });
      expect(details("t1")).not.toHaveProperty("unsandboxedByUser");
      expect(details("t2")).toMatchObject({ sandbox: "none", unsandboxedByUser: true });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "is refused for a write and for bash when the sandbox is off (nothing to leave)",
    async () => {
      h = await startHarness();
      await h.call("settings.update", { bashSandbox: { mode: "off", network: false } });
      h.faux.script([call("w1", "write", { path: "a.txt", content: "x\n" }), call("b1", "bash", { command: "true" }), done]);
      const from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: "go" });
      await asked(h, "w1", from);
      await expect(h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "w1", decision: "approveUnsandboxed" })).rejects.toThrow(
        /INVALID_REQUEST only a bash command that would run in the sandbox/,
      );
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "w1", decision: "approve" });
      await asked(h, "b1", from);
      await expect(h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "b1", decision: "approveUnsandboxed" })).rejects.toThrow(
        /INVALID_REQUEST/,
      );
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "b1", decision: "deny" });
      await h.waitIdle(from);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
