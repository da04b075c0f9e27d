/**
 * What an imported export may hold, beyond its shape (shared/review.ts):
 * the range of every number, time, id and name an entry, note or audit row
 * carries. The protocol schemas accept any number (a stored entry is never
 * rewritten); an import is a boundary, so a time of -1e20 or a negative cost
 * is refused here, with the entry and the field named, before anything is
 * visible. Nothing is clamped: a wrong time or count cannot be repaired
 * without guessing. Nesting and sizes are bounded while reading
 * (envelope-reader.ts).
 */
import { z } from "zod";
import type { ModelRef, SessionEntry } from "../../../shared/protocol";
import {
  ExportedEntrySchema,
  ExportedNoteSchema,
  ExportedToolCallSchema,
  SessionExportSchema,
  type SessionExport,
} from "../../../shared/review";

/** Times before this are refused (the app did not exist; a clock at 0 or a crafted value). */
export const EARLIEST_TIME = Date.UTC(2000, 0, 1);
/** How far past the importing machine's clock a time may lie (clocks differ a little). */
export const AHEAD_MS = 24 * 60 * 60 * 1000;
const MAX_TOKENS = 1e12;
const MAX_COST_USD = 1e6;
/** About 115 days. */
const MAX_DURATION_MS = 1e10;
const MAX_BYTES = 1e13;
const MAX_SEQ = 2 ** 32 - 1;
const MAX_ID_CHARS = 512;
const MAX_NAME_CHARS = 256;
const MAX_TITLE_CHARS = 1000;
/** As `review.notes.add` takes them. */
const MAX_AUTHOR_CHARS = 200;
const MAX_NOTE_CHARS = 100_000;
const MAX_PATH_CHARS = 4096;
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

interface Rule {
  schema: z.ZodType;
  /** What is wrong, after the field's name. */
  says(value: unknown): string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export interface ImportRules {
  entry(value: unknown): Checked<{ seq: number; entry: SessionEntry }>;
  note(value: unknown): Checked<SessionExport["notes"][number]>;
  toolCall(value: unknown): Checked<SessionExport["toolCalls"][number]>;
  problem(value: unknown): Checked<SessionExport["problems"][number]>;
  /** A top-level field other than the four arrays. */
  session(value: unknown): Checked<SessionExport["session"]>;
  redaction(value: unknown): Checked<SessionExport["redaction"]>;
}

/** `now`: the importing machine's clock, for the latest time accepted. */
export function importRules(now: number): ImportRules {
  const r = rules(now);
  const entrySchema = ExportedEntrySchema.superRefine((v, ctx) => {
    const at = (path: string, value: unknown, rule: Rule) => check(ctx, `entry.${path}`, value, rule);
    at("seq", v.seq, r.seq);
    checkEntry(v.entry, at, r);
  });
  const noteSchema = ExportedNoteSchema.superRefine((n, ctx) => {
    check(ctx, "id", n.id, r.count);
    check(ctx, "seq", n.seq, r.seq);
    check(ctx, "author", n.author, r.author);
    check(ctx, "text", n.text, r.noteText);
    check(ctx, "createdAt", n.createdAt, r.time);
    if (n.path !== undefined) check(ctx, "path", n.path, r.path);
    if (n.line !== undefined) check(ctx, "line", n.line, r.seq);
  });
  const toolCallSchema = ExportedToolCallSchema.superRefine((t, ctx) => {
    check(ctx, "id", t.id, r.count);
    check(ctx, "toolCallId", t.toolCallId, r.id);
    check(ctx, "toolName", t.toolName, r.name);
    if (t.durationMs !== null) check(ctx, "durationMs", t.durationMs, r.duration);
    if (t.errorCode !== null) check(ctx, "errorCode", t.errorCode, r.name);
    if (t.outputBytes !== null) check(ctx, "outputBytes", t.outputBytes, r.bytes);
    if (t.decidedBy !== null) check(ctx, "decidedBy", t.decidedBy, r.name);
    if (t.decidedAt !== null) check(ctx, "decidedAt", t.decidedAt, r.time);
    check(ctx, "createdAt", t.createdAt, r.time);
    check(ctx, "updatedAt", t.updatedAt, r.time);
  });
  const shape = SessionExportSchema.shape;
  const sessionSchema = shape.session.superRefine((s, ctx) => {
    check(ctx, "id", s.id, r.id);
    check(ctx, "title", s.title, r.title);
    if (s.model) checkModel(s.model, (path, value, rule) => check(ctx, `model.${path}`, value, rule), r);
    // Not imported (the times come from the entries), but read by nothing that trusts them either.
    if (s.startedAt !== null) check(ctx, "startedAt", s.startedAt, r.finite);
    if (s.endedAt !== null) check(ctx, "endedAt", s.endedAt, r.finite);
    if (s.forkedFrom) {
      check(ctx, "forkedFrom.sessionId", s.forkedFrom.sessionId, r.id);
      check(ctx, "forkedFrom.seq", s.forkedFrom.seq, r.seq);
    }
  });
  const problemSchema = shape.problems.element;
  return {
    entry: (v) => run(entrySchema, v, "entry."),
    note: (v) => run(noteSchema, v, ""),
    toolCall: (v) => run(toolCallSchema, v, ""),
    problem: (v) => run(problemSchema, v, ""),
    session: (v) => run(sessionSchema, v, ""),
    redaction: (v) => run(shape.redaction, v, ""),
  };
}

type At = (path: string, value: unknown, rule: Rule) => void;
type Rules = ReturnType<typeof rules>;

function checkEntry(entry: SessionEntry, at: At, r: Rules): void {
  if (entry.type !== "message") at("timestamp", entry.timestamp, r.time);
  switch (entry.type) {
    case "message": {
      const m = entry.message;
      at("message.timestamp", m.timestamp, r.time);
      if (m.role === "assistant") {
        checkModel(m.model, (p, v, rule) => at(`message.model.${p}`, v, rule), r);
        for (const k of ["input", "output", "cacheRead", "cacheWrite", "totalTokens"] as const)
          at(`message.usage.${k}`, m.usage[k], r.tokens);
        for (const k of ["input", "output", "cacheRead", "cacheWrite", "total"] as const)
          at(`message.usage.cost.${k}`, m.usage.cost[k], r.cost);
        if (m.responseId !== undefined) at("message.responseId", m.responseId, r.id);
        m.content.forEach((b, i) => {
          if (b.type !== "toolCall") return;
          at(`message.content.${i}.id`, b.id, r.id);
          at(`message.content.${i}.name`, b.name, r.name);
        });
      } else {
        if (m.role === "toolResult") {
          at("message.toolCallId", m.toolCallId, r.id);
          at("message.toolName", m.toolName, r.name);
        }
        m.content.forEach((b, i) => {
          if (b.type === "image") at(`message.content.${i}.mimeType`, b.mimeType, r.mimeType);
        });
      }
      return;
    }
    case "modelSwitch":
      if (entry.from) checkModel(entry.from, (p, v, rule) => at(`from.${p}`, v, rule), r);
      checkModel(entry.to, (p, v, rule) => at(`to.${p}`, v, rule), r);
      return;
    case "approval":
      at("toolCallId", entry.toolCallId, r.id);
      at("toolName", entry.toolName, r.name);
      at("decidedBy", entry.decidedBy, r.name);
      return;
    case "compaction":
      at("firstKeptSeq", entry.firstKeptSeq, r.seqOrZero);
      at("tokensBefore", entry.tokensBefore, r.tokens);
      checkModel(entry.model, (p, v, rule) => at(`model.${p}`, v, rule), r);
      return;
    case "rename":
      at("title", entry.title, r.title);
      return;
    case "fork":
      at("sourceSessionId", entry.sourceSessionId, r.id);
      at("sourceSeq", entry.sourceSeq, r.seqOrZero);
      return;
    case "reasoningChange":
      return;
  }
}

function checkModel(model: ModelRef, at: At, r: Rules): void {
  at("provider", model.provider, r.name);
  at("id", model.id, r.name);
}

function rules(now: number) {
  const latest = now + AHEAD_MS;
  const window = `${day(EARLIEST_TIME)} … ${day(latest)}`;
  const number = (schema: z.ZodType, what: string): Rule => ({ schema, says: (v) => `${show(v)} is ${what}` });
  const text = (max: number, controls: boolean): Rule => ({
    schema: controls
      ? z.string().max(max)
      : z
          .string()
          .max(max)
          .refine((s) => !CONTROL.test(s)),
    says: (v) => (typeof v === "string" && v.length > max ? `is longer than ${max} characters` : "contains control characters"),
  });
  return {
    time: number(z.number().min(EARLIEST_TIME).max(latest), `out of range (${window})`),
    finite: number(z.number().min(-8.64e15).max(8.64e15), "not a time"),
    tokens: number(z.number().int().min(0).max(MAX_TOKENS), `not a token count (a whole number, 0 … ${MAX_TOKENS})`),
    cost: number(z.number().min(0).max(MAX_COST_USD), `not a cost (0 … ${MAX_COST_USD} USD)`),
    duration: number(z.number().min(0).max(MAX_DURATION_MS), `not a duration (0 … ${MAX_DURATION_MS} ms)`),
    bytes: number(z.number().int().min(0).max(MAX_BYTES), `not a byte count (a whole number, 0 … ${MAX_BYTES})`),
    count: number(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), "not a row id"),
    seq: number(z.number().int().min(1).max(MAX_SEQ), `out of range (1 … ${MAX_SEQ})`),
    seqOrZero: number(z.number().int().min(0).max(MAX_SEQ), `out of range (0 … ${MAX_SEQ})`),
    id: text(MAX_ID_CHARS, false),
    name: text(MAX_NAME_CHARS, false),
    author: text(MAX_AUTHOR_CHARS, false),
    title: text(MAX_TITLE_CHARS, true),
    noteText: text(MAX_NOTE_CHARS, true),
    path: text(MAX_PATH_CHARS, false),
    mimeType: { schema: z.string().regex(/^[\w.+-]{1,64}\/[\w.+-]{1,64}$/), says: () => "is not a media type" },
  } satisfies Record<string, Rule>;
}

function check(ctx: z.RefinementCtx, path: string, value: unknown, rule: Rule): void {
  if (!rule.schema.safeParse(value).success) ctx.addIssue({ code: "custom", path: path.split("."), message: rule.says(value) });
}

/** The first problem, worded `<field> <what is wrong>`; `strip`: the path prefix the reader does not need. */
function run<T>(schema: z.ZodType<T>, value: unknown, strip: string): Checked<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue.path.map(String).join(".");
  const field = path.startsWith(strip) ? path.slice(strip.length) : path;
  if (issue.code === "custom") return { ok: false, message: `${field} ${issue.message}` };
  return { ok: false, message: `${field || "(the whole item)"}: ${issue.message}` };
}

function show(v: unknown): string {
  if (typeof v !== "number") return JSON.stringify(v) ?? String(v);
  return Math.abs(v) >= 1e15 ? v.toExponential() : String(v);
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
