/** Where the plain-Node hosts (web mode, the headless `run`) keep their data: one database for both. */
import { homedir } from "node:os";
import { join } from "node:path";

export function defaultDataDir(env: Record<string, string | undefined> = process.env): string {
  if (env.AGENT_WORKBENCH_HOME) return env.AGENT_WORKBENCH_HOME;
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, "agent-workbench");
  return join(homedir(), ".local", "share", "agent-workbench");
}
