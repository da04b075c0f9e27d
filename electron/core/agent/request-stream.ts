/**
 * One model request of a turn: streamed, with partial messages coalesced for
 * the UI, retried on retryable errors (each failed attempt stored for the
 * record), and turned into "compact and retry" on a context overflow.
 * Never throws: an adapter that throws still yields an error message.
 */
import { emptyUsage, type AssistantMessage, type ModelRef, type ReasoningLevel } from "../../../shared/protocol";
import type { LlmContext } from "../providers/types";
import type { AgentDeps, ResolvedModel } from "./ports";
import { MAX_RETRIES, abortableDelay, planRetry, waitTooLongNote } from "./retry";
import { errorText } from "./session-journal";

const PARTIAL_EMIT_INTERVAL_MS = 33;

export interface RequestHost {
  readonly deps: AgentDeps;
  readonly sessionId: string;
  /** The request's context, built when the attempt starts (the model may have switched between attempts). */
  context(resolved: ResolvedModel): LlmContext;
  reasoning(): ReasoningLevel;
  /** The session's current model for a retry, or null when it cannot be used any more. */
  resolveCurrent(): ResolvedModel | null;
  /** Stores a failed attempt. */
  record(message: AssistantMessage): void;
  /** The body this attempt sent, byte for byte (undefined: nothing went out), stored with the message it gets. */
  sent?(raw: string | undefined): void;
}

type Attempt =
  | { kind: "done"; message: AssistantMessage }
  | { kind: "error"; message: AssistantMessage; retryable: boolean; retryAfterMs?: number; contextOverflow?: boolean };

/** One request, retried on retryable errors; failed attempts are stored for the record. */
export async function requestWithRetries(
  host: RequestHost,
  resolved: ResolvedModel,
  signal: AbortSignal,
  mayCompact: () => boolean,
): Promise<AssistantMessage | "compactAndRetry"> {
  const { deps, sessionId } = host;
  for (let attempt = 0; ; attempt++) {
    const current = attempt === 0 ? resolved : (host.resolveCurrent() ?? resolved);
    const outcome = await streamOnce(host, current, signal);
    if (outcome.kind === "done") return outcome.message;
    const { message, retryable, retryAfterMs, contextOverflow } = outcome;
    if (message.stopReason === "aborted" || signal.aborted) return { ...message, stopReason: "aborted" };
    if (contextOverflow && mayCompact()) {
      host.record(message);
      return "compactAndRetry";
    }
    if (!retryable || attempt >= MAX_RETRIES) return message;
    const plan = planRetry(attempt + 1, retryAfterMs);
    if (!plan.retry)
      return { ...message, errorMessage: `${message.errorMessage ?? "provider error"} ${waitTooLongNote(plan.waitMs, deps.now())}` };
    host.record(message);
    const { delayMs, hinted } = plan;
    deps.emit("turn.retry", { sessionId, attempt: attempt + 1, delayMs, hinted, error: message.errorMessage ?? "provider error" });
    try {
      await (deps.sleep ?? abortableDelay)(delayMs, signal);
    } catch {
      return { ...message, stopReason: "aborted", content: [], errorMessage: "aborted while waiting to retry" };
    }
  }
}

async function streamOnce(host: RequestHost, resolved: ResolvedModel, signal: AbortSignal): Promise<Attempt> {
  const { deps, sessionId } = host;
  const context = host.context(resolved);
  let lastEmit = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let latest: AssistantMessage | null = null;
  let sent: string | undefined;
  const flush = () => {
    timer = null;
    if (latest) deps.emit("stream.partial", { sessionId, message: latest });
    lastEmit = Date.now();
  };
  try {
    const level = host.reasoning();
    const options = {
      signal,
      // "default" asks for nothing: the model's own default. Builders send a level only to models that take it.
      reasoning: level === "default" ? undefined : level,
      demoteOtherReasoning: deps.demoteOtherReasoning?.() ?? false,
      // The session's requests share a prompt cache where the API keys one (Responses).
      sessionId,
      onSentBody: (raw: string) => {
        sent = raw;
      },
    };
    for await (const event of deps.stream(resolved, context, options)) {
      if (event.type === "done") return { kind: "done", message: deps.computeCost(resolved.model, event.message) };
      if (event.type === "error") {
        return {
          kind: "error",
          message: deps.computeCost(resolved.model, event.message),
          retryable: event.retryable,
          retryAfterMs: event.retryAfterMs,
          contextOverflow: event.contextOverflow,
        };
      }
      // Coalesce partial updates: the UI needs at most one per frame.
      latest = event.partial;
      if (timer === null) {
        const wait = Math.max(0, PARTIAL_EMIT_INTERVAL_MS - (Date.now() - lastEmit));
        if (wait === 0) flush();
        else timer = setTimeout(flush, wait);
      }
    }
    return {
      kind: "error",
      message: failedRequest(resolved.model, "the provider stream ended without a final message", deps.now()),
      retryable: true,
    };
  } catch (err) {
    // Adapters must not throw; if one does, it is still an error message, not a crash.
    return { kind: "error", message: failedRequest(resolved.model, errorText(err), deps.now()), retryable: false };
  } finally {
    if (timer !== null) clearTimeout(timer);
    host.sent?.(sent);
  }
}

/** An assistant message that records a turn or request which failed without a usable response. */
export function failedRequest(model: ModelRef, text: string, timestamp: number): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    stopReason: "error",
    model: { provider: model.provider, api: model.api, id: model.id },
    usage: emptyUsage(),
    errorMessage: text,
    timestamp,
  };
}
