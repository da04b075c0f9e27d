/**
 * Waiting for the browser to have shown what was just rendered, so work that
 * can wait (older entries, rows off screen) does not compete with it.
 */

/** Runs `fn` as a task once the next frame has been produced (the frame after it has begun); returns a cancel. */
export function afterNextPaint(fn: () => void): () => void {
  let frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => (timer = setTimeout(fn, 0)))));
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * Resolves once the next frame has been produced, or after `maxWaitMs`: a
 * hidden page produces no frames, and what waits must still happen there.
 * Resolves at once where there are no frames at all (no `requestAnimationFrame`).
 */
export function nextPaint(maxWaitMs: number): Promise<void> {
  if (typeof requestAnimationFrame !== "function") return Promise.resolve();
  return new Promise((resolve) => {
    const cancelFrame = afterNextPaint(() => {
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      cancelFrame();
      resolve();
    }, maxWaitMs);
  });
}
