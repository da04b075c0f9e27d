/**
 * The tool runtime the agent loop drives.
 *
 * Contract:
 * - Nothing here throws or rejects. Every call ends as a ToolOutcome, which
 *   `toResultMessage` turns into exactly one ToolResultMessage.
 * - Read-only tools (read, list, glob, grep): `runReadOnly`, any number in
 *   parallel.
 * - Side-effect tools (write, edit, bash): `propose` (preview computed
 *   without writing) → `decide` (policy: allow / deny / ask) → if ask, the
 *   user answers through `approve` or `deny` → `execute` (refused unless
 *   approved; write/edit re-check the file's fingerprint and answer CONFLICT
 *   rather than overwrite a file changed since the proposal). `cancel` ends a
 *   proposal whose turn was aborted while waiting.
 * - Budget: `beginTurn` resets it. Calls are counted by runReadOnly/propose,
 *   side effects by execute; past a limit the call answers
 *   TOOL_BUDGET_EXCEEDED (retryable: false).
 * - Every proposal, policy verdict, approval and outcome goes to `auditSink`.
 */
import { accessSync, constants } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { ChangeReview, HunkDecision } from "../../../shared/hunks";
import type { ToolResultMessage } from "../../../shared/protocol";
import type { AuditEvent, AuditSink } from "./audit";
import { DEFAULT_RUN_BUDGET, TurnBudget, type BudgetUsage } from "./budget";
import { bashSandboxNote } from "./descriptions";
import { detectBashSandbox, type BashSandboxInfo, type BashSandboxMode } from "./bash-sandbox";
import { unsandboxedByUser, type BashSettings, type ToolContext } from "./context";
import { childEnvironment } from "./env";
import { errors, failure, toolError } from "./errors";
import { READONLY_TIMEOUT_MS } from "./limits";
import {
  DEFAULT_TOOL_POLICY,
  evaluatePolicy,
  type PolicyRule,
  type PolicyVerdict,
  type SideEffectToolName,
  type ToolPolicy,
} from "./policy";
import { ensureShellParser, plainCommands } from "./shell-parse";
import { defaultToolSpecs, findTool as findBuiltIn, TOOL_NAMES, type Planned, type SideEffectDef, type ToolDef } from "./registry";
import { Sandbox } from "./sandbox";
import type { PolicyAction, Proposal, Result, RunBudget, SideEffectTier, ToolError, ToolOutcome, ToolSpec } from "./types";

/** A tool call as the loop has it (the protocol's ToolCall fits). */
export interface ToolCallInput {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Set when the streamed arguments were not valid JSON. */
  argumentsError?: string;
}

export interface ToolRuntimeOptions {
  workspaceRoot: string;
  policy?: ToolPolicy;
  budget?: RunBudget;
  auditSink?: AuditSink;
  /** Base environment for bash (default process.env); secrets are stripped from it. */
  env?: Record<string, string | undefined>;
  /** ripgrep binary; default: `rg` on PATH; null forces the built-in grep. */
  rgPath?: string | null;
  /** Where bash keeps full output that was cut (default: <tmp>/agent-workbench-tool-output). */
  outputDir?: string;
  /** Clock for audit timestamps. */
  now?: () => number;
  /** Saved rules (per workspace), read at every decision so an edit in Settings applies at once. */
  rules?: () => readonly PolicyRule[];
  /**
   * Tools from outside (MCP servers), asked for at each lookup so a restarted
   * server's tools apply. Their names never shadow the built-in tools.
   */
  externalTools?: () => { defs: readonly ToolDef[]; specs: readonly ToolSpec[] };
  /** Deadline of a read-only call (default READONLY_TIMEOUT_MS). */
  readOnlyTimeoutMs?: number;
  /**
   * "auto" (default): bash runs in the OS sandbox when there is one, unconfined
   * (and the card says so) when not; "required": no sandbox, no bash
   * (SANDBOX_UNAVAILABLE); "off": unconfined.
   */
  bashSandbox?: BashSandboxMode;
  /** The sandbox this machine offers (default: probed once, detectBashSandbox). */
  bashSandboxInfo?: BashSandboxInfo;
  /** Network inside the bash sandbox (default false). */
  bashNetwork?: boolean;
  /** Folders sandboxed bash cannot see besides the home secrets (the app's data folder). */
  bashHidden?: readonly string[];
}

export type UserAnswer =
  { approved: true; forSession?: boolean; rule?: string; review?: ChangeReview } | { approved: false; reason?: string };

export interface ToolRuntime {
  readonly workspaceRoot: string;
  specs(): ToolSpec[];
  /** null for an unknown tool. */
  tier(name: string): SideEffectTier | null;
  validate(call: ToolCallInput): { ok: true; args: Record<string, unknown> } | { ok: false; error: ToolError };
  runReadOnly(call: ToolCallInput, signal?: AbortSignal): Promise<ToolOutcome>;
  propose(call: ToolCallInput): Promise<{ proposal: Proposal } | { outcome: ToolOutcome }>;
  decide(proposal: Proposal): PolicyAction;
  /** The verdict with the rule that produced it; no side effects, no audit. */
  explain(proposal: Proposal): PolicyVerdict;
  /** Adds an allow rule for the rest of the session (runtime rebuilds keep it through `sessionRules`). */
  addSessionRule(rule: PolicyRule): void;
  sessionRules(): readonly PolicyRule[];
  /** An external (MCP) tool by its full name, allowed for the rest of the session (built-in tools use rules). */
  allowForSession(toolName: string): void;
  /** Why this allow rule would not cover the proposal (it must, to be offered for it), or null. */
  checkRule(proposal: Proposal, pattern: string, action?: "allow" | "deny"): string | null;
  /** `forSession` with `rule`: that rule is allowed from now on; without it, the exact call (command or file); an external tool: the tool. */
  /** `review`: the user accepted only some hunks of a write/edit, or edited it; applied by `execute`. */
  /** `unsandboxed`: the user chose to run this one bash call outside the OS sandbox (docs/tool-sandbox.md). */
  approve(proposal: Proposal, options?: { forSession?: boolean; rule?: string; review?: ChangeReview; unsandboxed?: boolean }): void;
  deny(proposal: Proposal, options?: { reason?: string }): ToolOutcome;
  cancel(proposal: Proposal): ToolOutcome;
  execute(proposal: Proposal, signal?: AbortSignal): Promise<ToolOutcome>;
  /** Drives one call end to end; `ask` answers for the user (none: ask → denied). */
  run(call: ToolCallInput, options?: { signal?: AbortSignal; ask?: (proposal: Proposal) => Promise<UserAnswer> }): Promise<ToolOutcome>;
  beginTurn(): void;
  usage(): BudgetUsage;
  toResultMessage(call: Pick<ToolCallInput, "id" | "name">, outcome: ToolOutcome, now?: number): ToolResultMessage;
}

interface Pending {
  proposal: Proposal;
  state: "proposed" | "approved" | "policyDenied";
  rule?: string;
  review?: ChangeReview;
  /** "Run unsandboxed": this bash call only, outside the OS sandbox. */
  unsandboxed?: boolean;
}

const NEVER_ABORTED = new AbortController().signal;

export function findOnPath(binary: string, pathVar = process.env.PATH ?? ""): string | null {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function outcomeBytes(outcome: ToolOutcome): number {
  if (!outcome.ok) return Buffer.byteLength(outcome.error.message) + Buffer.byteLength(outcome.error.hint ?? "");
  return outcome.content.reduce((n, b) => n + (b.type === "text" ? Buffer.byteLength(b.text) : b.data.length), 0);
}

/** The text the model sees for an error. */
export function errorText(error: ToolError): string {
  return `Error [${error.errorCode}]: ${error.message}${error.hint ? `\nHint: ${error.hint}` : ""}`;
}

type BashPlacementOptions = Pick<ToolRuntimeOptions, "bashSandbox" | "bashSandboxInfo" | "bashNetwork">;

/** Where bash commands run for these settings: the sandbox (or why none), required or not, network. */
function bashPlacement(options: BashPlacementOptions): Omit<BashSettings, "hidden"> {
  return {
    sandbox:
      options.bashSandbox === "off"
        ? { kind: "none", reason: "the sandbox is turned off in the settings" }
        : (options.bashSandboxInfo ?? detectBashSandbox()),
    required: options.bashSandbox === "required",
    network: options.bashNetwork ?? false,
  };
}

/**
 * The built-in tools as the model gets them for these settings: bash's
 * description says where its commands run (sandbox, network), as the
 * approval card does. The review's "what the model saw" uses it too.
 */
export function builtInToolSpecs(options: BashPlacementOptions): ToolSpec[] {
  const note = bashSandboxNote(bashPlacement(options));
  return defaultToolSpecs().map((s) => (s.name === "bash" ? { ...s, description: `${s.description}\n${note}` } : s));
}

export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const policy = options.policy ?? DEFAULT_TOOL_POLICY;
  const budget = new TurnBudget(options.budget ?? DEFAULT_RUN_BUDGET);
  const clock = options.now ?? Date.now;
  const env = childEnvironment(options.env ?? process.env);
  const rgPath = options.rgPath === undefined ? findOnPath("rg") : options.rgPath;
  const outputDir = options.outputDir ?? join(tmpdir(), "agent-workbench-tool-output");
  const sessionRules: PolicyRule[] = [];
  const bash: BashSettings = {
    ...bashPlacement(options),
    // Where cut output is saved is the app's, not the command's.
    hidden: [...(options.bashHidden ?? []), outputDir],
  };
  const sessionAllowed = new Set<string>();
  const pending = new Map<string, Pending>();
  let sandbox: Promise<Result<Sandbox>> | null = null;
  const findTool = (name: string): ToolDef | undefined => findBuiltIn(name) ?? options.externalTools?.().defs.find((d) => d.name === name);
  const toolNames = (): string[] => [...TOOL_NAMES, ...(options.externalTools?.().defs.map((d) => d.name) ?? [])];

  const audit = (event: AuditEvent) => {
    try {
      options.auditSink?.(event);
    } catch {
      // A failing sink must not break the tool call.
    }
  };
  const openSandbox = () => (sandbox ??= Sandbox.open(options.workspaceRoot));
  const context = async (signal: AbortSignal): Promise<Result<ToolContext>> => {
    const sb = await openSandbox();
    if (!sb.ok) return sb;
    return { ok: true, value: { sandbox: sb.value, signal, env, rgPath, outputDir, bash } };
  };

  const finish = (
    call: Pick<ToolCallInput, "id" | "name">,
    tier: SideEffectTier | null,
    outcome: ToolOutcome,
    started: number,
  ): ToolOutcome => {
    const durationMs = clock() - started;
    const outputBytes = outcomeBytes(outcome);
    budget.chargeResult(outputBytes, Math.max(0, durationMs));
    const details = { ...(outcome.details ?? {}), durationMs: outcome.details?.durationMs ?? durationMs };
    const final: ToolOutcome = outcome.ok ? { ...outcome, details } : { ...outcome, details };
    audit({
      type: "outcome",
      toolCallId: call.id,
      toolName: call.name,
      tier,
      ok: final.ok,
      ...(final.ok ? {} : { errorCode: final.error.errorCode }),
      durationMs,
      outputBytes,
      details,
      timestamp: clock(),
    });
    return final;
  };

  const validate = (call: ToolCallInput): { ok: true; args: Record<string, unknown> } | { ok: false; error: ToolError } => {
    const def = findTool(call.name);
    if (!def) return { ok: false, error: errors.unknownTool(call.name, toolNames()) };
    if (call.argumentsError !== undefined) return { ok: false, error: errors.invalidJson(call.name, call.argumentsError) };
    const parsed = def.parse(call.arguments);
    return parsed.ok ? { ok: true, args: parsed.value } : { ok: false, error: parsed.error };
  };

  /**
   * Runs `work` with a deadline and the caller's signal; an exception becomes
   * IO_ERROR. With `timeoutMs` null the work handles abort itself (bash must
   * kill its process group before answering). `ownSignal` false: the work
   * never looks at its signal, so it gets the caller's (or one never aborted)
   * instead of a new controller's (an AbortSignal costs more to create than a
   * small read).
   */
  const guarded = async <T>(
    signal: AbortSignal | undefined,
    timeoutMs: number | null,
    work: (signal: AbortSignal) => Promise<T>,
    onError: (error: ToolError) => T,
    ownSignal = true,
  ): Promise<T> => {
    if (signal?.aborted) return onError(errors.aborted());
    const controller = ownSignal || timeoutMs === null ? new AbortController() : null;
    const workSignal = controller?.signal ?? signal ?? NEVER_ABORTED;
    const cleanups: (() => void)[] = [];
    const stop = new Promise<T>((resolve) => {
      if (timeoutMs === null) return;
      const timer = setTimeout(() => {
        controller?.abort();
        resolve(onError(errors.timeout("The tool call", timeoutMs)));
      }, timeoutMs);
      cleanups.push(() => clearTimeout(timer));
      const onAbort = () => {
        controller?.abort();
        resolve(onError(errors.aborted()));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal?.removeEventListener("abort", onAbort));
    });
    if (controller && timeoutMs === null && signal) {
      const relay = () => controller.abort();
      signal.addEventListener("abort", relay, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", relay));
    }
    try {
      const run = work(workSignal).catch((err: unknown) =>
        onError(
          toolError(
            "IO_ERROR",
            `The tool failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`,
            "Try again; if it keeps failing, use another approach.",
          ),
        ),
      );
      return await (timeoutMs === null ? run : Promise.race([run, stop]));
    } finally {
      for (const c of cleanups) c();
    }
  };

  const budgetFailure = (limit: string) => failure(errors.budgetExceeded(limit));

  const runtime: ToolRuntime = {
    get workspaceRoot() {
      return options.workspaceRoot;
    },

    specs: () => {
      const builtIn = builtInToolSpecs(options);
      const external = options.externalTools?.().specs ?? [];
      return external.length === 0 ? builtIn : [...builtIn, ...external.filter((s) => !findBuiltIn(s.name))];
    },

    tier: (name) => findTool(name)?.tier ?? null,

    validate,

    async runReadOnly(call, signal) {
      const started = clock();
      const def = findTool(call.name);
      const tier = def?.tier ?? null;
      const limit = budget.exhausted("call");
      if (limit) return finish(call, tier, budgetFailure(limit), started);
      budget.chargeCall();
      const valid = validate(call);
      if (!valid.ok) return finish(call, tier, failure(valid.error), started);
      if (!def || def.tier !== "readOnly") {
        return finish(
          call,
          tier,
          failure(toolError("DENIED", `${call.name} has side effects; it must be proposed and approved.`, "Use propose/approve/execute.")),
          started,
        );
      }
      const outcome = await guarded(
        signal,
        options.readOnlyTimeoutMs ?? READONLY_TIMEOUT_MS,
        async (s) => {
          const ctx = await context(s);
          return ctx.ok ? def.run(valid.args, ctx.value) : failure(ctx.error);
        },
        (e) => failure(e),
        def.stoppable,
      );
      return finish(call, tier, outcome, started);
    },

    async propose(call) {
      const started = clock();
      const def = findTool(call.name);
      const tier = def?.tier ?? null;
      const limit = budget.exhausted("sideEffect") ?? budget.exhausted("call");
      if (limit) return { outcome: finish(call, tier, budgetFailure(limit), started) };
      budget.chargeCall();
      const valid = validate(call);
      if (!valid.ok) return { outcome: finish(call, tier, failure(valid.error), started) };
      if (!def || def.tier !== "sideEffect") {
        return {
          outcome: finish(call, tier, failure(toolError("INVALID_ARGUMENTS", `${call.name} is read-only; run it directly.`)), started),
        };
      }
      const planned = await guarded<Result<Planned>>(
        undefined,
        READONLY_TIMEOUT_MS,
        async (s) => {
          const ctx = await context(s);
          return ctx.ok ? def.propose(valid.args, ctx.value) : ctx;
        },
        (error) => ({ ok: false, error }),
      );
      if (!planned.ok) return { outcome: finish(call, tier, failure(planned.error), started) };
      const p = planned.value;
      if (p.preview.kind === "command") await ensureShellParser();
      const proposal: Proposal = { toolCallId: call.id, toolName: call.name, args: valid.args, preview: p.preview };
      if (p.fingerprint !== undefined) proposal.fingerprint = p.fingerprint;
      pending.set(call.id, { proposal, state: "proposed" });
      audit({
        type: "proposal",
        toolCallId: call.id,
        toolName: call.name,
        args: valid.args,
        preview: proposal.preview,
        ...(proposal.fingerprint ? { fingerprint: proposal.fingerprint } : {}),
        timestamp: clock(),
      });
      return { proposal };
    },

    explain(proposal) {
      return evaluatePolicy(policy, [...sessionRules, ...(options.rules?.() ?? [])], proposal.toolName, proposal.preview, sessionAllowed);
    },

    checkRule(proposal, pattern, action = "allow") {
      const tool = proposal.toolName;
      if (!isBuiltInSideEffect(tool)) return `rules apply to bash, write and edit, not ${tool}`;
      const rule: PolicyRule = { tool, action, pattern: pattern.trim(), source: "session" };
      const bare = { write: "ask", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] } as const;
      const verdict = evaluatePolicy(bare, [rule], tool, proposal.preview);
      if (verdict.action === action) return null;
      if (verdict.notCoverable) return `no rule can cover this command: it has ${verdict.notCoverable}; approve it once instead`;
      return `the rule \`${rule.pattern}\` does not cover this ${tool === "bash" ? "command" : "file"}`;
    },

    decide(proposal) {
      const verdict = runtime.explain(proposal);
      audit({
        type: "policy",
        toolCallId: proposal.toolCallId,
        toolName: proposal.toolName,
        action: verdict.action,
        rule: verdict.rule,
        timestamp: clock(),
      });
      const entry = pending.get(proposal.toolCallId);
      if (entry && verdict.action === "allow") {
        entry.state = "approved";
        audit({
          type: "approval",
          toolCallId: proposal.toolCallId,
          toolName: proposal.toolName,
          decision: "autoApproved",
          decidedBy: "policy",
          reason: verdict.rule,
          timestamp: clock(),
        });
      } else if (entry && verdict.action === "deny") {
        entry.state = "policyDenied";
        entry.rule = verdict.rule;
        audit({
          type: "approval",
          toolCallId: proposal.toolCallId,
          toolName: proposal.toolName,
          decision: "autoDenied",
          decidedBy: "policy",
          reason: verdict.rule,
          timestamp: clock(),
        });
      }
      return verdict.action;
    },

    addSessionRule(rule) {
      if (!sessionRules.some((r) => r.tool === rule.tool && r.action === rule.action && r.pattern === rule.pattern))
        sessionRules.push(rule);
      audit({ type: "sessionAllow", toolName: rule.tool, rule: rule.pattern, timestamp: clock() });
    },

    sessionRules: () => sessionRules,

    allowForSession(toolName) {
      sessionAllowed.add(toolName);
      // An external tool has no rules: the whole tool is allowed, whatever its arguments.
      audit({ type: "sessionAllow", toolName, rule: "*", timestamp: clock() });
    },

    approve(proposal, opts) {
      const entry = pending.get(proposal.toolCallId);
      if (!entry || entry.state === "policyDenied") return;
      entry.state = "approved";
      if (opts?.review && proposal.preview.kind === "diff") entry.review = opts.review;
      // Only a bash call the card showed as sandboxed; never carried by a rule or a session approval.
      if (opts?.unsandboxed && proposal.toolName === "bash" && !opts.forSession) entry.unsandboxed = true;
      if (opts?.forSession && !isBuiltInSideEffect(proposal.toolName)) {
        runtime.allowForSession(proposal.toolName);
      } else if (opts?.forSession) {
        const pattern = opts.rule?.trim() || exactRule(proposal);
        if (pattern !== null && runtime.checkRule(proposal, pattern) === null) {
          runtime.addSessionRule({ tool: proposal.toolName as SideEffectToolName, action: "allow", pattern, source: "session" });
        }
      }
      const hunks: HunkDecision[] | undefined = entry.review?.kind === "hunks" ? entry.review.decisions : undefined;
      audit({
        type: "approval",
        toolCallId: proposal.toolCallId,
        toolName: proposal.toolName,
        decision: opts?.forSession ? "approvedForSession" : "approved",
        decidedBy: "user",
        ...(hunks ? { hunks } : {}),
        ...(entry.review?.kind === "edited" ? { edited: true } : {}),
        ...(entry.unsandboxed ? { unsandboxed: true } : {}),
        timestamp: clock(),
      });
    },

    deny(proposal, opts) {
      const started = clock();
      const entry = pending.get(proposal.toolCallId);
      pending.delete(proposal.toolCallId);
      if (entry?.state === "policyDenied")
        return finish(callOf(proposal), "sideEffect", failure(errors.deniedByPolicy(entry.rule ?? "deny")), started);
      audit({
        type: "approval",
        toolCallId: proposal.toolCallId,
        toolName: proposal.toolName,
        decision: "denied",
        decidedBy: "user",
        ...(opts?.reason ? { reason: opts.reason } : {}),
        timestamp: clock(),
      });
      return finish(callOf(proposal), "sideEffect", failure(errors.denied(opts?.reason)), started);
    },

    cancel(proposal) {
      pending.delete(proposal.toolCallId);
      return finish(callOf(proposal), "sideEffect", failure(errors.aborted()), clock());
    },

    async execute(proposal, signal) {
      const started = clock();
      const call = callOf(proposal);
      const entry = pending.get(proposal.toolCallId);
      const def = findTool(proposal.toolName);
      if (!entry || !def || def.tier !== "sideEffect" || entry.state !== "approved" || !sameProposal(entry.proposal, proposal)) {
        return finish(
          call,
          "sideEffect",
          failure(entry?.state === "policyDenied" ? errors.deniedByPolicy(entry.rule ?? "deny") : errors.notApproved()),
          started,
        );
      }
      pending.delete(proposal.toolCallId);
      const limit = budget.exhausted("execute");
      if (limit) return finish(call, "sideEffect", budgetFailure(limit), started);
      budget.chargeSideEffect();
      const sideDef: SideEffectDef = def;
      const outcome = await guarded(
        signal,
        null,
        async (s) => {
          const ctx = await context(s);
          if (!ctx.ok) return failure(ctx.error);
          const callCtx = entry.unsandboxed ? { ...ctx.value, bash: unsandboxedByUser(ctx.value.bash) } : ctx.value;
          return sideDef.execute(entry.proposal.args, callCtx, entry.proposal.fingerprint, entry.review);
        },
        (e) => failure(e),
      );
      return finish(call, "sideEffect", outcome, started);
    },

    async run(call, opts) {
      const tier = runtime.tier(call.name);
      if (tier !== "sideEffect") return runtime.runReadOnly(call, opts?.signal);
      const proposed = await runtime.propose(call);
      if ("outcome" in proposed) return proposed.outcome;
      const { proposal } = proposed;
      const action = runtime.decide(proposal);
      if (action === "deny") return runtime.deny(proposal);
      if (action === "ask") {
        if (!opts?.ask) return runtime.deny(proposal, { reason: "no one was available to approve it" });
        const answer = await opts.ask(proposal).catch((): UserAnswer => ({ approved: false, reason: "the approval failed" }));
        if (opts.signal?.aborted) return runtime.cancel(proposal);
        if (!answer.approved) return runtime.deny(proposal, answer.reason ? { reason: answer.reason } : {});
        runtime.approve(proposal, {
          forSession: answer.forSession ?? false,
          ...(answer.rule ? { rule: answer.rule } : {}),
          ...(answer.review ? { review: answer.review } : {}),
        });
      }
      return runtime.execute(proposal, opts?.signal);
    },

    beginTurn() {
      budget.reset();
      pending.clear();
    },

    usage: () => budget.usage(),

    toResultMessage(call, outcome, now = clock()) {
      if (outcome.ok) {
        const message: ToolResultMessage = {
          role: "toolResult",
          toolCallId: call.id,
          toolName: call.name,
          isError: false,
          content: outcome.content,
          timestamp: now,
        };
        if (outcome.details) message.details = outcome.details;
        return message;
      }
      const { error } = outcome;
      return {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        isError: true,
        content: [{ type: "text", text: errorText(error) }],
        details: { ...(outcome.details ?? {}), errorCode: error.errorCode, retryable: error.retryable },
        timestamp: now,
      };
    },
  };
  return runtime;
}

/** The rule that covers exactly this call: the command's words, or the file. Null when none can (a command with a redirection, …). */
export function exactRule(proposal: Proposal): string | null {
  if (proposal.preview.kind === "diff") return proposal.preview.path;
  if (proposal.preview.kind !== "command") return null;
  const words = plainCommands(proposal.preview.command);
  if (!words.ok || words.commands.length !== 1 || words.commands[0].some((w) => /\s|\*/.test(w))) return null;
  return words.commands[0].join(" ");
}

function isBuiltInSideEffect(name: string): name is SideEffectToolName {
  return name === "write" || name === "edit" || name === "bash";
}

function callOf(proposal: Proposal): Pick<ToolCallInput, "id" | "name"> {
  return { id: proposal.toolCallId, name: proposal.toolName };
}

function sameProposal(a: Proposal, b: Proposal): boolean {
  return a === b || (a.toolName === b.toolName && a.fingerprint === b.fingerprint && JSON.stringify(a.args) === JSON.stringify(b.args));
}
