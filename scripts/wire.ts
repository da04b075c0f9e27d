/**
 * `npm run wire -- --target <provider>/<model> [--api <api>] [--tools default|<file.json>]
 *   [--tool-choice auto|none|required|<name>] [--reasoning off|low|medium|high]
 *   [--system <text>] [--id-map] < history.json`
 *
 * `--tools <file.json>`: the app's tools plus an MCP tool list, as a server
 * answers `tools/list` (`{ "server": "name", "tools": [...] }`, or
 * `{ "tools": [...] }` for a server called "mcp"), named and checked as the
 * app offers them (mcp__<server>__<tool>); a tool whose schema no provider
 * can take is reported on stderr and left out.
 *
 * Reads a JSON array of stored messages on stdin and prints the exact request
 * body the adapter would send for it (the boundary transform applied), as JSON.
 * With `--id-map`, prints `{ body, idMap, toolNames }` instead.
 * Exit codes: 0 ok, 2 bad arguments or bad input.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { ApiSchema, MessageSchema } from "../shared/protocol";
import { findModel, findProvider } from "../electron/core/providers/registry";
import { buildRequest } from "../electron/core/providers/requests";
import type { ToolChoice, ToolSpec } from "../electron/core/providers/types";
import { defaultToolSpecs } from "../electron/core/tools";
import { mcpToolSet } from "../electron/core/mcp/tool-defs";

export interface WireOutcome {
  code: 0 | 2;
  stdout: string;
  stderr: string;
}

const USAGE =
  "usage: npm run wire -- --target <provider>/<model> [--api <api>] [--tools default|<mcp-tools.json>] [--tool-choice <choice>] [--reasoning <level>] [--system <text>] [--id-map] < history.json";

const McpToolListSchema = z.object({
  server: z.string().min(1).default("mcp"),
  tools: z.array(
    z
      .object({
        name: z.string().min(1),
        description: z.string().optional(),
        inputSchema: z.unknown(),
        annotations: z.object({ readOnlyHint: z.boolean().optional() }).loose().optional(),
      })
      .loose(),
  ),
});

/** The app's tools plus the MCP tools of a `tools/list` answer in `file`, named and checked as the app offers them. */
export function loadMcpToolSpecs(file: string): { specs: ToolSpec[]; skipped: string[] } | string {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return `--tools ${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
  const parsed = McpToolListSchema.safeParse(json);
  if (!parsed.success) return `--tools ${file}: not an MCP tool list:\n${z.prettifyError(parsed.error)}`;
  const set = mcpToolSet({
    server: parsed.data.server,
    tools: parsed.data.tools as Parameters<typeof mcpToolSet>[0]["tools"],
    call: () => Promise.reject(new Error("wire does not call tools")),
  });
  return { specs: [...defaultToolSpecs(), ...set.specs], skipped: set.skipped };
}

/** The app's own tool specs, as the agent loop offers them. */
export function loadDefaultToolSpecs(): Promise<{ specs: ToolSpec[]; source: "tools" }> {
  return Promise.resolve({ specs: defaultToolSpecs(), source: "tools" });
}

function fail(message: string): WireOutcome {
  return { code: 2, stdout: "", stderr: `wire: ${message}\n${USAGE}\n` };
}

function parseArgs(argv: readonly string[]): Map<string, string | true> | string {
  const flags = new Map<string, string | true>();
  const valued = new Set(["--target", "--api", "--tools", "--tool-choice", "--reasoning", "--system"]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--id-map") flags.set(arg, true);
    else if (valued.has(arg)) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("--")) return `${arg} needs a value`;
      flags.set(arg, value);
      i++;
    } else return `unknown argument "${arg}"`;
  }
  return flags;
}

export async function runWire(argv: readonly string[], stdin: string): Promise<WireOutcome> {
  const flags = parseArgs(argv);
  if (typeof flags === "string") return fail(flags);
  const target = flags.get("--target");
  if (typeof target !== "string") return fail("--target <provider>/<model> is required");
  const apiFlag = flags.get("--api");
  const api = apiFlag === undefined ? undefined : ApiSchema.safeParse(apiFlag);
  if (api !== undefined && !api.success) return fail(`--api must be one of ${ApiSchema.options.join(", ")}`);
  const model = findModel(target, api?.data);
  if (!model)
    return fail(`unknown model "${target}"${api ? ` on ${api.data}` : ""} (see the registry: electron/core/providers/registry-data.ts)`);
  const provider = findProvider(model.provider);
  if (!provider) return fail(`unknown provider "${model.provider}"`);

  const toolsFlag = flags.get("--tools");
  let tools: ToolSpec[] | undefined;
  let warnings = "";
  if (toolsFlag === "default") tools = (await loadDefaultToolSpecs()).specs;
  else if (typeof toolsFlag === "string") {
    const loaded = loadMcpToolSpecs(toolsFlag);
    if (typeof loaded === "string") return fail(loaded);
    tools = loaded.specs;
    warnings = loaded.skipped.map((s) => `wire: MCP tool left out: ${s}\n`).join("");
  }
  const choiceFlag = flags.get("--tool-choice");
  let toolChoice: ToolChoice | undefined;
  if (typeof choiceFlag === "string")
    toolChoice = ["auto", "none", "required"].includes(choiceFlag) ? (choiceFlag as ToolChoice) : { name: choiceFlag };
  const reasoningFlag = flags.get("--reasoning");
  const reasoning = reasoningFlag === undefined ? undefined : z.enum(["off", "low", "medium", "high"]).safeParse(reasoningFlag);
  if (reasoning !== undefined && !reasoning.success) return fail("--reasoning must be off, low, medium or high");
  const system = flags.get("--system");

  let json: unknown;
  try {
    json = JSON.parse(stdin);
  } catch (error) {
    return fail(`standard input is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const history = z.array(MessageSchema).safeParse(json);
  if (!history.success) return fail(`standard input is not an array of stored messages:\n${z.prettifyError(history.error)}`);

  const built = buildRequest(
    model,
    provider,
    { systemPrompt: typeof system === "string" ? system : "", messages: history.data, tools, toolChoice },
    { reasoning: reasoning?.data },
  );
  const output = flags.has("--id-map")
    ? { body: built.body, idMap: Object.fromEntries(built.idMap), toolNames: { ...built.toolNames } }
    : built.body;
  return { code: 0, stdout: `${JSON.stringify(output, null, 2)}\n`, stderr: warnings };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outcome = await runWire(process.argv.slice(2), await readStdin());
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  process.exitCode = outcome.code;
}
