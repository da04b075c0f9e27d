/**
 * One import, fed its file in chunks: read (envelope-reader.ts), checked
 * (import-items.ts) and written in slices that each take a few milliseconds
 * and end by yielding to the event loop, so the core answers other requests
 * during an import of any size. The slices go into a staged session that
 * nothing lists, searches or opens; `finish` publishes it in one
 * transaction, with its imported times (import-times.ts). A failure or
 * `abort` discards what was staged, so a rejected import changes nothing
 * anyone can see, and a process killed mid-import leaves only a staged
 * session, discarded at the next start (store/staged-imports.ts).
 *
 * New ids: entries are renumbered 1..n when the export had gaps, notes follow
 * their entries (a note on an entry that was unreadable at export time is
 * dropped), audit rows get new ids.
 */
import type { SessionSummary } from "../../../shared/api";
import type { SessionEntry } from "../../../shared/protocol";
import type { ImportLimits, SessionExport } from "../../../shared/review";
import { ApiFailure, toApiError } from "../api/dispatch";
import type { ToolCallInput } from "../store";
import { EnvelopeReader, ReadError } from "./envelope-reader";
import { ItemChecker, invalid } from "./import-items";
import { saveImportedTimes, type ImportedTimes } from "./import-times";
import type { ReviewStorePort } from "./store-port";

/** Characters read per slice: the reading, checking and writing of one slice take a few milliseconds. */
const SLICE_CHARS = 64 * 1024;
/** Rows written per transaction at most. */
const SLICE_ROWS = 256;
const PLACEHOLDER_TITLE = "Imported session";

export interface ImportJobOptions {
  store: ReviewStorePort;
  workspaceId: string;
  limits: ImportLimits;
  /** The importing machine's clock: the latest time an entry may carry (import-rules.ts). */
  now: number;
}

export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class ImportJob {
  private readonly reader: EnvelopeReader;
  private readonly checker: ItemChecker;
  private bytes = 0;
  private sessionId: string | null = null;
  /** Exported seq -> stored seq. */
  private readonly seqs = new Map<number, number>();
  private entries: Array<{ seq: number; entry: SessionEntry }> = [];
  private toolCalls: SessionExport["toolCalls"] = [];
  /** Kept until the end: they name entries by exported seq, which may come after them in the file. */
  private readonly notes: SessionExport["notes"] = [];
  private readonly times: ImportedTimes = { notes: {}, toolCalls: {} };
  private state: "open" | "busy" | "failed" | "done" = "open";

  constructor(private readonly options: ImportJobOptions) {
    this.reader = new EnvelopeReader({ itemChars: options.limits.itemChars, depth: options.limits.depth });
    this.checker = new ItemChecker(options.limits, options.now);
  }

  get receivedBytes(): number {
    return this.bytes;
  }

  /** Reads the next part of the file (cut anywhere). Throws ApiFailure; after a failure nothing is left staged. */
  async feed(text: string): Promise<void> {
    await this.run(async () => {
      this.bytes += Buffer.byteLength(text, "utf8");
      if (this.bytes > this.options.limits.bytes) throw tooLarge(this.options.limits.bytes);
      for (let at = 0; at < text.length; at += SLICE_CHARS) {
        for (const item of this.reader.feed(text.slice(at, at + SLICE_CHARS))) {
          const checked = this.checker.take(item);
          if (checked?.kind === "entry") this.entries.push(checked);
          else if (checked?.kind === "toolCall") this.toolCalls.push(checked.call);
          else if (checked?.kind === "note") this.notes.push(checked.note);
          if (this.entries.length + this.toolCalls.length >= SLICE_ROWS) this.stagePending();
        }
        this.stagePending();
        await nextTurn();
      }
    });
  }

  /** Writes what is left and makes the session visible in one transaction. */
  async finish(): Promise<SessionSummary> {
    return this.run(async () => {
      this.reader.end();
      const session = this.checker.finish();
      this.stagePending();
      const id = this.stagedId(session);
      for (let at = 0; at < this.notes.length; at += SLICE_ROWS) {
        const slice = this.notes.slice(at, at + SLICE_ROWS).flatMap((n) => {
          const seq = this.seqs.get(n.seq);
          return seq === undefined ? [] : [{ n, seq }];
        });
        const { noteIds } = this.options.store.imports.stage(id, {
          notes: slice.map(({ n, seq }) => ({
            seq,
            author: n.author,
            verdict: n.verdict,
            text: n.text,
            path: n.path ?? null,
            line: n.line ?? null,
          })),
        });
        noteIds.forEach((noteId, i) => (this.times.notes[String(noteId)] = slice[i].n.createdAt));
        await nextTurn();
      }
      const store = this.options.store;
      const summary = store.imports.publish(id, { title: session.title, model: session.model }, () =>
        saveImportedTimes(store, id, this.times),
      );
      this.state = "done";
      return summary;
    });
  }

  /** Drops what was staged (a cancelled import). */
  async abort(): Promise<void> {
    if (this.state === "done" || this.state === "failed") return;
    this.state = "failed";
    await this.discard();
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.state === "busy") throw new ApiFailure("CONFLICT", "the import is still reading the previous chunk");
    if (this.state !== "open") throw new ApiFailure("CONFLICT", `the import has ${this.state === "done" ? "finished" : "failed"}`);
    this.state = "busy";
    try {
      const result = await work();
      if (this.state === "busy") this.state = "open";
      return result;
    } catch (e) {
      this.state = "failed";
      await this.discard();
      throw asFailure(e);
    }
  }

  private async discard(): Promise<void> {
    const id = this.sessionId;
    this.sessionId = null;
    if (id !== null) await this.options.store.imports.discard(id);
  }

  /** Writes the entries and audit rows read so far, in one transaction. */
  private stagePending(): void {
    if (this.entries.length === 0 && this.toolCalls.length === 0) return;
    const entries = this.entries;
    const calls = this.toolCalls;
    this.entries = [];
    this.toolCalls = [];
    const { seqs, toolCallIds } = this.options.store.imports.stage(this.stagedId(this.checker.session), {
      entries: entries.map((e) => e.entry),
      toolCalls: calls.map(toolCallInput),
    });
    seqs.forEach((seq, i) => this.seqs.set(entries[i].seq, seq));
    toolCallIds.forEach((rowId, i) => (this.times.toolCalls[String(rowId)] = [calls[i].createdAt, calls[i].updatedAt]));
  }

  private stagedId(session: SessionExport["session"] | null): string {
    if (this.sessionId === null) {
      // The title and model may not be read yet (a file with its fields in another order): publish sets them.
      this.sessionId = this.options.store.imports.create({
        workspaceId: this.options.workspaceId,
        title: session?.title ?? PLACEHOLDER_TITLE,
        model: session?.model ?? null,
      });
    }
    return this.sessionId;
  }
}

function toolCallInput(r: SessionExport["toolCalls"][number]): Omit<ToolCallInput, "sessionId"> {
  return {
    toolCallId: r.toolCallId,
    toolName: r.toolName,
    args: r.args,
    status: r.status,
    durationMs: r.durationMs ?? undefined,
    errorCode: r.errorCode ?? undefined,
    outputBytes: r.outputBytes ?? undefined,
    approvalDecision: r.approvalDecision ?? undefined,
    decidedBy: r.decidedBy ?? undefined,
    decidedAt: r.decidedAt ?? undefined,
  };
}

export function tooLarge(bytes: number): ApiFailure {
  const size = bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
  return new ApiFailure("IMPORT_TOO_LARGE", `the file is larger than ${size} (the most an import takes)`);
}

function asFailure(e: unknown): ApiFailure {
  if (e instanceof ApiFailure) return e;
  if (e instanceof ReadError) return invalid(e.message);
  const { code, message } = toApiError(e);
  return new ApiFailure(code, message);
}

/**
 * Imports a whole export given as one string (`review.import`, tests): its
 * size is checked before anything is read, then it is fed in slices like a
 * chunked import.
 */
export async function importText(options: ImportJobOptions, content: string): Promise<SessionSummary> {
  checkStart(options, content);
  const job = new ImportJob(options);
  const step = options.limits.chunkChars;
  for (let at = 0; at < content.length; at += step) await job.feed(content.slice(at, at + step));
  return job.finish();
}

/** What is refused before anything is read: an unknown workspace, an empty file, one past the size limit (in bytes, or the text itself). */
export function checkStart(options: Pick<ImportJobOptions, "store" | "workspaceId" | "limits">, file: number | string): void {
  if (!options.store.getWorkspace(options.workspaceId)) throw new ApiFailure("NOT_FOUND", `no workspace ${options.workspaceId}`);
  const limit = options.limits.bytes;
  if (file === 0 || file === "") throw invalid("the file is empty");
  // A character takes 1 to 3 bytes (4 for a pair of 2): count them only when that decides (~1 ms per MB).
  const over =
    typeof file === "number" ? file > limit : file.length > limit || (file.length * 3 > limit && Buffer.byteLength(file, "utf8") > limit);
  if (over) throw tooLarge(limit);
}
