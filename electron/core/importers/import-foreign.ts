/**
 * Imports one foreign session file (and its sub-agent transcripts) as new
 * sessions: parsed by the agent's importer, written through the export
 * import's staged path (each session all or nothing), labelled with its
 * origin. A failure deletes what this import had already published, so a
 * rejected file leaves the store as it was.
 */
import type { SessionSummary } from "../../../shared/api";
import { importEnvelope } from "../review/export-json";
import type { ReviewStorePort } from "../review/store-port";
import { importClaudeCode } from "./claude-code";
import { toEnvelope } from "./envelope";
import { rememberImport, saveOrigin } from "./origin";
import { claudeSubagentFiles, insideRoot, readForeignText } from "./read-file";
import { ForeignImportError, type AgentKind, type ForeignSession } from "./types";
import { importCodex } from "./codex";
import { importPi } from "./pi";
import { decodeText } from "./decode";

export interface ForeignImportResult {
  session: SessionSummary;
  children: SessionSummary[];
  notHeld: string[];
}

export async function parseForeignFile(agent: AgentKind, path: string): Promise<ForeignSession> {
  if (agent === "claude-code") {
    const text = decodeText(await readForeignText(path), path);
    const subs = [];
    for (const sub of await claudeSubagentFiles(path)) subs.push({ path: sub, text: decodeText(await readForeignText(sub), sub) });
    return importClaudeCode({ path, text }, subs);
  }
  if (agent === "pi") return importPi(path, decodeText(await readForeignText(path), path));
  return importCodex(path, decodeText(await readForeignText(path), path));
}

export async function importForeignFile(
  store: ReviewStorePort,
  workspaceId: string,
  request: { agent: AgentKind; path: string; root: string },
  now = Date.now(),
): Promise<ForeignImportResult> {
  const real = await insideRoot(request.root, request.path);
  const foreign = await parseForeignFile(request.agent, real);
  const published: string[] = [];
  try {
    const main = await publish(store, workspaceId, foreign, now);
    published.push(main.id);
    const children: SessionSummary[] = [];
    for (const child of foreign.children) {
      const c = await publish(store, workspaceId, child, now);
      published.push(c.id);
      children.push(c);
      saveOrigin(store, c.id, {
        agent: child.agent,
        foreignId: child.foreignId,
        path: real,
        importedAt: now,
        notHeld: child.notHeld,
        parentSessionId: main.id,
        children: [],
      });
    }
    saveOrigin(store, main.id, {
      agent: foreign.agent,
      foreignId: foreign.foreignId,
      path: real,
      importedAt: now,
      notHeld: foreign.notHeld,
      parentSessionId: null,
      children: children.map((c) => c.id),
    });
    rememberImport(store, request.path, main.id);
    return { session: main, children, notHeld: foreign.notHeld };
  } catch (e) {
    for (const id of published) store.deleteSession(id);
    throw e;
  }
}

async function publish(store: ReviewStorePort, workspaceId: string, session: ForeignSession, now: number): Promise<SessionSummary> {
  const result = await importEnvelope(store, workspaceId, toEnvelope(session), now);
  if (!result.ok)
    throw new ForeignImportError(
      result.error.code === "IMPORT_TOO_LARGE" || result.error.code === "STORAGE" || result.error.code === "INTERNAL"
        ? result.error.code
        : "IMPORT_INVALID",
      result.error.message,
    );
  return result.value;
}
