/**
 * Collects work and runs it once per animation frame, in arrival order, so a
 * burst of stream events costs one store update and one render per frame.
 */
export class FrameBatcher<T> {
  private queue: T[] = [];
  private scheduled = false;

  constructor(
    private readonly flush: (items: T[]) => void,
    private readonly schedule: (cb: () => void) => void = defaultSchedule,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.run());
  }

  /** Applies what is queued now (e.g. before a load replaces the state). */
  drain(): void {
    if (this.queue.length > 0) this.run();
  }

  private run(): void {
    this.scheduled = false;
    const items = this.queue;
    this.queue = [];
    if (items.length > 0) this.flush(items);
  }
}

function defaultSchedule(cb: () => void): void {
  // Background tabs do not get animation frames; fall back to a timer there.
  if (typeof document !== "undefined" && document.visibilityState === "hidden") {
    setTimeout(cb, 50);
    return;
  }
  requestAnimationFrame(() => cb());
}
