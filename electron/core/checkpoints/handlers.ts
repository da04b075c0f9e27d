/**
 * The checkpoint and rewind requests of the WorkbenchApi (`checkpoint.*`,
 * `rewind.*` in shared/api.ts). Params arrive parsed by dispatch; failures
 * are thrown as ApiFailure, which dispatch turns into typed API errors.
 */
import type { z } from "zod";
import { requests, type RequestResult, type SessionSummary } from "../../../shared/api";
import type { RewindPreview, RewindTarget } from "../../../shared/checkpoints";
import type { CheckpointMethod } from "../api/dispatch";
import { ApiFailure, requireSession as findSession } from "../api/errors";
import type { SessionStore } from "../store";
import { checkpointForStep, previewRestore, resolveTarget, restoreFiles, RewindConflict } from "./rewind";
import { forkConversation } from "./rewind-journal";
import { CheckpointService, CheckpointUnavailable } from "./service";

export interface CheckpointHandlerContext {
  store: SessionStore;
  service: CheckpointService;
  /** True while a turn runs (or waits for an approval) in a session of this workspace. */
  turnRunningIn(workspaceId: string): boolean;
  onSessionChanged(session: SessionSummary): void;
}

type Params<M extends CheckpointMethod> = z.output<(typeof requests)[M]["params"]>;
export type CheckpointHandlers = { [M in CheckpointMethod]: (params: Params<M>) => Promise<RequestResult<M>> | RequestResult<M> };

export function createCheckpointHandlers(ctx: CheckpointHandlerContext): CheckpointHandlers {
  const { store, service } = ctx;
  const requireSession = (id: string): SessionSummary => findSession(store, id);
  /** Turns the engine's typed failures into API errors. */
  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof RewindConflict) throw new ApiFailure("CONFLICT", err.message);
      if (err instanceof CheckpointUnavailable) throw new ApiFailure("NOT_FOUND", err.message);
      throw err;
    }
  };
  const forkSeqOf = (session: SessionSummary, target: RewindTarget): number | null =>
    "seq" in target ? Math.min(target.seq, session.entryCount) : null;

  return {
    "checkpoint.list": (p) => {
      requireSession(p.sessionId);
      return service.list(p.sessionId).map((c) => CheckpointService.toApi(c));
    },
    "checkpoint.diff": (p) => guard(() => service.diff(p.from, p.to)),
    "checkpoint.file": (p) =>
      guard(async () => {
        const file = await service.fileAt(p.checkpointId, p.path);
        if (!file) return null;
        const text = file.content.includes(0) ? null : new TextDecoder("utf-8", { fatal: false }).decode(file.content);
        const utf8 = text !== null && Buffer.from(text, "utf8").equals(file.content);
        return {
          mode: file.mode,
          encoding: utf8 ? ("utf8" as const) : ("base64" as const),
          content: utf8 && text !== null ? text : file.content.toString("base64"),
        };
      }),
    "checkpoint.status": (p) => {
      if (!store.getWorkspace(p.workspaceId)) throw new ApiFailure("NOT_FOUND", `no workspace ${p.workspaceId}`);
      return service.status(p.workspaceId);
    },

    "rewind.preview": (p) =>
      guard(async (): Promise<RewindPreview> => {
        const session = requireSession(p.sessionId);
        const forkAtSeq = forkSeqOf(session, p.target);
        const reason = await service.unavailableReason();
        const target = resolveTarget(service, p.sessionId, p.target);
        if (reason && !("checkpointId" in p.target))
          return { checkpoint: null, files: [], conflicts: 0, forkAtSeq, filesUnavailable: reason };
        if (!target) return { checkpoint: null, files: [], conflicts: 0, forkAtSeq, filesUnavailable: null };
        if (target.prunedAt !== null) {
          return {
            checkpoint: CheckpointService.toApi(target),
            files: [],
            conflicts: 0,
            forkAtSeq,
            filesUnavailable: "the checkpoint of that step was pruned to keep the store under its size cap",
          };
        }
        const plan = await previewRestore(service, p.sessionId, target);
        return {
          checkpoint: CheckpointService.toApi(target),
          files: plan.files,
          conflicts: plan.files.filter((f) => f.conflict).length,
          forkAtSeq,
          filesUnavailable: null,
        };
      }),

    "rewind.apply": (p) =>
      guard(async () => {
        const session = requireSession(p.sessionId);
        if (ctx.turnRunningIn(session.workspaceId)) {
          throw new ApiFailure("CONFLICT", "A turn is running in this workspace: stop it (or wait for it to finish) before rewinding.");
        }
        const forkAtSeq = forkSeqOf(session, p.target);
        if (p.mode !== "files" && forkAtSeq === null) {
          throw new ApiFailure("INVALID_REQUEST", "the conversation can only be rewound to a step, not to a checkpoint");
        }
        let restoredFiles: string[] = [];
        let undoCheckpointId: number | null = null;
        // Mode `both`: the fork is part of the journaled rewind, so a rewind killed half-way is finished whole.
        const fork = p.mode !== "files" && forkAtSeq !== null ? { seq: forkAtSeq, title: `${session.title} (rewound)` } : null;
        let forked: SessionSummary | null = null;
        if (p.mode !== "conversation") {
          const reason = await service.unavailableReason();
          const target = resolveTarget(service, p.sessionId, p.target);
          if (reason && target) throw new ApiFailure("UNSUPPORTED", `files cannot be restored: ${reason}`);
          if (target) {
            const outcome = await restoreFiles(service, p.sessionId, target, {
              confirmConflicts: p.confirmConflicts ?? false,
              atSeq: session.entryCount,
              fork,
            });
            restoredFiles = outcome.files.map((f) => f.path);
            undoCheckpointId = outcome.files.length > 0 ? outcome.undo.id : null;
            forked = outcome.forked;
          }
        }
        let draft: string | null = null;
        if (fork) {
          forked ??= forkConversation(store, p.sessionId, fork.seq, fork.title);
          ctx.onSessionChanged(forked);
          const [next] = store.loadEntries(p.sessionId, { fromSeq: fork.seq + 1, toSeq: fork.seq + 1 });
          if (next?.entry.type === "message" && next.entry.message.role === "user") {
            draft = next.entry.message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
          }
        }
        return { restoredFiles, undoCheckpointId, forked, draft };
      }),
  };
}

export { checkpointForStep };
