/**
 * "What the model saw" is what was sent, not what would be sent today: after
 * a step, AGENTS.md appears, the workspace's MCP server goes away and the bash
 * sandbox setting changes, and every request of that step still reads back
 * byte for byte as the body the faux provider received. Through the whole
 * core (createWorkbench, the real adapters and SDKs, loopback).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRef } from "../../shared/protocol";
import { MODELS, type Harness } from "../agent/harness";
import { approveEveryCall, callTool, say, startTrusted } from "../mcp/agent-helpers";
import { startLongTurnHarness, testModel } from "../agent/long-turn-fixtures";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let h: Harness | null = null;
let userDir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (userDir) rmSync(userDir, { recursive: true, force: true });
  userDir = null;
});

const AGENTS_MD = "# Rules\nAlways answer in haiku. (written after the step)\n";
const CASES: [string, ModelRef][] = [
  ["Anthropic", MODELS.anthropic],
  ["Chat Completions", MODELS.openaiChat],
  ["Responses", MODELS.openaiResponses],
];

describe("what the model saw is recorded when sent", () => {
  for (const [label, model] of CASES) {
    it(
      `${label}: AGENTS.md, an MCP server and a setting changed after the step leave its requests as sent`,
      async () => {
        const raws: string[] = [];
        const started = await startTrusted({}, model, { onRawBody: (raw) => raws.push(raw) });
        h = started.harness;
        userDir = started.userDir;
        approveEveryCall(h);
        h.faux.script([callTool("ping", {}, "call_ping_1"), say("pong received")]);
        await h.turn("ping the docs server");

        const { entries } = await h.call("session.load", { sessionId: h.sessionId });
        const answers = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant").map((e) => e.seq);
        expect(answers).toHaveLength(2);
        expect(raws).toHaveLength(2);
        // The step offered the MCP tool and knew no AGENTS.md.
        expect(raws[0]).toContain("Answers pong");
        expect(raws[0]).not.toContain("haiku");

        // Everything that shaped those requests changes.
        writeFileSync(join(h.workspace, "AGENTS.md"), AGENTS_MD);
        writeFileSync(join(h.workspace, ".mcp.json"), JSON.stringify({ mcpServers: {} }));
        await h.call("mcp.restart", { workspaceId: h.workspaceId });
        const settings = await h.call("settings.get", {});
        await h.call("settings.update", { bashSandbox: { ...settings.bashSandbox, network: !settings.bashSandbox.network } });

        for (const [i, seq] of answers.entries()) {
          const view = await h.call("review.modelView", { sessionId: h.sessionId, seq });
          expect(view.recorded).toBe(true);
          expect(view.raw).toBe(raws[i]);
          // The body shown is the parsed bytes, nothing rebuilt.
          expect(JSON.stringify(view.body)).toBe(raws[i]);
          const head = await h.call("review.modelViewHead", { sessionId: h.sessionId, seq, lines: 5 });
          expect(head.recorded).toBe(true);
        }

        // The changes were real: the next request carries them.
        h.faux.script([say("noted")]);
        await h.turn("again");
        expect(raws).toHaveLength(3);
        expect(raws[2]).toContain("haiku");
        expect(raws[2]).not.toContain("Answers pong");
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  }
});

describe("what the model saw is recorded on the SDKs that reshape the body (Gemini, Bedrock)", () => {
  for (const api of ["gemini", "bedrock"] as const) {
    it(
      `${api}: the bytes on the wire, not the builder's body, survive AGENTS.md and a setting changed later`,
      async () => {
        const raws: string[] = [];
        const model = testModel(api, api === "gemini" ? "gemini-2.5-flash" : "anthropic.claude-sonnet-4-6", 200_000);
        h = await startLongTurnHarness([model], { "a.txt": "alpha" }, { onRawBody: (raw) => raws.push(raw) });
        h.faux.script([
          { type: "reply", content: [{ type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } }] },
          say("alpha it is"),
        ]);
        await h.turn("read a.txt");
        writeFileSync(join(h.workspace, "AGENTS.md"), AGENTS_MD);
        const settings = await h.call("settings.get", {});
        await h.call("settings.update", { bashSandbox: { ...settings.bashSandbox, network: !settings.bashSandbox.network } });

        const { entries } = await h.call("session.load", { sessionId: h.sessionId });
        const answers = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant").map((e) => e.seq);
        expect(answers).toHaveLength(2);
        expect(raws).toHaveLength(2);
        for (const [i, seq] of answers.entries()) {
          const view = await h.call("review.modelView", { sessionId: h.sessionId, seq });
          expect(view.recorded).toBe(true);
          expect(view.raw).toBe(raws[i]);
        }
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  }
});
