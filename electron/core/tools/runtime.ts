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
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChangeReview, HunkDecision } from "../../../shared/hunks";
import type { AuditEvent } from "./audit";
import { DEFAULT_RUN_BUDGET, TurnBudget } from "./budget";
import { unsandboxedByUser, type BashSettings, type ToolContext } from "./context";
import { childEnvironment } from "./env";
import { errors, failure, toolError } from "./errors";
import { runGuarded } from "./guarded";
import { READONLY_TIMEOUT_MS } from "./limits";
import { candidatePaths, pathsInside } from "./approval/operand-places";
import { DEFAULT_TOOL_POLICY, evaluatePolicy, type PolicyContext, type PolicyRule, type SideEffectToolName } from "./approval/policy";
import { callOf, exactRule, isBuiltInSideEffect, ruleProblem, sameProposal } from "./approval/proposal-rules";
import { workspaceCodeNotes } from "./approval/workspace-code";
import { findTool as findBuiltIn, TOOL_NAMES, type Planned, type SideEffectDef, type ToolDef } from "./registry";
import type { ToolCallInput, ToolRuntime, ToolRuntimeOptions, UserAnswer } from "./runtime-types";
import { Sandbox } from "./sandbox";
import { ensureShellParser } from "./shell-parse";
import { bashPlacement, builtInToolSpecs, findOnPath } from "./tool-specs";
import { outcomeBytes, toResultMessage } from "./tool-outcome";
import type { Proposal, Result, SideEffectTier, ToolError, ToolOutcome } from "./types";

export type { ToolCallInput, ToolRuntime, ToolRuntimeOptions, UserAnswer } from "./runtime-types";

interface Pending {
  proposal: Proposal;
  state: "proposed" | "approved" | "policyDenied";
  rule?: string;
  review?: ChangeReview;
  /** "Run unsandboxed": this bash call only, outside the OS sandbox. */
  unsandboxed?: boolean;
  /** The command's paths that are inside the workspace (operand-places.ts), for the rules. */
  inside?: ReadonlySet<string>;
}

/** The environment with TRACEPARENT set (a valid W3C value only), or the same object when there is none. */
function traceEnv<E extends Record<string, string | undefined>>(env: E, traceparent: string | null): E {
  if (traceparent === null || !/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/u.test(traceparent)) return env;
  return { ...env, TRACEPARENT: traceparent };
}

export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  // Functions are read at every decision and every budget check: a change in Settings applies at once.
  const { policy: policyOption, budget: budgetOption } = options;
  const policy = typeof policyOption === "function" ? policyOption : () => policyOption ?? DEFAULT_TOOL_POLICY;
  const budget = new TurnBudget(typeof budgetOption === "function" ? budgetOption : () => budgetOption ?? DEFAULT_RUN_BUDGET);
  const clock = options.now ?? Date.now;
  const hostEnv = options.env ?? process.env;
  const env = childEnvironment(hostEnv);
  const rgPath = options.rgPath === undefined ? findOnPath("rg") : options.rgPath;
  const outputDir = options.outputDir ?? join(tmpdir(), "agent-workbench-tool-output");
  const sessionRules: PolicyRule[] = [];
  const bash: BashSettings = {
    ...bashPlacement(options),
    // Where cut output is saved is the app's, not the command's.
    hidden: [...(options.bashHidden ?? []), outputDir],
    runtimeFolders: [hostEnv.XDG_RUNTIME_DIR, hostEnv.TMPDIR, hostEnv.TMP, hostEnv.TEMP].filter((d): d is string => !!d),
  };
  const sessionAllowed = new Set<string>();
  const pending = new Map<string, Pending>();
  /** Set for a turn whose side effects must all be asked (headless --approve none / read-only). */
  let askEach: string | undefined;
  const policyContext = (proposal: Proposal): PolicyContext => {
    const inside = pending.get(proposal.toolCallId)?.inside;
    return { ...(inside ? { inside: (p: string) => inside.has(p) } : {}), ...(askEach ? { askEach } : {}) };
  };
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
    const webFetch = { env: hostEnv, ...(options.webFetch?.() ?? { caFile: null, allowPrivate: false }) };
    return { ok: true, value: { sandbox: sb.value, signal, env, rgPath, outputDir, outputKept: options.onOutputKept, bash, webFetch } };
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
      const outcome = await runGuarded(
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
      const planned = await runGuarded<Result<Planned>>(
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
      let inside: ReadonlySet<string> | undefined;
      if (p.preview.kind === "command") {
        await ensureShellParser();
        inside = await pathsInside(options.workspaceRoot, candidatePaths(p.preview.command, p.preview.cwd));
        const notes = workspaceCodeNotes(p.preview.command);
        if (notes.length > 0) p.preview = { ...p.preview, runsWorkspaceCode: notes };
      }
      const proposal: Proposal = { toolCallId: call.id, toolName: call.name, args: valid.args, preview: p.preview };
      if (p.fingerprint !== undefined) proposal.fingerprint = p.fingerprint;
      pending.set(call.id, { proposal, state: "proposed", ...(inside ? { inside } : {}) });
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
      const saved = options.externalAllowed?.();
      const allowed = saved && saved.size > 0 ? new Set([...sessionAllowed, ...saved]) : sessionAllowed;
      const verdict = evaluatePolicy(
        policy(),
        [...sessionRules, ...(options.rules?.() ?? [])],
        proposal.toolName,
        proposal.preview,
        allowed,
        policyContext(proposal),
      );
      // The policy words every external allow as "for this session"; a saved one says where it comes from.
      if (verdict.action === "allow" && !sessionAllowed.has(proposal.toolName) && saved?.has(proposal.toolName))
        return { ...verdict, rule: `${proposal.toolName}: always allowed in this workspace` };
      return verdict;
    },

    checkRule: (proposal, pattern, action) => ruleProblem(proposal, pattern, action, policyContext(proposal)),

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
      const outcome = await runGuarded(
        signal,
        null,
        async (s) => {
          const ctx = await context(s);
          if (!ctx.ok) return failure(ctx.error);
          const traced = traceEnv(ctx.value.env, options.traceparent?.(entry.proposal.toolCallId) ?? null);
          const base = traced === ctx.value.env ? ctx.value : { ...ctx.value, env: traced };
          const callCtx = entry.unsandboxed ? { ...base, bash: unsandboxedByUser(base.bash) } : base;
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

    beginTurn(turn) {
      budget.reset();
      pending.clear();
      askEach = turn?.askEach;
    },

    usage: () => budget.usage(),

    toResultMessage: (call, outcome, now = clock()) => toResultMessage(call, outcome, now),
  };
  return runtime;
}
