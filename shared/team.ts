/**
 * The team library (docs/team.md): sessions published to a shared PostgreSQL,
 * with notes, verdicts, assignment and a review state per session.
 */
import { z } from "zod";
import { ModelRefSchema } from "./protocol";
import { NoteVerdictSchema } from "./review";

/** Where the team's PostgreSQL is. The password is never part of it: it lives in the key store. */
export const TeamConnectionSchema = z
  .object({
    host: z.string().trim().min(1).max(255),
    port: z.number().int().min(1).max(65535),
    database: z.string().trim().min(1).max(63),
    user: z.string().trim().min(1).max(63),
    /** off: plain TCP (loopback or a trusted network); verify: TLS, the server's certificate checked against `caFile` (else the system's CAs). */
    tls: z.enum(["off", "verify"]),
    caFile: z.string().min(1).max(4096).nullable(),
    /** The project a publish goes to when the request names none. */
    defaultProject: z.string().trim().min(1).max(200),
  })
  .strict();
export type TeamConnection = z.infer<typeof TeamConnectionSchema>;

export const TeamProjectSchema = z.string().trim().min(1).max(200);

export const ReviewStateSchema = z.enum(["open", "changesRequested", "approved"]);
export type ReviewState = z.infer<typeof ReviewStateSchema>;

export const TeamSessionSchema = z.object({
  /** The published session's id in the library (not the publisher's local id). */
  id: z.string(),
  project: z.string(),
  publisher: z.string(),
  title: z.string(),
  model: ModelRefSchema.nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  publishedAt: z.number(),
  revision: z.number().int(),
  entryCount: z.number().int(),
  reviewState: ReviewStateSchema,
  /** Reviewers asked for a review ("review requested from …"). */
  assignees: z.array(z.string()),
});
export type TeamSession = z.infer<typeof TeamSessionSchema>;

export const TeamNoteSchema = z.object({
  id: z.number().int(),
  sessionId: z.string(),
  /** The revision the note was written on (notes are kept across revisions). */
  revision: z.number().int(),
  seq: z.number().int(),
  /** The database role that wrote it (set by the server, not the client). */
  author: z.string(),
  verdict: NoteVerdictSchema.nullable(),
  text: z.string(),
  createdAt: z.number(),
  path: z.string().nullable(),
  line: z.number().int().nullable(),
});
export type TeamNote = z.infer<typeof TeamNoteSchema>;

export const TeamNoteInputSchema = z
  .object({
    sessionId: z.string().uuid(),
    revision: z.number().int().positive(),
    seq: z.number().int().positive(),
    verdict: NoteVerdictSchema.nullable(),
    text: z.string().max(100_000),
    path: z.string().min(1).max(4096).optional(),
    line: z.number().int().min(1).optional(),
  })
  .strict()
  .refine((n) => (n.path === undefined) === (n.line === undefined), { message: "path and line go together" });
export type TeamNoteInput = z.infer<typeof TeamNoteInputSchema>;

export const TeamSearchHitSchema = z.object({
  sessionId: z.string(),
  sessionTitle: z.string(),
  project: z.string(),
  seq: z.number().int(),
  snippet: z.string(),
  timestamp: z.number(),
});
export type TeamSearchHit = z.infer<typeof TeamSearchHitSchema>;

/** What is waiting for the server: queued while it was unreachable, or refused (kept, with why). */
export const TeamStatusSchema = z.object({
  configured: z.boolean(),
  reachable: z.boolean().nullable(),
  queued: z.number().int(),
  failed: z.array(z.object({ id: z.string(), kind: z.enum(["publish", "note", "review"]), error: z.string() })),
  lastError: z.string().nullable(),
});
export type TeamStatus = z.infer<typeof TeamStatusSchema>;

/** Typed failures of the team library. */
export const TEAM_ERROR_CODES = [
  /** The server cannot be reached (down, network, TLS handshake): writes are queued. */
  "TEAM_UNREACHABLE",
  /** The server refused: wrong password, no grant on the project, schema not migrated by an admin. */
  "TEAM_DENIED",
  /** No team connection in Settings → Team. */
  "TEAM_NOT_CONFIGURED",
  /** The server answered something the app does not accept (a published session that fails the import checks). */
  "TEAM_INVALID",
] as const;
export type TeamErrorCode = (typeof TEAM_ERROR_CODES)[number];

// ---------------------------------------------------------------- requests and events (spread into shared/api.ts)

const Id = z.string().uuid();
const Queued = z.object({ queued: z.literal(true), outboxId: z.string() });
const Query = { project: TeamProjectSchema.optional(), limit: z.number().int().min(1).max(500).optional() };

export const TeamSettingsSchema = z.object({
  connection: TeamConnectionSchema.nullable(),
  /** A password is in the key store (it is never sent back). */
  passwordSet: z.boolean(),
  status: TeamStatusSchema,
  /** Workspaces whose sessions are published (a new revision) at the end of each turn. */
  autoPublish: z.array(z.string()),
});

export const teamRequests = {
  "team.settings": () => ({ params: z.object({}).strict(), result: TeamSettingsSchema }),
  /**
   * Saves the connection (null: none). `password`: stored in the key store (null clears it, absent keeps it);
   * `url`: a postgresql:// URL that fills the fields (its password, if any, goes to the key store too).
   */
  "team.configure": () => ({
    params: z
      .object({
        connection: TeamConnectionSchema.nullable().optional(),
        url: z.string().min(1).max(2048).optional(),
        defaultProject: TeamProjectSchema.optional(),
        password: z.string().max(1024).nullable().optional(),
      })
      .strict(),
    result: TeamSettingsSchema,
  }),
  /** Publish every session of a workspace at the end of each of its turns (queued while the server is unreachable). */
  "team.autoPublish": () => ({
    params: z.object({ workspaceId: z.string().min(1), on: z.boolean() }).strict(),
    result: TeamSettingsSchema,
  }),
  "team.publish": () => ({
    params: z.object({ sessionId: z.string().min(1), project: TeamProjectSchema.optional() }).strict(),
    result: z.union([
      Queued,
      z.object({
        queued: z.literal(false),
        sessionId: z.string(),
        revision: z.number().int(),
        entries: z.number().int(),
        bytes: z.number(),
      }),
    ]),
  }),
  "team.list": () => ({ params: z.object(Query).strict(), result: z.array(TeamSessionSchema) }),
  "team.search": () => ({
    params: z.object({ query: z.string().min(1).max(500), ...Query }).strict(),
    result: z.array(TeamSearchHitSchema),
  }),
  /** A published revision (the latest when none is named) as a local read-only copy in `workspaceId`: replay, "what the model saw". */
  "team.open": () => ({
    params: z.object({ id: Id, workspaceId: z.string().min(1), revision: z.number().int().positive().optional() }).strict(),
    result: z.object({ localSessionId: z.string(), revision: z.number().int() }),
  }),
  "team.notes": () => ({ params: z.object({ id: Id }).strict(), result: z.array(TeamNoteSchema) }),
  "team.notes.add": () => ({
    params: TeamNoteInputSchema,
    result: z.union([Queued, z.object({ queued: z.literal(false), note: TeamNoteSchema })]),
  }),
  "team.review.state": () => ({
    params: z.object({ id: Id, state: ReviewStateSchema }).strict(),
    result: z.union([Queued, z.object({ queued: z.literal(false) })]),
  }),
  /** "Review requested from …": a database role name. */
  "team.review.request": () => ({
    params: z
      .object({
        id: Id,
        assignee: z
          .string()
          .trim()
          .min(1)
          .max(63)
          .regex(/^[\p{L}\p{N}_.@-]+$/u),
      })
      .strict(),
    result: z.union([Queued, z.object({ queued: z.literal(false) })]),
  }),
  /** Sends what is queued now (else it goes every 10 s and when the server is back). */
  "team.sync": () => ({ params: z.object({}).strict(), result: TeamStatusSchema }),
};

export const teamEvents = {
  /** A note on a published session, written here or by another reviewer (read through the server's RLS). */
  "team.note": () => TeamNoteSchema,
  /** A published session's review state or assignees changed. */
  "team.review": () => TeamSessionSchema,
  "team.status": () => TeamStatusSchema,
};
