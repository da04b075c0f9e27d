/**
 * Where each agent keeps its sessions, and which session files are there.
 * Reads directory listings only (never a file's content), follows no
 * symbolic link, and stops at a bounded number of entries, so a hostile or
 * enormous folder cannot stall the core.
 */
import { lstat, readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { AGENTS, AGENT_LABELS, type AgentKind } from "./types";

export interface AgentRoot {
  agent: AgentKind;
  label: string;
  /** The folder looked in. */
  folder: string;
}

export interface FoundSession {
  agent: AgentKind;
  path: string;
  bytes: number;
  modifiedAt: number;
}

export interface AgentListing extends AgentRoot {
  exists: boolean;
  sessions: FoundSession[];
  /** More files than the listing keeps were there. */
  truncated: boolean;
}

const MAX_LISTED = 5_000;

/** The folders, as each agent's documentation places them (their own variables first). */
export function agentRoots(env: NodeJS.ProcessEnv = process.env, home = homedir()): AgentRoot[] {
  const folder: Record<AgentKind, string> = {
    "claude-code": join(env.CLAUDE_CONFIG_DIR || join(home, ".claude"), "projects"),
    codex: join(env.CODEX_HOME || join(home, ".codex"), "sessions"),
    pi: join(env.PI_CODING_AGENT_DIR || join(home, ".pi", "agent"), "sessions"),
  };
  return AGENTS.map((agent) => ({ agent, label: AGENT_LABELS[agent], folder: folder[agent] }));
}

export async function discover(roots: AgentRoot[]): Promise<AgentListing[]> {
  return Promise.all(roots.map(listRoot));
}

async function listRoot(root: AgentRoot): Promise<AgentListing> {
  const out: AgentListing = { ...root, exists: false, sessions: [], truncated: false };
  if (!(await isDir(root.folder))) return out;
  out.exists = true;
  // Claude Code: projects/<project>/<id>.jsonl. pi: sessions/--<cwd>--/<time>_<id>.jsonl. Codex: sessions/YYYY/MM/DD/rollout-*.jsonl[.zst].
  const depth = root.agent === "codex" ? 4 : 2;
  await walk(root.folder, depth, (name) => isSessionFile(root.agent, name), out);
  out.sessions.sort((a, b) => b.modifiedAt - a.modifiedAt);
  return out;
}

export function isSessionFile(agent: AgentKind, name: string): boolean {
  if (agent !== "codex") return name.endsWith(".jsonl");
  return name.startsWith("rollout-") && (name.endsWith(".jsonl") || name.endsWith(".jsonl.zst"));
}

async function walk(dir: string, depth: number, want: (name: string) => boolean, out: AgentListing): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names.sort()) {
    if (out.sessions.length >= MAX_LISTED) {
      out.truncated = true;
      return;
    }
    const path = join(dir, name);
    let st;
    try {
      st = await lstat(path);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory() && depth > 1) await walk(path, depth - 1, want, out);
    else if (st.isFile() && depth === 1 && want(name))
      out.sessions.push({ agent: out.agent, path, bytes: st.size, modifiedAt: st.mtimeMs });
  }
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}
