/**
 * MCP tools, AGENTS.md, @-mentions and Ask mode through the whole core: the
 * loop, the real adapters and SDKs, the faux provider validating every
 * request strictly as each provider does. Approving MCP tools: mcp-approvals.test.ts.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FauxRequest } from "../../electron/core/faux";
import type { ModelRef } from "../../shared/protocol";
import { MODELS, expectAllAccepted, expectEveryCallAnswered, resultsOf, type Harness } from "../agent/harness";
import { SERVER, approveEveryCall, callTool, say, startTrusted } from "./agent-helpers";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let h: Harness | null = null;
let userDir: string | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  if (userDir) rmSync(userDir, { recursive: true, force: true });
  userDir = null;
});

async function start(files: Record<string, string>, model: ModelRef = MODELS.anthropic): Promise<Harness> {
  const started = await startTrusted(files, model);
  userDir = started.userDir;
  return started.harness;
}

const systemText = (req: { turns: FauxRequest["turns"] } | undefined) => (req?.turns[0]?.role === "system" ? req.turns[0].text : "");

describe("MCP tools in the agent loop", () => {
  for (const [label, model] of Object.entries(MODELS)) {
    it(
      `${label}: the model calls an MCP tool by its wire name and the result is stored under the app's name`,
      async () => {
        h = await start({}, model);
        approveEveryCall(h);
        const seen: FauxRequest[] = [];
        h.faux.script([
          (req) => {
            seen.push(req);
            return callTool("ping", {}, "call_ping_1")(req);
          },
          say("pong received"),
        ]);
        await h.turn("ping the docs server");
        expectAllAccepted(h);
        const wireNames = seen[0].tools.map((t) => t.name);
        expect(wireNames.every((n) => /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/.test(n))).toBe(true);
        const { entries } = await h.call("session.load", { sessionId: h.sessionId });
        expectEveryCallAnswered(entries);
        const result = resultsOf(entries)[0];
        expect(result).toMatchObject({ toolName: `mcp__${SERVER}__ping`, isError: false, content: [{ type: "text", text: "pong" }] });
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  }

  it(
    "a server killed mid-call gives an error result and the session continues; restart brings the tools back",
    async () => {
      h = await start({});
      approveEveryCall(h);
      h.faux.script([callTool("crash", {}, "call_crash"), say("the server died, carrying on")]);
      await h.turn("crash it");
      let { entries } = await h.call("session.load", { sessionId: h.sessionId });
      expect(resultsOf(entries)[0]).toMatchObject({ isError: true, details: { errorCode: "SERVER_UNAVAILABLE" } });
      const status = await h.call("mcp.status", { workspaceId: h.workspaceId });
      expect(status.servers[0]).toMatchObject({ name: SERVER, state: "failed" });
      expect(status.servers[0].stderrTail).toContain("crashing on purpose");

      // The next turn works, without the dead server's tools.
      let offered: string[] = [];
      h.faux.script([
        (req) => {
          offered = req.tools.map((t) => t.name);
          return say("still here");
        },
      ]);
      await h.turn("are you there?");
      expect(offered.some((n) => n.includes("ping"))).toBe(false);
      expect(offered).toContain("read");

      const restarted = await h.call("mcp.restart", { workspaceId: h.workspaceId, name: SERVER });
      expect(restarted.servers[0]).toMatchObject({ state: "ready" });
      h.faux.script([callTool("ping", {}, "call_ping_2"), say("back")]);
      await h.turn("ping again");
      ({ entries } = await h.call("session.load", { sessionId: h.sessionId }));
      expect(resultsOf(entries).at(-1)).toMatchObject({ isError: false, content: [{ type: "text", text: "pong" }] });
      expectAllAccepted(h);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe("AGENTS.md in the system prompt", () => {
  it(
    "the root file (CLAUDE.md as fallback elsewhere), the user's and a nested one for a touched file, shown in what the model saw",
    async () => {
      h = await start({
        "AGENTS.md": "Root rule: answer in French.",
        "pkg/CLAUDE.md": "Nested rule: tabs, not spaces.",
        "pkg/a.ts": "export {};\n",
      });
      writeFileSync(join(userDir ?? "", "AGENTS.md"), "User rule: be brief.");
      const prompts: string[] = [];
      h.faux.script([
        (req) => {
          prompts.push(systemText(req));
          return { type: "reply", content: [{ type: "toolCall", id: "call_read", name: "read", arguments: { path: "pkg/a.ts" } }] };
        },
        (req) => {
          prompts.push(systemText(req));
          return say("ok");
        },
      ]);
      await h.turn("look at pkg/a.ts");
      expect(prompts[0]).toContain("Root rule: answer in French.");
      expect(prompts[0]).toContain("User rule: be brief.");
      expect(prompts[0]).not.toContain("Nested rule");
      expect(prompts[1]).toContain('<instructions path="pkg/CLAUDE.md" scope="nested">');
      expect(prompts[1]).toContain("Nested rule: tabs, not spaces.");
      const { files } = await h.call("session.instructions", { sessionId: h.sessionId });
      expect(files.map((f) => [f.path.endsWith("AGENTS.md") && f.scope === "user" ? "user" : f.path, f.scope])).toEqual([
        ["user", "user"],
        ["AGENTS.md", "workspace"],
        ["pkg/CLAUDE.md", "nested"],
      ]);

      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      const assistants = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant");
      const view = await h.call("review.modelView", { sessionId: h.sessionId, seq: assistants[1].seq });
      expect(JSON.stringify(view.body)).toContain("Nested rule: tabs, not spaces.");
      const first = await h.call("review.modelView", { sessionId: h.sessionId, seq: assistants[0].seq });
      expect(JSON.stringify(first.body)).toContain("Root rule: answer in French.");
      expect(JSON.stringify(first.body)).not.toContain("Nested rule");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a file over the cap is cut with a visible note",
    async () => {
      h = await start({ "AGENTS.md": `${"x".repeat(40 * 1024)}\nTAIL-MARKER` });
      let prompt = "";
      h.faux.script([
        (req) => {
          prompt = systemText(req);
          return say("ok");
        },
      ]);
      await h.turn("hi");
      expect(prompt).not.toContain("TAIL-MARKER");
      expect(prompt).toMatch(/\[Cut: only the first 32768 of \d+ bytes of AGENTS\.md are included\.\]/);
      const { files } = await h.call("session.instructions", { sessionId: h.sessionId });
      expect(files[0]).toMatchObject({ path: "AGENTS.md", truncated: true });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe("@-mentions and Ask mode", () => {
  it(
    "a mentioned file (or line range) is attached as a block the model reads",
    async () => {
      h = await start({ "src/a.ts": "line1\nline2\nline3\nline4\n" });
      let lastUser = "";
      h.faux.script([
        (req) => {
          const user = req.turns.filter((t) => t.role === "user").at(-1);
          lastUser = user?.role === "user" ? user.text : "";
          return say("seen");
        },
      ]);
      await h.call("chat.send", {
        sessionId: h.sessionId,
        text: "explain @src/a.ts:2-3",
        mentions: [{ path: "src/a.ts", startLine: 2, endLine: 3 }],
      });
      await h.waitIdle();
      expect(lastUser).toContain('<attached-file path="src/a.ts" lines="2-3">\nline2\nline3\n</attached-file>');
      const bad = await h.workbench.handle("chat.send", { sessionId: h.sessionId, text: "x", mentions: [{ path: "../outside.txt" }] });
      expect(bad).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "Ask mode offers read-only tools only, refuses a side-effect call with READ_ONLY_MODE, and is recorded",
    async () => {
      h = await start({ "a.txt": "alpha\n" });
      const state = await h.call("session.setMode", { sessionId: h.sessionId, mode: "ask" });
      expect(state.mode).toBe("ask");
      let offered: string[] = [];
      let prompt = "";
      h.faux.script([
        (req) => {
          offered = req.tools.map((t) => t.name);
          prompt = systemText(req);
          return {
            type: "reply",
            content: [{ type: "toolCall", id: "call_w", name: "write", arguments: { path: "a.txt", content: "changed" } }],
          };
        },
        say("I may not write in Ask mode."),
      ]);
      await h.turn("change a.txt");
      expect(offered).toContain("read");
      expect(offered).not.toContain("write");
      expect(offered).not.toContain("bash");
      // No MCP tool: a server's readOnlyHint is a claim, so Ask mode offers none of them.
      expect(offered.filter((n) => n.startsWith("mcp"))).toEqual([]);
      expect(prompt).toContain("Ask mode is on");
      const { entries, modeChanges, turn } = await h.call("session.load", { sessionId: h.sessionId });
      expect(resultsOf(entries)[0]).toMatchObject({ isError: true, details: { errorCode: "READ_ONLY_MODE" } });
      expect(turn.mode).toBe("ask");
      expect(modeChanges.map((c) => c.mode)).toEqual(["ask"]);
      await h.call("session.setMode", { sessionId: h.sessionId, mode: "agent" });
      expect((await h.call("session.load", { sessionId: h.sessionId })).modeChanges.map((c) => c.mode)).toEqual(["ask", "agent"]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "lists built-in commands and templates of the workspace and the user, the workspace winning",
    async () => {
      h = await start({
        ".agents/commands/review.md": "---\ndescription: Review a file\n---\nReview $ARGUMENTS carefully.",
        ".agents/commands/test.md": "Write tests\nfor $1",
      });
      mkdirSync(join(userDir ?? "", "commands"), { recursive: true });
      writeFileSync(join(userDir ?? "", "commands", "review.md"), "user version");
      writeFileSync(join(userDir ?? "", "commands", "mine.md"), "# My command\nDo $ARGUMENTS");
      const commands = await h.call("commands.list", { workspaceId: h.workspaceId });
      expect(commands.filter((c) => c.source === "builtin").map((c) => c.name)).toEqual(["new", "model", "compact", "ask", "agent"]);
      const byName = Object.fromEntries(commands.map((c) => [c.name, c]));
      expect(byName.review).toMatchObject({ source: "workspace", description: "Review a file", template: "Review $ARGUMENTS carefully." });
      expect(byName.test).toMatchObject({ description: "Write tests" });
      expect(byName.mine).toMatchObject({ source: "user", description: "My command" });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
