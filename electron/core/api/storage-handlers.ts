/**
 * Settings → Storage: the damaged database files kept aside, and "Try to
 * recover" from one of them into the current database (store/salvage.ts).
 */
import type { RequestParams, RequestResult } from "../../../shared/api";
import type { CoreContext } from "./create-workbench";
import type { HandlerTable } from "./dispatch";
import { ApiFailure } from "./errors";
import { salvageSummary } from "./store-notices";

export type StorageMethod = "storage.keptFiles" | "storage.recover";

export function createStorageHandlers(ctx: CoreContext): Pick<HandlerTable, StorageMethod> {
  const { store } = ctx;
  return {
    "storage.keptFiles": (): RequestResult<"storage.keptFiles"> => store.keptFiles(),
    "storage.recover": (p: RequestParams<"storage.recover">): RequestResult<"storage.recover"> => {
      // Only a file the store itself kept: this reads no other path the caller names.
      if (!store.keptFiles().some((f) => f.path === p.path)) throw new ApiFailure("NOT_FOUND", `no kept database file ${p.path}`);
      const report = store.salvageFrom(p.path);
      for (const id of report.sessionIds) {
        const session = store.getSession(id);
        if (session) ctx.emit("session.updated", session);
      }
      return {
        sessions: report.sessions,
        entries: report.entries,
        missingEntries: report.missingEntries,
        alreadyPresent: report.alreadyPresent,
        summary: salvageSummary(report),
      };
    },
  };
}
