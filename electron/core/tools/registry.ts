/**
 * The eight tools: schema, description, tier and implementation, in the
 * order providers get them.
 */
import type { z } from "zod";
import type { ChangeReview } from "../../../shared/hunks";
import { applyReview } from "./change-review";
import { bashTimeoutMs, resolveWorkdir, runBash, sandboxLine } from "./bash-tool";
import type { ToolContext } from "./context";
import {
  BASH_DESCRIPTION,
  EDIT_DESCRIPTION,
  GLOB_DESCRIPTION,
  GREP_DESCRIPTION,
  LIST_DESCRIPTION,
  READ_DESCRIPTION,
  WRITE_DESCRIPTION,
} from "./descriptions";
import { errors, failure } from "./errors";
import { commitPlan, planEdit, planWrite, previewOf, takeSnapshot, type FileChangePlan, type Snapshot } from "./file-change";
import { runGlob } from "./glob-tool";
import { runGrep } from "./grep-tool";
import { runList } from "./list-tool";
import { runRead } from "./read-tool";
import {
  BashArgsSchema,
  EditArgsSchema,
  formatIssues,
  GlobArgsSchema,
  GrepArgsSchema,
  ListArgsSchema,
  ReadArgsSchema,
  toProviderSchema,
  WebFetchArgsSchema,
  WriteArgsSchema,
} from "./schemas";
import { proposeFetch, runWebFetch, WEBFETCH_DESCRIPTION } from "./webfetch-tool";
import type { ProposalPreview, Result, SideEffectTier, ToolError, ToolOutcome, ToolSpec } from "./types";

export const TOOL_NAMES = ["read", "write", "edit", "list", "glob", "grep", "bash", "webfetch"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface Planned {
  preview: ProposalPreview;
  fingerprint?: string;
}

interface BaseDef {
  /** One of TOOL_NAMES for the built-in tools; external (MCP) tools bring their own. */
  name: string;
  tier: SideEffectTier;
  description: string;
  schema: z.ZodType;
  /** Parses raw arguments into a plain object (defaults not filled in). */
  parse(raw: unknown): Result<Record<string, unknown>>;
}

/** `run`, `propose` and `execute` take arguments that went through `parse` (the runtime validates every call first). */
export interface ReadOnlyDef extends BaseDef {
  tier: "readOnly";
  /** The tool checks `ctx.signal` while it works, so it gets its own signal that a timeout aborts. */
  stoppable: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}

export interface SideEffectDef extends BaseDef {
  tier: "sideEffect";
  propose(args: Record<string, unknown>, ctx: ToolContext): Promise<Result<Planned>>;
  /** Re-plans against the current state; `fingerprint` is the proposal's; `review` the user's per-hunk answer (write/edit). */
  execute(args: Record<string, unknown>, ctx: ToolContext, fingerprint: string | undefined, review?: ChangeReview): Promise<ToolOutcome>;
}

export type ToolDef = ReadOnlyDef | SideEffectDef;

/** Parses a call's raw arguments with the tool's schema; a mismatch is the tool's INVALID_ARGUMENTS error. */
export function parser<S extends z.ZodType>(name: string, schema: S) {
  return (raw: unknown): Result<z.infer<S>> => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return { ok: true, value: parsed.data };
    return { ok: false, error: errors.invalidArguments(name, formatIssues(parsed.error)) };
  };
}

function readOnly<S extends z.ZodType<Record<string, unknown>>>(
  name: ToolName,
  schema: S,
  description: string,
  run: (args: z.infer<S>, ctx: ToolContext) => Promise<ToolOutcome>,
  stoppable = true,
): ReadOnlyDef {
  return {
    name,
    tier: "readOnly",
    stoppable,
    description,
    schema,
    parse: parser(name, schema),
    run: (args, ctx) => run(args as z.infer<S>, ctx),
  };
}

function sideEffect<S extends z.ZodType<Record<string, unknown>>>(
  name: ToolName,
  schema: S,
  description: string,
  impl: {
    propose: (args: z.infer<S>, ctx: ToolContext) => Promise<Result<Planned>>;
    execute: (args: z.infer<S>, ctx: ToolContext, fingerprint: string | undefined, review?: ChangeReview) => Promise<ToolOutcome>;
  },
): SideEffectDef {
  return {
    name,
    tier: "sideEffect",
    description,
    schema,
    parse: parser(name, schema),
    propose: (args, ctx) => impl.propose(args as z.infer<S>, ctx),
    execute: (args, ctx, fp, review) => impl.execute(args as z.infer<S>, ctx, fp, review),
  };
}

type Planner<A> = (args: A, snapshot: Snapshot) => Result<FileChangePlan>;

function fileTool<S extends z.ZodType<{ path: string }>>(
  name: "write" | "edit",
  schema: S,
  description: string,
  plan: Planner<z.infer<S>>,
): SideEffectDef {
  const mustExist = name === "edit";
  return sideEffect(name, schema, description, {
    propose: async (args, ctx) => {
      const snap = await takeSnapshot(ctx, args.path, mustExist);
      if (!snap.ok) return snap;
      const planned = plan(args, snap.value);
      if (!planned.ok) return planned;
      return { ok: true, value: { preview: previewOf(planned.value), fingerprint: snap.value.fingerprint } };
    },
    execute: async (args, ctx, fingerprint, review) => {
      const snap = await takeSnapshot(ctx, args.path, mustExist);
      if (!snap.ok) return failure(snap.error);
      if (fingerprint !== undefined && snap.value.fingerprint !== fingerprint)
        return failure(errors.conflict(snap.value.resolved.rel), { path: snap.value.resolved.rel });
      const planned = plan(args, snap.value);
      if (!planned.ok) return failure(planned.error);
      const reviewed = review ? applyReview(planned.value, review) : planned;
      if (!reviewed.ok) return failure(reviewed.error, { path: snap.value.resolved.rel });
      return commitPlan(name, reviewed.value, ctx, fingerprint ?? snap.value.fingerprint);
    },
  });
}

export const TOOL_DEFS: readonly ToolDef[] = [
  // read does a few system calls on one file and never looks at the signal (its timeout still answers).
  readOnly("read", ReadArgsSchema, READ_DESCRIPTION, runRead, false),
  fileTool("write", WriteArgsSchema, WRITE_DESCRIPTION, planWrite),
  fileTool("edit", EditArgsSchema, EDIT_DESCRIPTION, planEdit),
  readOnly("list", ListArgsSchema, LIST_DESCRIPTION, runList),
  readOnly("glob", GlobArgsSchema, GLOB_DESCRIPTION, runGlob),
  readOnly("grep", GrepArgsSchema, GREP_DESCRIPTION, (args, ctx) => runGrep(args, ctx)),
  sideEffect("bash", BashArgsSchema, BASH_DESCRIPTION, {
    propose: async (args, ctx) => {
      const dir = await resolveWorkdir(args, ctx);
      if (!dir.ok) return dir;
      if (ctx.bash.required && ctx.bash.sandbox.kind === "none")
        return { ok: false, error: errors.sandboxUnavailable(ctx.bash.sandbox.reason ?? "no sandbox") };
      return {
        ok: true,
        value: {
          preview: {
            kind: "command",
            command: args.command,
            cwd: dir.value.real,
            timeoutMs: bashTimeoutMs(args),
            sandbox: sandboxLine(ctx),
            sandboxed: ctx.bash.sandbox.kind !== "none",
            ...(ctx.bash.off ? { sandboxOff: true } : {}),
          },
        },
      };
    },
    execute: (args, ctx) => runBash(args, ctx),
  }),
  sideEffect("webfetch", WebFetchArgsSchema, WEBFETCH_DESCRIPTION, {
    propose: (args, ctx) => Promise.resolve(proposeFetch(args.url, ctx)),
    execute: (args, ctx) => runWebFetch(args, ctx),
  }),
];

const BY_NAME = new Map<string, ToolDef>(TOOL_DEFS.map((d) => [d.name, d]));

export function findTool(name: string): ToolDef | undefined {
  return BY_NAME.get(name);
}

let cachedSpecs: ToolSpec[] | null = null;

/** What providers get for one tool. */
export function specOf(def: ToolDef, parameters: Record<string, unknown> = toProviderSchema(def.schema)): ToolSpec {
  return { name: def.name, description: def.description, parameters };
}

/** What providers get: name, description and JSON Schema of every tool. */
export function defaultToolSpecs(): ToolSpec[] {
  cachedSpecs ??= TOOL_DEFS.map((d) => ({ name: d.name, description: d.description, parameters: toProviderSchema(d.schema) }));
  return cachedSpecs.map((s) => ({ ...s, parameters: structuredClone(s.parameters) }));
}

export type { ToolError };
