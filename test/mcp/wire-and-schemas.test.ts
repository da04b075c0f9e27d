/** MCP tool names and schemas at the wire: every target's strict validator accepts them, or the tool is refused with a reason. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseMcpConfig, expandEnv } from "../../electron/core/mcp/config";
import { providerSchemaFor } from "../../electron/core/mcp/tool-defs";
import { validateRequest } from "../../electron/core/providers/validate";
import { runWire } from "../../scripts/wire";
import { expandTemplate, parseAttachedFile, attachedFileBlock, mentionAtCaret, parseMentionToken } from "../../shared/mentions";

const TOOL = "search.files/v2";
const APP_NAME = `mcp__docs.site/api__${TOOL}`;
const TOOLS_FILE = {
  server: "docs.site/api",
  tools: [
    {
      name: TOOL,
      description: "Search the docs",
      inputSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { q: { type: "string" } },
        required: ["q"],
      },
      annotations: { readOnlyHint: true },
    },
    { name: "pick", description: "Root anyOf", inputSchema: { anyOf: [{ type: "object" }, { type: "string" }] } },
  ],
};
const HISTORY = JSON.stringify([
  { role: "user", content: [{ type: "text", text: "search" }], timestamp: 1 },
  {
    role: "assistant",
    content: [{ type: "toolCall", id: "toolu_1", name: APP_NAME, arguments: { q: "mcp" } }],
    stopReason: "toolUse",
    model: { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" },
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    timestamp: 2,
  },
  {
    role: "toolResult",
    toolCallId: "toolu_1",
    toolName: APP_NAME,
    isError: false,
    content: [{ type: "text", text: "found" }],
    timestamp: 3,
  },
]);

describe("npm run wire -- --tools <MCP tool list>", () => {
  const targets = [
    ["anthropic/claude-sonnet-4-5", "anthropic-messages", {}],
    ["openai/gpt-4.1", "openai-completions", {}],
    ["openai/gpt-5", "openai-responses", {}],
    ["mistral/mistral-large-latest", "openai-completions", { mistral: true }],
  ] as const;
  for (const [target, api, ctx] of targets) {
    it(`${target}: a tool name with . and / passes the strict validator, mapped back by the tool-name map`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "awb-wire-"));
      try {
        const file = join(dir, "tools.json");
        writeFileSync(file, JSON.stringify(TOOLS_FILE));
        const out = await runWire(["--target", target, "--api", api, "--tools", file, "--id-map"], HISTORY);
        expect(out.code).toBe(0);
        expect(out.stderr).toContain("MCP tool left out: pick: its input schema has anyOf at the top level");
        const { body, toolNames } = JSON.parse(out.stdout) as { body: unknown; toolNames: Record<string, string> };
        expect(validateRequest(api, body, ctx)).toBeNull();
        const wire = Object.keys(toolNames).find((k) => toolNames[k] === APP_NAME);
        expect(wire).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
        expect(JSON.stringify(body)).not.toContain("$schema");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it("refuses a file that is not an MCP tool list", async () => {
    const dir = mkdtempSync(join(tmpdir(), "awb-wire-"));
    writeFileSync(join(dir, "t.json"), '{"tools": 3}');
    const out = await runWire(["--target", "openai/gpt-5", "--tools", join(dir, "t.json")], "[]");
    rmSync(dir, { recursive: true, force: true });
    expect(out).toMatchObject({ code: 2 });
    expect(out.stderr).toContain("not an MCP tool list");
  });
});

describe("MCP schemas and config", () => {
  it("refuses schemas no provider can express, with the reason", () => {
    const reason = (schema: unknown) => {
      const r = providerSchemaFor(schema);
      return r.ok ? null : r.reason;
    };
    expect(reason({ type: "array" })).toContain('"object" at the root');
    expect(reason({ oneOf: [] })).toContain("oneOf at the top level");
    expect(reason({ type: "object", properties: { a: { $ref: "https://x/y.json" } } })).toContain("https://x/y.json");
    expect(providerSchemaFor({})).toEqual({ ok: true, schema: { type: "object", properties: {} } });
  });

  it("reads .mcp.json servers (stdio and http), reports bad entries without losing the good ones", () => {
    const loaded = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          a: { command: "node", args: ["x.js"] },
          b: { type: "http", url: "https://example.test/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
          c: { args: [] },
        },
      }),
      "workspace",
      ".mcp.json",
    );
    expect(loaded.servers.map((s) => [s.name, s.config.transport])).toEqual([
      ["a", "stdio"],
      ["b", "http"],
    ]);
    expect(loaded.problems.join("\n")).toContain('server "c"');
    expect(parseMcpConfig("{oops", "user", "mcp.json").problems[0]).toContain("not valid JSON");
  });

  it("expands ${VAR} and ${VAR:-default} from the environment and names what is missing", () => {
    expect(expandEnv("Bearer ${TOKEN}", { TOKEN: "t0k" })).toEqual({ value: "Bearer t0k", missing: [] });
    expect(expandEnv("${A:-x}/${B}", {})).toEqual({ value: "x/", missing: ["B"] });
  });
});

describe("mention and template text forms", () => {
  it("parses mention tokens and the one at the caret", () => {
    expect(parseMentionToken("src/a.ts:10-40")).toEqual({ path: "src/a.ts", startLine: 10, endLine: 40 });
    expect(parseMentionToken("src/a.ts")).toEqual({ path: "src/a.ts" });
    expect(parseMentionToken("a.ts:9-3")).toBeNull();
    expect(mentionAtCaret("look at @src/a", 14)).toEqual({ start: 8, query: "src/a" });
    expect(mentionAtCaret("mail me@x", 9)).toBeNull();
  });

  it("round-trips an attached-file block", () => {
    const text = attachedFileBlock({ path: 'we"ird.ts', startLine: 2, endLine: 3 }, "b\nc");
    expect(parseAttachedFile(text)).toEqual({ path: 'we"ird.ts', startLine: 2, endLine: 3, body: "b\nc" });
    expect(parseAttachedFile("plain text")).toBeNull();
  });

  it("expands $ARGUMENTS and $1, or appends the arguments when the template has no placeholder", () => {
    expect(expandTemplate("Review $ARGUMENTS now", "src/a.ts")).toBe("Review src/a.ts now");
    expect(expandTemplate("Tests for $1 and $2", "a b")).toBe("Tests for a and b");
    expect(expandTemplate("Summarise", "the diff")).toBe("Summarise\n\nthe diff");
    expect(expandTemplate("Summarise", "")).toBe("Summarise");
  });
});
