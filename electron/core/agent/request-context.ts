/**
 * The context of one model request: the system prompt, the history and the
 * tools offered. The loop builds every request with it, and "what the model
 * saw" (review/model-view.ts) rebuilds past requests with the same code, so
 * the two cannot drift apart.
 */
import type { SessionMode } from "../../../shared/api";
import type { ModelInfo } from "../../../shared/models";
import type { Message } from "../../../shared/protocol";
import type { LlmContext, ToolSpec } from "../providers/types";
import { buildSystemPrompt } from "./system-prompt";
import { textTokens } from "./tokens";

export interface RequestContextInput {
  model: ModelInfo;
  /** When the request is sent (the prompt shows its date). */
  now: number;
  /** Every tool of the session; Ask mode offers the read-only ones. */
  tools: ToolSpec[];
  mode: SessionMode;
  /** The AGENTS.md section ("" when there is none). */
  instructions: string;
  history: readonly Message[];
}

export class RequestContextBuilder {
  private readOnlyOf: { all: ToolSpec[]; readOnly: ToolSpec[] } | null = null;
  private overheadOf: { prompt: string; tools: readonly ToolSpec[]; tokens: number } | null = null;
  private prompt: { date: string; tools: ToolSpec[]; instructions: string; mode: SessionMode; text: string } | null = null;

  constructor(
    private readonly env: {
      workspaceRoot: string;
      platform: string;
      /** Side-effect tools are left out in Ask mode. */
      isSideEffect(name: string): boolean;
    },
  ) {}

  build(input: RequestContextInput): LlmContext {
    const tools = input.mode === "ask" ? this.readOnlyTools(input.tools) : input.tools;
    return {
      systemPrompt: this.systemPrompt(input, tools),
      // A copy: the history grows while a request built from it may still be in flight.
      messages: input.history.slice(),
      // A model that takes no input types (none listed) is offered no tools.
      tools: input.model.input.length > 0 ? tools : [],
    };
  }

  /** The token estimate of a context's system prompt and tools (cached while they stay the same objects). */
  overhead(context: LlmContext): number {
    const { systemPrompt, tools = [] } = context;
    const o = this.overheadOf;
    if (o !== null && o.prompt === systemPrompt && o.tools === tools) return o.tokens;
    const tokens = textTokens(systemPrompt) + (tools.length > 0 ? textTokens(JSON.stringify(tools)) : 0);
    this.overheadOf = { prompt: systemPrompt, tools, tokens };
    return tokens;
  }

  /** Ask mode's offer: the same array for the same specs (request builders key their caches on it). */
  private readOnlyTools(all: ToolSpec[]): ToolSpec[] {
    if (this.readOnlyOf?.all !== all) this.readOnlyOf = { all, readOnly: all.filter((t) => !this.env.isSideEffect(t.name)) };
    return this.readOnlyOf.readOnly;
  }

  /** The same text for every request of a day (it only shows the date), as prompt caches want. */
  private systemPrompt(input: RequestContextInput, tools: ToolSpec[]): string {
    const date = new Date(input.now).toISOString().slice(0, 10);
    const { instructions, mode } = input;
    const p = this.prompt;
    if (p !== null && p.date === date && p.tools === tools && p.instructions === instructions && p.mode === mode) return p.text;
    const text = buildSystemPrompt({
      workspaceRoot: this.env.workspaceRoot,
      platform: this.env.platform,
      now: input.now,
      tools,
      instructions,
      mode,
    });
    this.prompt = { date, tools, instructions, mode, text };
    return text;
  }
}
