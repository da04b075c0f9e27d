/**
 * Checkpoints and rewind: the shapes the WorkbenchApi carries (requests in
 * shared/api.ts). Design in docs/checkpoints.md.
 */
import { z } from "zod";

export const CheckpointKindSchema = z.enum(["turnStart", "afterTool", "beforeRestore", "restored"]);
export type CheckpointKind = z.infer<typeof CheckpointKindSchema>;

export const CheckpointSchema = z.object({
  id: z.number().int(),
  /** The session that recorded it (a fork lists its parent's checkpoints up to the fork point). */
  sessionId: z.string(),
  /** The session's last entry when it was recorded: the workspace was in this state from this step on. */
  seq: z.number().int(),
  kind: CheckpointKindSchema,
  toolCallId: z.string().nullable(),
  createdAt: z.number(),
  /** Set when the size cap removed its files. */
  prunedAt: z.number().nullable(),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export const FileChangeStatusSchema = z.enum(["added", "modified", "deleted", "typeChanged"]);

/** One file that differs between two workspace states; texts are given when small and not binary. */
export const CheckpointFileDiffSchema = z.object({
  path: z.string(),
  status: FileChangeStatusSchema,
  /** git modes: "100644" file, "100755" executable, "120000" symlink; null when absent on that side. */
  oldMode: z.string().nullable(),
  newMode: z.string().nullable(),
  binary: z.boolean(),
  /** False past the preview size limit (or binary): compare sizes only. */
  textShown: z.boolean(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  oldSize: z.number().int().nullable(),
  newSize: z.number().int().nullable(),
});
export type CheckpointFileDiff = z.infer<typeof CheckpointFileDiffSchema>;

export const RewindModeSchema = z.enum(["files", "conversation", "both"]);
export type RewindMode = z.infer<typeof RewindModeSchema>;

/** Where to rewind to: the state at a step of the session, or one checkpoint (undo a rewind). */
export const RewindTargetSchema = z.union([
  z.object({ seq: z.number().int().nonnegative() }).strict(),
  z.object({ checkpointId: z.number().int().positive() }).strict(),
]);
export type RewindTarget = z.infer<typeof RewindTargetSchema>;

export const RewindFileSchema = CheckpointFileDiffSchema.extend({
  /** Changed outside this session's agent since the target state: restoring loses that change. */
  conflict: z.boolean(),
});
export type RewindFile = z.infer<typeof RewindFileSchema>;

export const RewindPreviewSchema = z.object({
  /** The checkpoint the files would return to; null when the session has none to go back to. */
  checkpoint: CheckpointSchema.nullable(),
  /** Every file that would change: `before` is its current content, `after` the restored one. */
  files: z.array(RewindFileSchema),
  conflicts: z.number().int(),
  /** The step the conversation fork would end at (null for a checkpoint target). */
  forkAtSeq: z.number().int().nullable(),
  /** Why files cannot be restored (checkpoints off, no git, pruned…); null when they can. */
  filesUnavailable: z.string().nullable(),
});
export type RewindPreview = z.infer<typeof RewindPreviewSchema>;

export const CheckpointStatusSchema = z.object({
  available: z.boolean(),
  /** Why checkpoints are not recorded, when they are not. */
  reason: z.string().nullable(),
  gitVersion: z.string().nullable(),
  enabled: z.boolean(),
  capBytes: z.number(),
  usedBytes: z.number(),
  checkpoints: z.number().int(),
  pruned: z.number().int(),
  location: z.string().nullable(),
  /** Paths never recorded, besides the workspace's .gitignore files. */
  excludes: z.array(z.string()),
  lastError: z.string().nullable(),
});
export type CheckpointStatus = z.infer<typeof CheckpointStatusSchema>;

export const CheckpointSettingsSchema = z.object({
  enabled: z.boolean(),
  /** Per workspace; the oldest checkpoints are pruned past it. */
  capBytes: z
    .number()
    .int()
    .min(50 * 1024 * 1024)
    .max(1024 * 1024 * 1024 * 1024),
});
export type CheckpointSettings = z.infer<typeof CheckpointSettingsSchema>;

export const DEFAULT_CHECKPOINT_CAP_BYTES = 2 * 1024 * 1024 * 1024;
