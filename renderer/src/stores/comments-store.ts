/**
 * Review comments on diff lines of the open session. Each is stored at once
 * as a reviewer note tied to its file and line (review.notes.add); the ones
 * not yet sent wait here until the user sends them to the agent as one
 * message ("Review comments: …"), the next turn.
 */
import { create } from "zustand";
import { client } from "../api/current";
import { useAppStore } from "./app-store";
import { useTurnStore } from "./turn-store";

export interface PendingComment {
  noteId: number;
  path: string;
  line: number;
  text: string;
}

/** Where a new comment goes: the file, the line in the file as changed, the entry it is about. */
export interface CommentTarget {
  sessionId: string;
  seq: number;
  path: string;
  line: number;
}

interface CommentsState {
  pending: Record<string, PendingComment[]>;
  /** The line the comment form is open on. */
  target: CommentTarget | null;
  setTarget(target: CommentTarget | null): void;
  add(target: CommentTarget, text: string): Promise<boolean>;
  remove(sessionId: string, noteId: number): Promise<void>;
  /** Sends the pending comments as the next message; false when it could not be sent. */
  send(sessionId: string): Promise<boolean>;
}

export const COMMENT_AUTHOR = "reviewer";

/** The message the agent gets: one line per comment, in file and line order. */
export function composeReviewMessage(comments: readonly PendingComment[]): string {
  const sorted = [...comments].sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
  return ["Review comments:", ...sorted.map((c) => `- ${c.path}:${c.line} — ${c.text.trim().replace(/\s*\n\s*/g, " ")}`)].join("\n");
}

export const useCommentsStore = create<CommentsState>((set, get) => ({
  pending: {},
  target: null,
  setTarget(target) {
    set({ target });
  },
  async add(target, text) {
    const body = text.trim();
    if (!body) return false;
    try {
      const note = await client().call("review.notes.add", {
        sessionId: target.sessionId,
        seq: target.seq,
        author: COMMENT_AUTHOR,
        verdict: null,
        text: body,
        path: target.path,
        line: target.line,
      });
      set((s) => ({
        target: null,
        pending: {
          ...s.pending,
          [target.sessionId]: [
            ...(s.pending[target.sessionId] ?? []),
            { noteId: note.id, path: target.path, line: target.line, text: body },
          ],
        },
      }));
      return true;
    } catch (err) {
      useAppStore.getState().reportError("Could not save the comment", err);
      return false;
    }
  },
  async remove(sessionId, noteId) {
    try {
      await client().call("review.notes.delete", { sessionId, noteId });
    } catch (err) {
      useAppStore.getState().reportError("Could not delete the comment", err);
      return;
    }
    set((s) => ({ pending: { ...s.pending, [sessionId]: (s.pending[sessionId] ?? []).filter((c) => c.noteId !== noteId) } }));
  },
  async send(sessionId) {
    const comments = get().pending[sessionId] ?? [];
    if (comments.length === 0) return false;
    const ok = await useTurnStore.getState().send(sessionId, composeReviewMessage(comments));
    if (ok) set((s) => ({ pending: { ...s.pending, [sessionId]: [] } }));
    return ok;
  },
}));
