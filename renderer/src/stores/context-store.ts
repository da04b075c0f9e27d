/**
 * How full each session's context is, as the core measures it before every
 * request and after each compaction (`context.meter`), or asks for it when a
 * session opens, its model changes or a turn ends.
 */
import { create } from "zustand";
import type { ContextMeter } from "../../../shared/api";
import { client } from "../api/current";

interface ContextState {
  meters: Record<string, ContextMeter | null>;
  set(meter: ContextMeter): void;
  /** Asks the core; a failure leaves the last value (the header falls back to the last request's size). */
  load(sessionId: string): Promise<void>;
}

export const useContextStore = create<ContextState>((set) => ({
  meters: {},
  set(meter) {
    set((s) => ({ meters: { ...s.meters, [meter.sessionId]: meter } }));
  },
  async load(sessionId) {
    try {
      const meter = await client().call("session.contextMeter", { sessionId });
      set((s) => ({ meters: { ...s.meters, [sessionId]: meter } }));
    } catch {
      // The meter is a convenience; the next request announces it again.
    }
  },
}));
