/**
 * MCP tools as the runtime's tool definitions: a namespaced name
 * (`mcp__<server>__<tool>`; the request builders map it to each wire's
 * character rules), the server's JSON Schema checked for what every provider
 * can express, and results mapped to our content blocks (text, images) with
 * `structuredContent` in `details`.
 *
 * Tier: every MCP tool is a side effect, whatever its annotations say:
 * `readOnlyHint` is the server's own claim (MCP calls annotations hints, not
 * guarantees), so it is shown on the approval card but never skips it. Each
 * call goes through proposal → approval like write/edit/bash; the user may
 * then allow the tool for the session or always in this workspace
 * (docs/mcp-trust.md#approving-mcp-tools).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ImageContent, TextContent } from "../../../shared/protocol";
import { failure, toolError } from "../tools/errors";
import { KB, OUTPUT_MAX_BYTES } from "../tools/limits";
import type { SideEffectDef, ToolDef } from "../tools/registry";
import { truncateHead } from "../tools/truncate";
import type { ToolOutcome, ToolSpec } from "../tools/types";
import type { McpCallResult } from "./server-connection";

export const MCP_TOOL_PREFIX = "mcp__";

export function mcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${tool}`;
}

export interface McpToolSource {
  server: string;
  tools: readonly Tool[];
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult>;
}

export interface McpToolSet {
  defs: ToolDef[];
  specs: ToolSpec[];
  /** Tools left out, with the reason (shown in Settings). */
  skipped: string[];
}

const ArgsSchema = z.record(z.string(), z.unknown());

/**
 * The schema providers get, or why none of them can take it. Every API wants
 * an object at the root; Anthropic refuses `oneOf`/`allOf`/`anyOf` there
 * ("input_schema does not support oneOf, allOf, or anyOf at the top level"),
 * and no provider resolves a `$ref` outside the schema itself.
 */
export function providerSchemaFor(inputSchema: unknown): { ok: true; schema: Record<string, unknown> } | { ok: false; reason: string } {
  if (typeof inputSchema !== "object" || inputSchema === null || Array.isArray(inputSchema))
    return { ok: false, reason: "its input schema is not an object" };
  const schema = inputSchema as Record<string, unknown>;
  if (schema.type !== undefined && schema.type !== "object")
    return { ok: false, reason: `its input schema has type ${JSON.stringify(schema.type)}; providers need "object" at the root` };
  for (const key of ["oneOf", "allOf", "anyOf"]) {
    if (key in schema) return { ok: false, reason: `its input schema has ${key} at the top level, which Anthropic's API refuses` };
  }
  const external = findExternalRef(schema);
  if (external) return { ok: false, reason: `its input schema refers to ${external}, which no provider resolves` };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (k !== "$schema" && k !== "$id") out[k] = v;
  out.type = "object";
  if (out.properties === undefined) out.properties = {};
  return { ok: true, schema: out };
}

function findExternalRef(node: unknown): string | null {
  if (Array.isArray(node)) {
    for (const n of node) {
      const r = findExternalRef(n);
      if (r) return r;
    }
    return null;
  }
  if (typeof node !== "object" || node === null) return null;
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref" && typeof v === "string" && !v.startsWith("#")) return v;
    const r = findExternalRef(v);
    if (r) return r;
  }
  return null;
}

/** Our outcome for an MCP result: text and images for the model, structured content for the UI. */
export function outcomeOf(server: string, tool: string, called: McpCallResult): ToolOutcome {
  const baseDetails = { mcpServer: server, mcpTool: tool };
  if (!called.ok) {
    return failure(
      toolError(
        called.timedOut ? "TIMEOUT" : "SERVER_UNAVAILABLE",
        called.message,
        "The MCP server failed; carry on without this tool, or ask the user to restart the server in Settings.",
      ),
      baseDetails,
    );
  }
  const { result } = called;
  const content: (TextContent | ImageContent)[] = [];
  const texts: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case "text":
        texts.push(block.text);
        break;
      case "image":
        content.push({ type: "image", data: block.data, mimeType: block.mimeType });
        break;
      case "audio":
        texts.push(`[audio (${block.mimeType}) left out: the model cannot read it here]`);
        break;
      case "resource":
        texts.push("text" in block.resource ? block.resource.text : `[binary resource ${block.resource.uri} left out]`);
        break;
      case "resource_link":
        texts.push(`Resource: ${block.name} ${block.uri}`);
        break;
    }
  }
  const details: Record<string, unknown> = { ...baseDetails };
  if (result.structuredContent !== undefined) {
    details.structuredContent = result.structuredContent;
    if (texts.length === 0 && content.length === 0) texts.push(JSON.stringify(result.structuredContent));
  }
  const joined = texts.join("\n");
  const lines = joined.split("\n");
  const cut = truncateHead(lines, Number.MAX_SAFE_INTEGER, OUTPUT_MAX_BYTES);
  let text = cut.kept.join("\n");
  if (cut.truncated) {
    text += `\n\n[Output cut at ${KB(OUTPUT_MAX_BYTES)}: showing ${cut.kept.length} of ${lines.length} lines. Ask the tool for less (narrower arguments) to see the rest.]`;
    details.truncated = true;
  }
  if (result.isError === true) {
    return failure(
      toolError("TOOL_FAILED", text || `${tool} failed without a message`, "Read the error, fix the arguments or take another approach."),
      details,
    );
  }
  if (text !== "" || content.length === 0) content.unshift({ type: "text", text: text || "(no output)" });
  return { ok: true, content, details };
}

/** The runtime definitions for one server's tools. */
export function mcpToolSet(source: McpToolSource): McpToolSet {
  const defs: ToolDef[] = [];
  const specs: ToolSpec[] = [];
  const skipped: string[] = [];
  for (const tool of source.tools) {
    const name = mcpToolName(source.server, tool.name);
    const schema = providerSchemaFor(tool.inputSchema);
    if (!schema.ok) {
      skipped.push(`${tool.name}: ${schema.reason}`);
      continue;
    }
    const description = `${tool.description?.trim() || tool.title || tool.name} (MCP server "${source.server}")`;
    const parse = (raw: unknown) => {
      const parsed = ArgsSchema.safeParse(raw ?? {});
      return parsed.success
        ? { ok: true as const, value: parsed.data }
        : {
            ok: false as const,
            error: toolError(
              "INVALID_ARGUMENTS",
              `The ${name} tool takes a JSON object as arguments.`,
              "Call it again with an object matching its schema.",
            ),
          };
    };
    const call = async (args: Record<string, unknown>, signal: AbortSignal) =>
      outcomeOf(source.server, tool.name, await source.call(tool.name, args, signal));
    const readOnlyHint = tool.annotations?.readOnlyHint === true;
    const def: SideEffectDef = {
      name,
      description,
      schema: z.unknown(),
      parse,
      tier: "sideEffect",
      propose: (args) =>
        Promise.resolve({
          ok: true as const,
          value: {
            preview: {
              kind: "mcp" as const,
              server: source.server,
              tool: tool.name,
              argsJson: JSON.stringify(args, null, 2),
              readOnlyHint,
            },
          },
        }),
      execute: (args, ctx) => call(args, ctx.signal),
    };
    defs.push(def);
    specs.push({ name, description, parameters: schema.schema });
  }
  return { defs, specs, skipped };
}
