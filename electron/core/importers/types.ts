/**
 * What every importer produces: one foreign session as our neutral entries,
 * with what the foreign format could not give us said in words (shown in the
 * imported session's header) and its sub-agent transcripts as children.
 */
import type { SessionEntry } from "../../../shared/protocol";

import { FOREIGN_AGENTS, FOREIGN_AGENT_LABELS, type ForeignAgent } from "../../../shared/foreign-agents";

export const AGENTS = FOREIGN_AGENTS;
export type AgentKind = ForeignAgent;
export const AGENT_LABELS = FOREIGN_AGENT_LABELS;

export interface ForeignSession {
  agent: AgentKind;
  /** The agent's own session id (Claude Code's sessionId, a Codex rollout's id). */
  foreignId: string;
  title: string;
  /** The working directory the agent recorded, when it did. */
  cwd: string | null;
  entries: SessionEntry[];
  /** Plain sentences: what the file held that our entries cannot, or what it did not record. */
  notHeld: string[];
  /** Sub-agent transcripts, each its own session, linked to the parent's origin record. */
  children: ForeignSession[];
}

/** A file that cannot be imported: the reason names the line and the field. */
export class ForeignImportError extends Error {
  constructor(
    readonly code: "IMPORT_INVALID" | "IMPORT_TOO_LARGE" | "NOT_FOUND" | "STORAGE" | "INTERNAL",
    message: string,
  ) {
    super(message);
    this.name = "ForeignImportError";
  }
}

/** Bounds every importer applies to what it reads (a foreign file is untrusted). */
export const FOREIGN_LIMITS = {
  /** Bytes of one session file (zstd: after decompression). */
  fileBytes: 256 * 1024 * 1024,
  /** Characters of one JSONL line. */
  lineChars: 64 * 1024 * 1024,
  /** Sub-agent transcripts per session. */
  children: 500,
};
