/**
 * The `importers.*` requests (shared/api.ts): discovery of other agents'
 * session folders and the import of one listed file. Failures are typed API
 * errors; nothing here writes outside the store.
 */
import type { RequestResult, SessionSummary } from "../../../shared/api";
import { ApiFailure } from "../api/dispatch";
import type { ReviewStorePort } from "../review/store-port";
import { discover, type AgentRoot } from "./discover";
import { importForeignFile } from "./import-foreign";
import { importedByPath, loadOrigin } from "./origin";
import { ForeignImportError, type AgentKind } from "./types";

export type ImporterMethod = "importers.discover" | "importers.import";

export interface ImporterContext {
  store: ReviewStorePort;
  roots(): AgentRoot[];
  now?(): number;
  onSessionChanged?(session: SessionSummary): void;
}

/** A summary with its origin badge, for the session list. */
export function withOrigin(store: Pick<ReviewStorePort, "getSetting">, session: SessionSummary): SessionSummary {
  const origin = loadOrigin(store, session.id);
  return origin ? { ...session, origin: origin.agent } : session;
}

export function createImporterHandlers(ctx: ImporterContext) {
  const { store } = ctx;
  return {
    "importers.discover": async (): Promise<RequestResult<"importers.discover">> => {
      const listings = await discover(ctx.roots());
      const imported = importedByPath(store);
      return {
        agents: listings.map((l) => ({
          ...l,
          sessions: l.sessions.map((s) => ({
            ...s,
            importedAs: (imported[s.path] ?? []).filter((id) => store.getSession(id) !== undefined),
          })),
        })),
      };
    },
    "importers.import": async (p: { workspaceId: string; agent: AgentKind; path: string }): Promise<RequestResult<"importers.import">> => {
      if (!store.getWorkspace(p.workspaceId)) throw new ApiFailure("NOT_FOUND", `no workspace ${p.workspaceId}`);
      const root = ctx.roots().find((r) => r.agent === p.agent);
      if (!root) throw new ApiFailure("NOT_FOUND", `no folder is known for ${p.agent}`);
      try {
        const r = await importForeignFile(
          store,
          p.workspaceId,
          { agent: p.agent, path: p.path, root: root.folder },
          ctx.now?.() ?? Date.now(),
        );
        const session = withOrigin(store, store.getSession(r.session.id) ?? r.session);
        const children = r.children.map((c) => withOrigin(store, store.getSession(c.id) ?? c));
        for (const s of [session, ...children]) ctx.onSessionChanged?.(s);
        return { session, children, notHeld: r.notHeld };
      } catch (e) {
        if (e instanceof ForeignImportError) throw new ApiFailure(e.code, e.message);
        throw e;
      }
    },
  };
}
