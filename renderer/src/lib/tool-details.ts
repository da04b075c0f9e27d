/**
 * Reads a tool result's `details` (UI-only data: diff, exit code, timings,
 * truncation, error code). `details` is `unknown` in the protocol, so every
 * field is parsed leniently: a field of the wrong type is dropped, never fatal.
 */
import { z } from "zod";
import type { ToolResultMessage } from "../../../shared/protocol";

const num = z.number().optional().catch(undefined);
const str = z.string().optional().catch(undefined);

const DiffSchema = z.object({
  path: str,
  unifiedDiff: str,
  patch: str,
  added: num,
  removed: num,
  before: z.string().nullable().optional().catch(undefined),
  after: str,
  tooLarge: z.object({ diffChars: z.number() }).optional().catch(undefined),
});

const DetailsSchema = DiffSchema.extend({
  diff: z.union([DiffSchema, z.string()]).optional().catch(undefined),
  exitCode: z.number().nullable().optional().catch(undefined),
  signal: z.string().nullable().optional().catch(undefined),
  durationMs: num,
  truncated: z
    .union([z.boolean(), z.object({}).loose()])
    .optional()
    .catch(undefined),
  errorCode: str,
  error: z.object({ errorCode: str }).optional().catch(undefined),
  timedOut: z.boolean().optional().catch(undefined),
  outputBytes: num,
  totalBytes: num,
  synthesized: z.boolean().optional().catch(undefined),
  sandboxWarnings: z.array(z.string()).optional().catch(undefined),
  hooks: z.array(z.unknown()).optional().catch(undefined),
});

/** One hook's run around the call (docs/conventions.md#hooks); a malformed record is left out. */
const HookRunSchema = z.object({
  event: z.string(),
  command: z.string(),
  source: z.string(),
  ran: z.boolean(),
  skipped: z.string().optional(),
  exitCode: z.number().nullable().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  timedOut: z.boolean().optional(),
  decision: z.enum(["allow", "deny", "ask"]).optional(),
  reason: z.string().optional(),
});
export type HookRun = z.infer<typeof HookRunSchema>;

export interface FileDiff {
  path: string;
  unifiedDiff: string | null;
  added: number | null;
  removed: number | null;
  before: string | null;
  after: string | null;
  /** The core left the diff out as too large to show; only the counts are known. */
  tooLarge: { diffChars: number } | null;
}

export interface ToolDetails {
  diff: FileDiff | null;
  exitCode: number | null;
  durationMs: number | null;
  truncated: boolean;
  errorCode: string | null;
  synthesized: boolean;
  /** What the bash sandbox could not refuse and found after the run (a write through a hard link, a new repository …). */
  sandboxWarnings: string[];
  /** The hooks that ran (or were not run) around the call. */
  hooks: HookRun[];
}

const EMPTY: ToolDetails = {
  diff: null,
  exitCode: null,
  durationMs: null,
  truncated: false,
  errorCode: null,
  synthesized: false,
  sandboxWarnings: [],
  hooks: [],
};

export function readToolDetails(result: ToolResultMessage | null | undefined, fallbackPath?: string): ToolDetails {
  if (!result || result.details === undefined || result.details === null) return EMPTY;
  const parsed = DetailsSchema.safeParse(result.details);
  if (!parsed.success) return EMPTY;
  const d = parsed.data;
  const nested = typeof d.diff === "object" && d.diff !== null ? d.diff : null;
  const unified = (typeof d.diff === "string" ? d.diff : null) ?? nested?.unifiedDiff ?? nested?.patch ?? d.unifiedDiff ?? d.patch ?? null;
  const before = nested?.before !== undefined ? nested.before : d.before;
  const after = nested?.after ?? d.after ?? null;
  const hasDiff = unified !== null || after !== null;
  return {
    diff: hasDiff
      ? {
          path: nested?.path ?? d.path ?? fallbackPath ?? "file",
          unifiedDiff: unified,
          added: nested?.added ?? d.added ?? null,
          removed: nested?.removed ?? d.removed ?? null,
          before: before ?? null,
          after,
          tooLarge: nested?.tooLarge ?? null,
        }
      : null,
    exitCode: d.exitCode ?? null,
    durationMs: d.durationMs ?? null,
    truncated: d.truncated === true || (typeof d.truncated === "object" && d.truncated !== null),
    errorCode: d.errorCode ?? d.error?.errorCode ?? null,
    synthesized: d.synthesized === true,
    sandboxWarnings: d.sandboxWarnings ?? [],
    hooks: (d.hooks ?? []).flatMap((h) => {
      const run = HookRunSchema.safeParse(h);
      return run.success ? [run.data] : [];
    }),
  };
}
