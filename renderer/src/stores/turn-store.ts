/** Turn state per session: running/awaiting approval, queued messages, retries, errors. */
import { create } from "zustand";
import {
  WorkbenchApiError,
  type EventPayload,
  type Mention,
  type PromptCommandCall,
  type RequestParams,
  type TurnState,
} from "../../../shared/api";
import type { ChangeReview } from "../../../shared/hunks";
import type { ImageContent } from "../../../shared/protocol";
import { client } from "../api/current";
import { useAppStore } from "./app-store";

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  /** The wait is the provider's own (retry-after), not the app's backoff. */
  hinted: boolean;
  error: string;
  at: number;
}

export type ApprovalDecision = RequestParams<"approval.answer">["decision"];

/** A message the core could not save (its store refused the write): held here until Retry sends it again. */
export interface UnsentMessage {
  text: string;
  images: ImageContent[];
  mentions: Mention[];
}

interface TurnStoreState {
  turns: Record<string, TurnState>;
  retries: Record<string, RetryInfo | null>;
  errors: Record<string, string | null>;
  /** Per session, the message the core's store refused (disk full, locked…); Retry sends it again. */
  unsent: Record<string, UnsentMessage | null>;
  /** Approvals answered locally and not yet confirmed by a turn.state (prevents double answers). */
  answering: Record<string, string | null>;

  setTurn(turn: TurnState): void;
  /** Turns running or waiting for approval in any session (the list's badges after a reload). */
  loadActive(): Promise<void>;
  setRetry(payload: EventPayload<"turn.retry">): void;
  setError(sessionId: string, message: string | null): void;

  /**
   * Sends a message with any attached images (`command`: a prompt template the core expands); while a turn runs it
   * is a follow-up, or with `steer` it joins the turn at its next tool boundary
   * (docs/sub-agents.md#steering-and-follow-ups). False when it could not be sent (reported). A message the core's
   * store refused is held as `unsent` with the reason as the session's error, and counts as taken (true): Retry
   * sends it again.
   */
  send(
    sessionId: string,
    text: string,
    images?: ImageContent[],
    mentions?: Mention[],
    command?: PromptCommandCall,
    steer?: boolean,
  ): Promise<boolean>;
  /** Sends the held unsent message again; true when the core took it. */
  retryUnsent(sessionId: string): Promise<boolean>;
  /** Retry after a failed request: the core runs the turn again without a second copy of the message. */
  retryTurn(sessionId: string): Promise<boolean>;
  abort(sessionId: string): Promise<void>;
  /**
   * `rule`: what approveForSession / approveAlways / denyAlways allow or deny from now on (docs/approvals.md).
   * `review`: per-hunk decisions or the user's edit of a write/edit proposal (docs/change-review.md).
   */
  answer(
    sessionId: string,
    toolCallId: string,
    decision: ApprovalDecision,
    options?: { reason?: string; rule?: string; review?: ChangeReview },
  ): Promise<void>;
}

export function idleTurn(sessionId: string): TurnState {
  return { sessionId, mode: "agent", status: "idle", queued: [], pendingApproval: null };
}

export const useTurnStore = create<TurnStoreState>((set, get) => ({
  turns: {},
  retries: {},
  errors: {},
  unsent: {},
  answering: {},

  setTurn(turn) {
    set((s) => {
      const prev = s.turns[turn.sessionId];
      const starting = (!prev || prev.status === "idle") && turn.status !== "idle";
      return {
        turns: { ...s.turns, [turn.sessionId]: turn },
        retries: turn.status === "idle" || starting ? { ...s.retries, [turn.sessionId]: null } : s.retries,
        errors: starting ? { ...s.errors, [turn.sessionId]: null } : s.errors,
        answering:
          turn.pendingApproval?.toolCallId === s.answering[turn.sessionId] ? s.answering : { ...s.answering, [turn.sessionId]: null },
      };
    });
  },

  async loadActive() {
    try {
      for (const turn of await client().call("chat.activeTurns", {})) get().setTurn(turn);
    } catch {
      // Badges are a convenience; the open session's own state comes with its load.
    }
  },

  setRetry(p) {
    set((s) => ({
      retries: {
        ...s.retries,
        [p.sessionId]: { attempt: p.attempt, delayMs: p.delayMs, hinted: p.hinted ?? false, error: p.error, at: Date.now() },
      },
    }));
  },

  setError(sessionId, message) {
    set((s) => ({ errors: { ...s.errors, [sessionId]: message } }));
  },

  async send(sessionId, text, images = [], mentions = [], command, steer = false) {
    try {
      set((s) => ({ errors: { ...s.errors, [sessionId]: null } }));
      await client().call("chat.send", {
        sessionId,
        text,
        ...(images.length > 0 ? { images } : {}),
        ...(mentions.length > 0 ? { mentions } : {}),
        ...(command ? { command } : {}),
        ...(steer ? { delivery: "steer" as const } : {}),
      });
      set((s) => ({ unsent: { ...s.unsent, [sessionId]: null } }));
      return true;
    } catch (err) {
      if (err instanceof WorkbenchApiError && err.error.code === "STORAGE") {
        // Nothing ran and nothing was stored: hold the message under the reason, for Retry.
        set((s) => ({
          errors: { ...s.errors, [sessionId]: err.message },
          unsent: { ...s.unsent, [sessionId]: { text, images, mentions } },
        }));
        return true;
      }
      useAppStore.getState().reportError("Could not send the message", err);
      return false;
    }
  },

  async retryUnsent(sessionId) {
    const held = get().unsent[sessionId];
    if (!held) return false;
    await get().send(sessionId, held.text, held.images, held.mentions);
    return get().unsent[sessionId] === null;
  },

  async retryTurn(sessionId) {
    try {
      set((s) => ({ errors: { ...s.errors, [sessionId]: null } }));
      await client().call("chat.retry", { sessionId });
      return true;
    } catch (err) {
      useAppStore.getState().reportError("Could not retry the turn", err);
      return false;
    }
  },

  async abort(sessionId) {
    try {
      await client().call("chat.abort", { sessionId });
    } catch (err) {
      useAppStore.getState().reportError("Could not stop the turn", err);
    }
  },

  async answer(sessionId, toolCallId, decision, options = {}) {
    if (get().answering[sessionId] === toolCallId) return;
    set((s) => ({ answering: { ...s.answering, [sessionId]: toolCallId } }));
    try {
      await client().call("approval.answer", {
        sessionId,
        toolCallId,
        decision,
        ...(options.reason ? { reason: options.reason } : {}),
        ...(options.rule ? { rule: options.rule } : {}),
        ...(options.review ? { review: options.review } : {}),
      });
    } catch (err) {
      set((s) => ({ answering: { ...s.answering, [sessionId]: null } }));
      useAppStore.getState().reportError("Could not answer the approval", err);
    }
  },
}));

export function useTurn(sessionId: string | null): TurnState | null {
  return useTurnStore((s) => (sessionId ? (s.turns[sessionId] ?? null) : null));
}
