/**
 * How many tokens the next request will carry. The provider's own count of
 * the last answered request (input, cache and output of its answer) plus the
 * estimate of what was added since; before any answer on the current view, the
 * estimate of the whole view plus the system prompt and tools. Estimates are
 * scaled by how far they fell short of the provider's count last time (never
 * below 1: an estimate is not trusted to overstate). O(1) per message and per
 * question: prefix sums kept as messages are added.
 */
import type { Message } from "../../../shared/protocol";
import { messageTokens } from "./tokens";

/** The scale never grows past this: one odd count must not make every estimate absurd. */
const MAX_FACTOR = 4;

export class ContextLedger {
  /** prefix[i]: estimate of the first i messages of the view. */
  private prefix: number[] = [0];
  /** Messages from this index on were answered on the current view (the ones before were kept by a compaction). */
  private liveFrom = 0;
  /** The last answer on the current view with usage: its index, the request size it implies, and that request's prompt and tools. */
  private counted: { index: number; tokens: number; overhead: number | null } | null = null;
  /** While the view is rebuilt from storage: the prompt and tools of the requests then are not known (taken as now's). */
  private loading = false;
  private factor = 1;
  private overhead = 0;

  /** The view was (re)built; `liveFrom`: the first message added after the latest compaction. */
  reset(view: readonly Message[], liveFrom: number): void {
    this.prefix = [0];
    this.counted = null;
    this.liveFrom = liveFrom;
    this.loading = true;
    for (const m of view) this.push(m);
    this.loading = false;
  }

  push(m: Message): void {
    const index = this.prefix.length - 1;
    this.prefix.push(this.prefix[index] + messageTokens(m));
    if (m.role !== "assistant" || index < this.liveFrom || m.stopReason === "error" || m.stopReason === "aborted") return;
    const tokens = m.usage.input + m.usage.cacheRead + m.usage.cacheWrite + m.usage.output;
    if (tokens === 0) return;
    if (!this.loading) {
      const estimated = this.prefix[index + 1] + this.overhead;
      if (estimated > 0) this.factor = Math.min(MAX_FACTOR, Math.max(1, tokens / estimated));
    }
    this.counted = { index, tokens, overhead: this.loading ? null : this.overhead };
  }

  /** The provider ran out of room where the estimate said there was some: estimate more from now on. */
  underestimated(): void {
    this.factor = Math.min(MAX_FACTOR, this.factor * 1.25);
  }

  /** The next request's size; `overhead`: the estimate of its system prompt and tools. */
  nextRequest(overhead: number): number {
    this.overhead = overhead;
    const total = this.prefix[this.prefix.length - 1];
    const c = this.counted;
    // What came after the counted answer, and the difference in prompt and tools (the final request at a limit has none).
    if (c !== null)
      return Math.max(0, c.tokens + Math.ceil((total - this.prefix[c.index + 1] + overhead - (c.overhead ?? overhead)) * this.factor));
    return Math.ceil((total + overhead) * this.factor);
  }

  /** The size of a request carrying `messages` (a view not built yet: what a compaction would leave). */
  estimate(messages: readonly Message[], overhead: number): number {
    let total = overhead;
    for (const m of messages) total += messageTokens(m);
    return Math.ceil(total * this.factor);
  }
}
