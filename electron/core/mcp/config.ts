/**
 * MCP server configuration: the de-facto `.mcp.json` format (`mcpServers`
 * object, as Claude Code, Cursor and others read it) at the workspace root,
 * and the same format in the user's config folder (`mcp.json`).
 *
 * Secrets stay out of SQLite: values may say `${VAR}` or `${VAR:-default}`,
 * expanded from the environment when a server starts, so header tokens live
 * in the environment (or the OS keychain feeding it), never in our database.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { PromptFileReader, promptText } from "../prompt-files/reader";

const StdioServerSchema = z
  .object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    disabled: z.boolean().optional(),
    /** Milliseconds a call may take (default MCP_CALL_TIMEOUT_MS). */
    timeout: z.number().int().positive().optional(),
  })
  .loose();

const HttpServerSchema = z
  .object({
    type: z.enum(["http", "streamable-http", "streamableHttp"]).optional(),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    disabled: z.boolean().optional(),
    timeout: z.number().int().positive().optional(),
  })
  .loose();

export type StdioServerConfig = z.infer<typeof StdioServerSchema> & { transport: "stdio" };
export type HttpServerConfig = z.infer<typeof HttpServerSchema> & { transport: "http" };
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export type McpConfigSource = "workspace" | "user";

export interface McpServerEntry {
  name: string;
  source: McpConfigSource;
  /** The file it came from. */
  file: string;
  config: McpServerConfig;
}

export interface McpConfigLoad {
  servers: McpServerEntry[];
  /** Problems found in the files, shown in Settings (a bad entry skips that server only). */
  problems: string[];
}

export const WORKSPACE_MCP_FILE = ".mcp.json";
export const USER_MCP_FILE = "mcp.json";

/** The user's config folder: AGENT_WORKBENCH_CONFIG_DIR, else $XDG_CONFIG_HOME/agent-workbench, else ~/.config/agent-workbench. */
export function userConfigDir(env: Record<string, string | undefined> = process.env): string {
  if (env.AGENT_WORKBENCH_CONFIG_DIR) return env.AGENT_WORKBENCH_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "agent-workbench");
}

/** Parses one file's text; `servers` keeps the valid entries. */
export function parseMcpConfig(text: string, source: McpConfigSource, file: string): McpConfigLoad {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { servers: [], problems: [`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  const root = z
    .object({ mcpServers: z.record(z.string(), z.unknown()).default({}) })
    .loose()
    .safeParse(json);
  if (!root.success) return { servers: [], problems: [`${file}: expected an object with "mcpServers"`] };
  const servers: McpServerEntry[] = [];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(root.data.mcpServers)) {
    if (!/^[\w.\-/ ]{1,64}$/.test(name)) {
      problems.push(`${file}: server name "${name}" must be 1-64 letters, digits, spaces or _ . - /`);
      continue;
    }
    const isHttp = typeof raw === "object" && raw !== null && "url" in raw;
    const parsed = isHttp ? HttpServerSchema.safeParse(raw) : StdioServerSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(`${file}: server "${name}": ${z.prettifyError(parsed.error).replace(/\n/g, " ")}`);
      continue;
    }
    const config = (isHttp ? { ...parsed.data, transport: "http" } : { ...parsed.data, transport: "stdio" }) as McpServerConfig;
    servers.push({ name, source, file, config });
  }
  return { servers, problems };
}

const MCP_CONFIG_MAX_BYTES = 1024 * 1024;

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The workspace's file comes with the repository: read with the tools' checks (a FIFO there must not hang the core). */
async function readWorkspaceConfig(workspaceRoot: string): Promise<string | null> {
  const reader = await PromptFileReader.open(workspaceRoot, "workspace");
  if (!reader) return null;
  const read = await reader.read(WORKSPACE_MCP_FILE, { maxBytes: MCP_CONFIG_MAX_BYTES, over: "refuse" });
  if (read.ok) return promptText(read.file);
  if (read.missing) return null;
  throw new Error(read.reason);
}

/** The user's servers, then the workspace's; a workspace server replaces a user one of the same name. */
export async function loadMcpConfig(workspaceRoot: string, configDir: string): Promise<McpConfigLoad> {
  const byName = new Map<string, McpServerEntry>();
  const problems: string[] = [];
  for (const [source, file] of [
    ["user", join(configDir, USER_MCP_FILE)],
    ["workspace", join(workspaceRoot, WORKSPACE_MCP_FILE)],
  ] as const) {
    let text: string | null;
    try {
      text = source === "workspace" ? await readWorkspaceConfig(workspaceRoot) : await readOptional(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(`${file}: cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`);
      continue;
    }
    if (text === null) continue;
    const loaded = parseMcpConfig(text, source, file);
    problems.push(...loaded.problems);
    for (const s of loaded.servers) byName.set(s.name, s);
  }
  return { servers: [...byName.values()], problems };
}

/** `${VAR}` and `${VAR:-default}` from `env`; a missing variable without a default is reported, not sent empty. */
export function expandEnv(value: string, env: Record<string, string | undefined>): { value: string; missing: string[] } {
  const missing: string[] = [];
  const out = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== "") return v;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return "";
  });
  return { value: out, missing };
}
