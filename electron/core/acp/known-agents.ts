/**
 * The ACP agents the "Agent:" picker offers, with how each is launched and
 * which of its own settings point it at a provider (docs/acp.md#known-agents).
 * A custom agent is a command line the user gives. Keys are never inherited:
 * `agentEnvironment` passes the host's allow-listed variables (tools/env.ts)
 * and only the key and base URL configured for that agent.
 */
import { childEnvironment } from "../tools/env";

export interface KnownAgent {
  id: string;
  label: string;
  command: string;
  args: readonly string[];
  /** The npm package that provides `command`. */
  npmPackage: string;
  /** Its own variables for an API key and a base URL (what its docs name). */
  keyVar: string;
  baseUrlVar: string;
}

export const KNOWN_AGENTS: readonly KnownAgent[] = [
  {
    id: "gemini",
    label: "Gemini CLI",
    command: "gemini",
    args: ["--acp"],
    npmPackage: "@google/gemini-cli",
    keyVar: "GEMINI_API_KEY",
    baseUrlVar: "GOOGLE_GEMINI_BASE_URL",
  },
  {
    id: "claude-code",
    label: "Claude Code",
    command: "claude-agent-acp",
    args: [],
    npmPackage: "@zed-industries/claude-agent-acp",
    keyVar: "ANTHROPIC_API_KEY",
    baseUrlVar: "ANTHROPIC_BASE_URL",
  },
  {
    id: "codex",
    label: "Codex",
    command: "codex-acp",
    args: [],
    npmPackage: "@zed-industries/codex-acp",
    keyVar: "OPENAI_API_KEY",
    baseUrlVar: "OPENAI_BASE_URL",
  },
  { id: "opencode", label: "opencode", command: "opencode", args: ["acp"], npmPackage: "opencode-ai", keyVar: "", baseUrlVar: "" },
];

export interface AgentCredentials {
  apiKey?: string;
  baseUrl?: string;
}

/**
 * The agent process's whole environment: the host's allow-listed variables with secrets stripped, plus this
 * agent's own key and base URL when configured for it. Another provider's key in the host environment stays out.
 */
export function agentEnvironment(
  hostEnv: Record<string, string | undefined>,
  agent: Pick<KnownAgent, "keyVar" | "baseUrlVar"> | null,
  credentials: AgentCredentials = {},
): Record<string, string> {
  const env = childEnvironment(hostEnv);
  // npm-installed agents are Node scripts: their runtime must be found.
  if (hostEnv.PATH) env.PATH = hostEnv.PATH;
  if (agent?.keyVar && credentials.apiKey) env[agent.keyVar] = credentials.apiKey;
  if (agent?.baseUrlVar && credentials.baseUrl) env[agent.baseUrlVar] = credentials.baseUrl;
  return env;
}
