/**
 * The reviewer's per-hunk decisions on a pending write/edit proposal, keyed
 * by tool-call id: shared by the approval card (the hunk list) and the diff
 * panel (Monaco decorations, the hunk toolbar, editing the proposal).
 */
import { create } from "zustand";
import type { ChangeReview, HunkDecision } from "../../../shared/hunks";

export interface HunkReview {
  decisions: HunkDecision[];
  /** The hunk the keyboard acts on. */
  current: number;
  /** The user's own text for the file while they edit the proposal; null: not editing. */
  edited: string | null;
}

interface HunkReviewState {
  reviews: Record<string, HunkReview>;
  /** Starts a review with every hunk accepted (no-op when it exists). */
  start(key: string, count: number): void;
  decide(key: string, index: number, decision: HunkDecision): void;
  /** Sets the current hunk's decision and moves to the next one. */
  decideCurrent(key: string, decision: HunkDecision): void;
  move(key: string, delta: number): void;
  setCurrent(key: string, index: number): void;
  setEdited(key: string, text: string | null): void;
  clear(key: string): void;
}

const update = (s: HunkReviewState, key: string, fn: (r: HunkReview) => HunkReview) => {
  const r = s.reviews[key];
  return r ? { reviews: { ...s.reviews, [key]: fn(r) } } : {};
};

export const useHunkReviewStore = create<HunkReviewState>((set) => ({
  reviews: {},
  start(key, count) {
    set((s) =>
      s.reviews[key]
        ? {}
        : { reviews: { ...s.reviews, [key]: { decisions: Array<HunkDecision>(count).fill("accepted"), current: 0, edited: null } } },
    );
  },
  decide(key, index, decision) {
    set((s) =>
      update(s, key, (r) => {
        if (index < 0 || index >= r.decisions.length || r.decisions[index] === decision) return { ...r, current: index };
        const decisions = r.decisions.slice();
        decisions[index] = decision;
        return { ...r, decisions, current: index };
      }),
    );
  },
  decideCurrent(key, decision) {
    set((s) =>
      update(s, key, (r) => {
        const decisions = r.decisions.slice();
        decisions[r.current] = decision;
        return { ...r, decisions, current: Math.min(r.current + 1, decisions.length - 1) };
      }),
    );
  },
  move(key, delta) {
    set((s) => update(s, key, (r) => ({ ...r, current: Math.max(0, Math.min(r.decisions.length - 1, r.current + delta)) })));
  },
  setCurrent(key, index) {
    set((s) => update(s, key, (r) => ({ ...r, current: Math.max(0, Math.min(r.decisions.length - 1, index)) })));
  },
  setEdited(key, text) {
    set((s) => update(s, key, (r) => ({ ...r, edited: text })));
  },
  clear(key) {
    set((s) => {
      if (!s.reviews[key]) return {};
      const reviews = { ...s.reviews };
      delete reviews[key];
      return { reviews };
    });
  },
}));

/** What to send with an approval: nothing when every hunk is accepted and the text was not edited. */
export function reviewToSend(review: HunkReview | undefined): ChangeReview | undefined {
  if (!review) return undefined;
  if (review.edited !== null) return { kind: "edited", after: review.edited };
  if (review.decisions.every((d) => d === "accepted")) return undefined;
  return { kind: "hunks", decisions: review.decisions };
}
