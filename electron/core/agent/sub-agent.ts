/**
 * Sub-agents (docs/sub-agents.md#sub-agents): the `task` tool starts an agent
 * with its own context on a described sub-task, in a session of its own
 * linked to the parent step, and answers with its final message.
 *
 * Contract:
 * - The child is an ordinary SessionAgent: its session is stored, replayable
 *   and forkable like any other, and every tool call in it is answered
 *   (docs/architecture.md#invariants), also when the tree is stopped.
 * - Its tools are a view on the parent's tool runtime (agent-tools.ts): the
 *   same policy, session rules, OS sandbox and per-turn tool budget; read-only
 *   unless the settings give sub-agents side effects, which are then approved
 *   through the child's own gate, shown in the parent's turn with the task's
 *   name.
 * - Caps hold, whatever the model asks: at most `maxPerTurn` sub-agents per
 *   root turn over the whole tree (counted when a call is accepted, so 24
 *   calls in one message start at most that many), at most `maxConcurrent` of
 *   one agent running at a time (the others wait for a place), and none below
 *   `maxDepth` levels. A refusal is a typed tool error the model reads.
 * - Stopping the parent's turn stops every sub-agent under it; each task call
 *   is still answered (ABORTED), after its child has stored its own answers.
 */
import type { PendingApproval, SessionMode, SessionSummary, SubAgentSettings, TurnState } from "../../../shared/api";
import {
  messageText,
  type AssistantMessage,
  type ModelRef,
  type ReasoningLevel,
  type StoredEntry,
  type ToolCall,
} from "../../../shared/protocol";
import type { SubAgentSessionInput } from "../store";
import { parseTaskArgs, subAgentErrors } from "../tools/agent-tools";
import type { TaskDescriptionCaps } from "../tools/descriptions";
import { failure, toolError } from "../tools/errors";
import { OUTPUT_MAX_BYTES, KB } from "../tools/limits";
import { truncateHead } from "../tools/truncate";
import type { ToolOutcome } from "../tools/types";
import type { SkillTools } from "../skills/skill-tool";
import { childToolPort, withAgentTools } from "./agent-tools";
import type { ToolRuntimePort } from "./ports";
import { errorText } from "./session-journal";

/** What a sub-agent needs of the agent that starts it (SessionAgent implements it). */
export interface ParentAgent {
  readonly sessionId: string;
  currentModel(): ModelRef | null;
  reasoningLevel(): ReasoningLevel;
  currentMode(): SessionMode;
  /** The seq of the stored assistant entry holding this tool call, or null. */
  seqOfCall(toolCallId: string): number | null;
  /** A child's turn state changed (an approval waits or was answered): announce the parent's. */
  announceState(): void;
}

/** A running child, as the runner drives it (a SessionAgent). */
export interface ChildAgent {
  readonly sessionId: string;
  send(text: string): unknown;
  abort(): void;
  idle(): Promise<void>;
  turnState(): TurnState;
}

/** What the core provides to start sub-agents (api/sub-agent-host.ts). */
export interface SubAgentHost {
  settings(): SubAgentSettings;
  /** Why the model cannot be used (no key, unknown), or null. */
  modelProblem(ref: ModelRef): string | null;
  /** Stores the child's session (and announces it). */
  createSession(input: SubAgentSessionInput): SessionSummary;
  /** An agent for the child's session with these tools, registered so the API finds it (approvals, Stop, load). */
  startChild(input: {
    session: SessionSummary;
    mode: SessionMode;
    tools: ToolRuntimePort;
    subAgents: SubAgents;
    onState: () => void;
  }): ChildAgent;
  /** The task call ended: the child's session becomes an ordinary one. */
  release(sessionId: string): void;
  loadEntries(sessionId: string): StoredEntry[];
  /** The workspace's skill tool, which sub-agents get too (docs/conventions.md#skills). */
  skills?: SkillTools;
}

/** State shared by every agent of one root turn's tree. */
export class AgentTree {
  /** Sub-agents started in this root turn, at any depth. */
  started = 0;
  /** Side-effect calls of sub-agents go one at a time (a proposal is keyed by its call id in the shared runtime). */
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with the release function once the previous holder released. */
  lockSideEffects(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return ready;
  }
}

/** Waiting places for running sub-agents; the limit is read at each acquire (Settings apply at the next call). */
class Slots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: () => number) {}

  /** False when the signal aborted first. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    if (this.active < this.limit()) {
      this.active++;
      return true;
    }
    return new Promise<boolean>((resolve) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(wake);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      };
      const wake = () => {
        signal.removeEventListener("abort", onAbort);
        this.active++;
        resolve(true);
      };
      this.waiting.push(wake);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  release(): void {
    this.active--;
    while (this.waiting.length > 0 && this.active < this.limit()) this.waiting.shift()?.();
  }
}

/** The task tool's caps for an agent `depth` levels below the main one; null: it may not start sub-agents. */
export function taskCapsAt(s: SubAgentSettings, depth: number): TaskDescriptionCaps | null {
  if (depth >= s.maxDepth) return null;
  return { maxPerTurn: s.maxPerTurn, maxConcurrent: s.maxConcurrent, childCanDelegate: depth + 1 < s.maxDepth, sideEffects: s.sideEffects };
}

/** The first message of a sub-agent's session: what it is, then the task as the parent wrote it. */
export function subAgentPrompt(description: string, prompt: string): string {
  return `[Agent Workbench] You are a sub-agent, started by another agent for one sub-task ("${description}"). Work on the task below with your tools, then end with one final answer for that agent: what you found or did, with paths and line numbers where they help. It reads only that final answer, not your tool calls. Nobody will answer questions: make reasonable assumptions and say which.

Task:
${prompt}`;
}

interface Running {
  agent: ChildAgent;
  name: string;
}

/** The sub-agents one agent starts (one instance per agent; children get their own, one level deeper). */
export class SubAgents {
  private parent: ParentAgent | null = null;
  private readonly running = new Map<string, Running>();
  private readonly slots: Slots;

  constructor(
    private readonly host: SubAgentHost,
    /** The root session's tool runtime, which every agent of the tree shares. */
    readonly rootTools: ToolRuntimePort,
    readonly depth = 0,
    private tree = new AgentTree(),
  ) {
    this.slots = new Slots(() => this.host.settings().maxConcurrent);
  }

  attach(parent: ParentAgent): void {
    this.parent = parent;
  }

  /** The root agent's turn begins: a fresh count for its tree. A sub-agent's turn is part of its parent's. */
  beginTurn(): void {
    if (this.depth === 0) this.tree = new AgentTree();
  }

  get agentTree(): AgentTree {
    return this.tree;
  }

  /** What the task tool's description promises, or null when this agent may not start sub-agents. */
  taskCaps(): TaskDescriptionCaps | null {
    return taskCapsAt(this.host.settings(), this.depth);
  }

  /** The first approval a sub-agent of this tree waits for, named after its task. */
  pendingApproval(): PendingApproval | null {
    for (const { agent, name } of this.running.values()) {
      const pending = agent.turnState().pendingApproval;
      // A grandchild's request keeps its own name.
      if (pending) return pending.agent ? pending : { ...pending, agent: { name } };
    }
    return null;
  }

  /** The task tool: never throws; every path ends in one outcome. */
  async run(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
    const parsed = parseTaskArgs(call.arguments);
    if (!parsed.ok) return failure(parsed.error);
    const settings = this.host.settings();
    if (this.depth >= settings.maxDepth) return failure(subAgentErrors.depth(settings.maxDepth));
    if (this.tree.started >= settings.maxPerTurn) return failure(subAgentErrors.perTurn(settings.maxPerTurn));
    const parent = this.parent;
    if (!parent) return failure(subAgentErrors.noModel("this agent cannot start sub-agents"));
    const model = settings.model ?? parent.currentModel();
    if (!model) return failure(subAgentErrors.noModel("no model is selected for sub-agents"));
    const problem = this.host.modelProblem(model);
    if (problem) return failure(subAgentErrors.noModel(problem));
    // Counted now, before waiting for a place: the calls of one message cannot all pass the check together.
    this.tree.started++;
    if (!(await this.slots.acquire(signal))) return failure(stopped(parsed.value.description));
    try {
      return await this.runChild(parent, call, model, parsed.value, signal);
    } catch (err) {
      // A store failure creating the session, or a bug: the call is still answered.
      return failure(subAgentErrors.failed(errorText(err)));
    } finally {
      this.slots.release();
    }
  }

  private async runChild(
    parent: ParentAgent,
    call: ToolCall,
    model: ModelRef,
    task: { description: string; prompt: string },
    signal: AbortSignal,
  ): Promise<ToolOutcome> {
    if (signal.aborted) return failure(stopped(task.description));
    const session = this.host.createSession({
      title: task.description,
      model,
      reasoning: parent.reasoningLevel(),
      parentSessionId: parent.sessionId,
      parentSeq: parent.seqOfCall(call.id) ?? 0,
      parentToolCallId: call.id,
    });
    const subAgents = new SubAgents(this.host, this.rootTools, this.depth + 1, this.tree);
    const tools = withAgentTools(
      childToolPort(this.rootTools, this.tree, () => this.host.settings().sideEffects),
      subAgents,
      this.host.skills,
    );
    const child = this.host.startChild({ session, mode: parent.currentMode(), tools, subAgents, onState: () => parent.announceState() });
    this.running.set(session.id, { agent: child, name: task.description });
    const stop = () => child.abort();
    signal.addEventListener("abort", stop, { once: true });
    try {
      child.send(subAgentPrompt(task.description, task.prompt));
      await child.idle();
    } finally {
      signal.removeEventListener("abort", stop);
      this.running.delete(session.id);
      this.host.release(session.id);
      parent.announceState();
    }
    return outcomeOf(session, this.host.loadEntries(session.id), signal.aborted);
  }
}

function stopped(description: string) {
  return toolError(
    "ABORTED",
    `The sub-agent "${description}" was stopped: the user stopped the turn.`,
    "Do not retry it unless the user asks.",
  );
}

/** The task call's answer, from what the child stored. */
function outcomeOf(session: SessionSummary, entries: readonly StoredEntry[], aborted: boolean): ToolOutcome {
  const answers: AssistantMessage[] = [];
  for (const { entry } of entries) if (entry.type === "message" && entry.message.role === "assistant") answers.push(entry.message);
  let toolCalls = 0;
  let tokens = 0;
  let cost = 0;
  for (const m of answers) {
    for (const b of m.content) if (b.type === "toolCall") toolCalls++;
    tokens += m.usage.totalTokens;
    cost += m.usage.cost.total;
  }
  const details = { subAgent: { sessionId: session.id, title: session.title, requests: answers.length, toolCalls, tokens, cost } };
  const last = answers.at(-1);
  if (aborted) return failure(stopped(session.title), details);
  if (!last) return failure(subAgentErrors.failed("it made no request"), details);
  if (last.stopReason === "aborted")
    return failure(
      toolError(
        "ABORTED",
        `The user stopped the sub-agent "${session.title}" before it answered.`,
        "Do not retry it unless the user asks.",
      ),
      details,
    );
  if (last.stopReason === "error") return failure(subAgentErrors.failed(last.errorMessage ?? "its request failed"), details);
  const text = messageText(last).trim() || "(it gave no text)";
  const { kept, truncated } = truncateHead(text.split("\n"), Number.MAX_SAFE_INTEGER, OUTPUT_MAX_BYTES);
  const answer = truncated ? `${kept.join("\n")}\n[The answer was cut at ${KB(OUTPUT_MAX_BYTES)}; the whole one is in its session.]` : text;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  return {
    ok: true,
    content: [
      {
        type: "text",
        text: `Sub-agent "${session.title}" finished after ${plural(answers.length, "request")} and ${plural(toolCalls, "tool call")}; its transcript is session ${session.id}.\n\nIts final answer:\n\n${answer}`,
      },
    ],
    details,
  };
}
