/**
 * The review requests of the WorkbenchApi (`review.*` in shared/api.ts).
 * Params arrive parsed by dispatch; failures are thrown as ApiFailure (or a
 * StoreError from the store), which dispatch turns into typed API errors.
 *
 * Wiring (create-workbench.ts): spread `createReviewHandlers({...})` into the
 * handler table next to `createHandlers(ctx)`.
 */
import type { z } from "zod";
import { requests, type RequestMethod, type RequestResult, type SessionSummary } from "../../../shared/api";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import type { ModelRef, StoredEntry } from "../../../shared/protocol";
import { IMPORT_LIMITS, type ImportLimits, type PromptSource } from "../../../shared/review";
import { NO_INSTRUCTIONS, type LoadedInstructions } from "../agent/instructions";
import { ApiFailure, requireSession as findSession } from "../api/errors";
import { isStoreError } from "../store";
import type { ToolSpec } from "../providers/types";
import { defaultToolSpecs } from "../tools";
import { loadImportedTimes } from "./import-times";
import { loadOrigin } from "../importers/origin";
import { exportSession } from "./export-session";
import { changeDiff, changesBetween } from "./changes";
import { fileStatesAt } from "./file-history";
import { forkAt } from "./fork";
import { modelViewAt, type ModelViewInput } from "./model-view";
import { promptSourcesBefore } from "./prompt-sources";
import { createEntryCache } from "./entry-cache";
import { createImportRequests } from "./import-requests";
import { createModelViewTexts } from "./model-view-text";
import { createRedactor } from "./redact";
import type { ReviewResult } from "./result";
import { sessionStats } from "./stats";
import type { ReviewStorePort } from "./store-port";
import { buildTimeline, modelLabel } from "./timeline";

export interface ReviewContext {
  store: ReviewStorePort;
  /** The session's workspace folder, as the loop put it in the system prompt (default: the workspace's stored path). */
  workspaceRoot?(sessionId: string): string;
  /** As the loop's AgentDeps.platform (os.platform()). */
  platform: string;
  /** The tool specs the loop offers (default: the tool runtime's `defaultToolSpecs()`); MCP tools included. */
  toolSpecs?(sessionId: string): readonly ToolSpec[];
  /** The loop's AGENTS.md section, Ask mode and tool tiers, for "what the model saw" (model-view.ts). */
  modelViewExtras?(sessionId: string): Pick<ModelViewInput, "modeAt" | "isSideEffect"> & {
    /** The instruction files for a request made after `before`, read now as the loop reads them (agent/instructions.ts). */
    instructions?: (before: readonly StoredEntry[]) => Promise<LoadedInstructions>;
    /** The templates and @-mentions recorded when the session's messages were stored. */
    recordedSources?: () => readonly PromptSource[];
  };
  /** The model and provider behind a stored model ref, also one the catalog no longer offers (ModelCatalog.forStoredRef). */
  resolveModel(ref: ModelRef): { model: ModelInfo; provider: ProviderConfig } | undefined;
  /** Whether a new session can run on `ref` today (a fork's model); default: `resolveModel` knows it. */
  usableModel?(ref: ModelRef): boolean;
  /** The setting that sends other models' reasoning as text (as the loop reads it). */
  demoteOtherReasoning?(): boolean;
  /** Exact secrets to remove from exports besides the patterns (the configured API keys). */
  knownSecrets?(): readonly string[];
  now?(): number;
  /** Smaller import limits than IMPORT_LIMITS (tests). */
  importLimits?: Partial<ImportLimits>;
  /** A session was created (import, fork): emit `session.updated` for the session list. */
  onSessionChanged?(session: SessionSummary): void;
}

export type ReviewMethod = Extract<RequestMethod, `review.${string}`>;
type Params<M extends ReviewMethod> = z.output<(typeof requests)[M]["params"]>;
/**
 * "What the model saw" reads the instruction files again, and the import requests answer once the file is
 * read in slices (import-requests.ts): asynchronous.
 */
type AsyncReviewMethod =
  "review.modelView" | "review.modelViewHead" | "review.modelViewText" | Extract<ReviewMethod, `review.import${string}`>;
export type ReviewHandlers = {
  [M in ReviewMethod]: (params: Params<M>) => M extends AsyncReviewMethod ? Promise<RequestResult<M>> : RequestResult<M>;
};

export function createReviewHandlers(ctx: ReviewContext): ReviewHandlers {
  const { store } = ctx;
  const now = () => (ctx.now ? ctx.now() : Date.now());

  const requireSession = (id: string): SessionSummary => findSession(store, id);
  const workspaceRoot = (session: SessionSummary): string => {
    if (ctx.workspaceRoot) return ctx.workspaceRoot(session.id);
    const ws = store.getWorkspace(session.workspaceId);
    if (!ws) throw new ApiFailure("NOT_FOUND", `no workspace for session ${session.id}`);
    return ws.path;
  };
  const redactor = () => createRedactor(ctx.knownSecrets?.() ?? []);
  const modelName = (ref: ModelRef) => ctx.resolveModel(ref)?.model.name;
  // "What the model saw" and the files at a step are asked for again at every step of a replay.
  const cache = createEntryCache((id, range) => store.loadEntries(id, range));
  const modelViewTexts = createModelViewTexts();
  // The replay step a fork was made at: the last step of the source session at or before the fork point.
  const forkSource = (sourceId: string, seq: number): { title: string; step: number } | undefined => {
    const source = store.getSession(sourceId);
    if (!source) return undefined;
    const items = buildTimeline(cache.entries(sourceId), store.listToolCalls(sourceId), { modelName });
    let step = 0;
    for (const item of items) if (item.seq <= seq) step = item.index + 1;
    return step > 0 ? { title: source.title, step } : undefined;
  };
  // A record that no longer reads (a damaged page) leaves the step rebuilt, as a session stored before recording.
  const recordedRequest = (sessionId: string, seq: number): string | undefined => {
    try {
      return store.loadRequest?.(sessionId, seq);
    } catch (e) {
      if (isStoreError(e) && e.code === "DAMAGED") return undefined;
      throw e;
    }
  };
  const modelView = async (sessionId: string, seq: number) => {
    const session = requireSession(sessionId);
    const entries = cache.entries(session.id);
    const { instructions: loadInstructions, recordedSources, ...extras } = ctx.modelViewExtras?.(session.id) ?? {};
    const index = entries.findIndex((e) => e.seq === seq);
    // Read before the (synchronous) rebuild; a bad seq is reported by modelViewAt.
    const instructions = loadInstructions && index >= 0 ? await loadInstructions(entries.slice(0, index)) : NO_INSTRUCTIONS;
    return unwrap(
      modelViewAt(entries, seq, {
        sessionId: session.id,
        workspaceRoot: workspaceRoot(session),
        platform: ctx.platform,
        toolSpecs: ctx.toolSpecs?.(session.id) ?? defaultToolSpecs(),
        resolve: (ref) => ctx.resolveModel(ref),
        recorded: (at) => recordedRequest(session.id, at),
        ...extras,
        instructions: () => instructions.text,
        sources: (before) => promptSourcesBefore(before, { instructions, recorded: recordedSources?.() ?? [] }),
        demoteOtherReasoning: ctx.demoteOtherReasoning?.() ?? false,
      }),
    );
  };

  const imports = createImportRequests({
    store,
    limits: { ...IMPORT_LIMITS, ...ctx.importLimits },
    now,
    onSessionChanged: (s) => ctx.onSessionChanged?.(s),
  });

  return {
    ...imports,
    "review.timeline": (p) => {
      const session = requireSession(p.sessionId);
      const { entries, problems } = store.loadEntriesChecked(p.sessionId);
      cache.remember(p.sessionId, entries);
      // A fork's source is looked up once, for its fork item and for the header.
      const sources = new Map<string, ReturnType<typeof forkSource>>();
      const source = (id: string, seq: number) => {
        const key = `${id}#${seq}`;
        if (!sources.has(key)) sources.set(key, forkSource(id, seq));
        return sources.get(key);
      };
      const items = buildTimeline(entries, store.listToolCalls(p.sessionId), { modelName, forkSource: source });
      const origin = loadOrigin(store, p.sessionId);
      const forked = session.parentSessionId && session.parentSeq !== null ? source(session.parentSessionId, session.parentSeq) : undefined;
      return {
        items,
        stats: sessionStats(entries, items),
        problems,
        forkedFromStep: forked?.step ?? null,
        imported: loadImportedTimes(store, p.sessionId) !== null,
        ...(origin ? { origin } : {}),
      };
    },

    "review.modelView": (p) => modelView(p.sessionId, p.seq),
    "review.modelViewHead": (p) => modelViewTexts.head(p.sessionId, p.seq, () => modelView(p.sessionId, p.seq), p.lines),
    "review.modelViewText": async (p) => {
      requireSession(p.sessionId);
      return modelViewTexts.text(p.sessionId, p.seq, () => modelView(p.sessionId, p.seq), p.from, p.count);
    },

    "review.forkOrigin": (p) => forkSource(p.sourceSessionId, p.sourceSeq) ?? null,

    "review.fileStates": (p) => {
      requireSession(p.sessionId);
      return fileStatesAt(cache.entries(p.sessionId), p.seq);
    },

    "review.changes": (p) => {
      requireSession(p.sessionId);
      const entries = store.loadEntries(p.sessionId);
      const last = entries.length > 0 ? entries[entries.length - 1].seq : 0;
      return changesBetween(entries, p.fromSeq, p.toSeq ?? last);
    },
    "review.changeDiff": (p) => {
      requireSession(p.sessionId);
      const entries = store.loadEntries(p.sessionId);
      const last = entries.length > 0 ? entries[entries.length - 1].seq : 0;
      const diff = changeDiff(entries, p.fromSeq, p.toSeq ?? last, p.path);
      if (!diff) throw new ApiFailure("NOT_FOUND", `${p.path} did not change in that range`);
      return diff;
    },

    "review.notes.list": (p) => {
      requireSession(p.sessionId);
      return store
        .listNotes(p.sessionId)
        .filter(
          (n) =>
            (p.verdict === undefined || (p.verdict === "none" ? n.verdict === null : n.verdict === p.verdict)) &&
            (p.author === undefined || n.author === p.author) &&
            (p.seq === undefined || n.seq === p.seq),
        );
    },
    "review.notes.add": (p) => {
      requireSession(p.sessionId);
      if ((p.path === undefined) !== (p.line === undefined))
        throw new ApiFailure("INVALID_REQUEST", "a line comment needs both path and line");
      return store.addNote({
        sessionId: p.sessionId,
        seq: p.seq,
        author: p.author,
        verdict: p.verdict,
        text: p.text,
        path: p.path ?? null,
        line: p.line ?? null,
      });
    },
    "review.notes.delete": (p) => {
      requireSession(p.sessionId);
      if (!store.listNotes(p.sessionId).some((n) => n.id === p.noteId)) {
        throw new ApiFailure("NOT_FOUND", `no note ${p.noteId} in session ${p.sessionId}`);
      }
      store.deleteNote(p.noteId);
      return { ok: true as const };
    },

    "review.export": (p) => unwrap(exportSession(store, p.sessionId, p.format, redactor(), modelName, forkSource)),

    "review.fork": (p) => {
      requireSession(p.sessionId);
      const usable = ctx.usableModel ? ctx.usableModel(p.model) : ctx.resolveModel(p.model) !== undefined;
      if (!usable) throw new ApiFailure("NOT_FOUND", `unknown model ${modelLabel(p.model)}`);
      const fork = unwrap(forkAt(store, p.sessionId, p.atSeq, p.model, now));
      ctx.onSessionChanged?.(fork);
      return fork;
    },
  };
}

function unwrap<T>(result: ReviewResult<T>): T {
  if (result.ok) return result.value;
  throw new ApiFailure(result.error.code, result.error.message);
}

/** The review methods' schemas, for callers that validate results (tests, clients). */
export const reviewRequests = Object.fromEntries(Object.entries(requests).filter(([m]) => m.startsWith("review."))) as {
  [M in ReviewMethod]: (typeof requests)[M];
};
