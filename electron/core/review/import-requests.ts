/**
 * The import requests: `review.import` (the whole file in one request) and
 * the chunked `review.import.begin` / `.chunk` / `.finish` / `.cancel` the
 * renderer uses, so no request frame grows with the file (web mode's
 * WebSocket refuses frames past its limit by closing the connection; Electron
 * IPC copies a large payload in one go on both sides). Chunks of one import
 * are read in order, one at a time; an import left without a request for
 * IDLE_MS is discarded.
 */
import { randomUUID } from "node:crypto";
import type { SessionSummary } from "../../../shared/api";
import type { ImportLimits } from "../../../shared/review";
import { ApiFailure } from "../api/errors";
import { ImportJob, checkStart, importText } from "./import-job";
import type { ReviewStorePort } from "./store-port";

const MAX_OPEN_IMPORTS = 4;
export const IMPORT_IDLE_MS = 10 * 60 * 1000;

export interface ImportRequestsContext {
  store: ReviewStorePort;
  limits: ImportLimits;
  now(): number;
  onSessionChanged?(session: SessionSummary): void;
}

interface OpenImport {
  job: ImportJob;
  /** The index the next chunk must have. */
  next: number;
  /** The chunks and the finish, one after another. */
  queue: Promise<unknown>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export function createImportRequests(ctx: ImportRequestsContext) {
  const open = new Map<string, OpenImport>();
  const optionsFor = (workspaceId: string) => ({ store: ctx.store, workspaceId, limits: ctx.limits, now: ctx.now() });
  const published = (session: SessionSummary) => {
    ctx.onSessionChanged?.(session);
    return session;
  };
  const close = (importId: string): OpenImport | undefined => {
    const entry = open.get(importId);
    if (entry) clearTimeout(entry.timer);
    open.delete(importId);
    return entry;
  };
  const touch = (importId: string, entry: OpenImport) => {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void close(importId)?.job.abort(), IMPORT_IDLE_MS);
    entry.timer.unref?.();
  };
  const find = (importId: string): OpenImport => {
    const entry = open.get(importId);
    if (!entry) throw new ApiFailure("NOT_FOUND", `no import ${importId} in progress (it finished, failed, was cancelled or sat idle)`);
    return entry;
  };
  /** Runs `work` after the import's earlier requests; a failure ends the import (the job discarded what it staged). */
  const queued = <T>(importId: string, entry: OpenImport, work: () => Promise<T>): Promise<T> => {
    const run = entry.queue.then(work);
    entry.queue = run.catch(() => undefined);
    return run.catch((e: unknown) => {
      close(importId);
      throw e;
    });
  };

  return {
    "review.import": async (p: { workspaceId: string; content: string }) =>
      published(await importText(optionsFor(p.workspaceId), p.content)),

    "review.import.begin": (p: { workspaceId: string; bytes: number }) => {
      checkStart(optionsFor(p.workspaceId), p.bytes);
      if (open.size >= MAX_OPEN_IMPORTS) throw new ApiFailure("CONFLICT", `${MAX_OPEN_IMPORTS} imports are already in progress`);
      const importId = randomUUID();
      const entry: OpenImport = { job: new ImportJob(optionsFor(p.workspaceId)), next: 0, queue: Promise.resolve(), timer: undefined };
      open.set(importId, entry);
      touch(importId, entry);
      return Promise.resolve({ importId, chunkChars: ctx.limits.chunkChars });
    },

    "review.import.chunk": async (p: { importId: string; index: number; text: string }) => {
      const entry = find(p.importId);
      touch(p.importId, entry);
      const expected = entry.next++;
      return queued(p.importId, entry, async () => {
        if (p.index !== expected) {
          await entry.job.abort();
          throw new ApiFailure(
            "INVALID_REQUEST",
            `chunk ${p.index} arrived where chunk ${expected} was expected; the import was cancelled`,
          );
        }
        await entry.job.feed(p.text);
        return { receivedBytes: entry.job.receivedBytes };
      });
    },

    "review.import.finish": async (p: { importId: string }) => {
      const entry = find(p.importId);
      const session = await queued(p.importId, entry, () => entry.job.finish());
      close(p.importId);
      return published(session);
    },

    "review.import.cancel": async (p: { importId: string }) => {
      const entry = close(p.importId);
      if (entry) await entry.job.abort();
      return { ok: true as const };
    },
  };
}
