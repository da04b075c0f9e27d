/**
 * Replay stepping, for `npm run bench:ui`: called with a page that shows the
 * app with the 10,000-entry benchmark session (bench/ui-session.ts) in its
 * session list. Opens that session in replay mode, then steps with the arrow
 * keys as a reviewer holding a key would: each step is timed from the key
 * press to the end of the next painted frame, and the next key press follows
 * at once (so work a step leaves behind counts against the next one).
 *
 * - replayStepMs: median of those step times (target < 50).
 * - replayStepP95Ms: 95th percentile.
 * - replayOpenMs: from the Replay click to the first step shown (session.load,
 *   review.timeline and review.notes.list of the whole session, index build, first render).
 *
 * The diff panel's file states are fetched once stepping pauses (120 ms), so
 * they are not part of a step; the benchmark waits for them to settle before it starts.
 */
import type { Page } from "@playwright/test";

export interface ReplayBenchResult {
  replayStepMs: number;
  replayStepP95Ms: number;
  replayOpenMs: number;
  replaySteps: number;
}

/** Runs in the page (kept as source text: tsx's keepNames helpers do not exist there). */
const STEP_SCRIPT = `(async () => {
  const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(0);
  }));
  const press = (key) => window.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  const counter = () => document.querySelector('[aria-label="Current step"]').textContent;
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  await afterPaint();
  const times = [];
  const run = async (key, n) => {
    for (let i = 0; i < n; i++) {
      const before = counter();
      const t0 = performance.now();
      press(key);
      await afterPaint();
      times.push(performance.now() - t0);
      if (counter() === before) throw new Error("a step did not change the step counter (" + before + ")");
    }
  };
  await run("ArrowRight", FORWARD);
  await run("ArrowLeft", BACK);
  await run("j", FORWARD);
  return times;
})()`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

export async function measureReplayStep(page: Page, opts: { sessionId: string; title: string; forward?: number; back?: number }): Promise<ReplayBenchResult> {
  const forward = opts.forward ?? 120;
  const back = opts.back ?? 60;
  const counter = page.getByLabel("Current step");

  const replayButton = page.getByRole("button", { name: `Replay session ${opts.title}` });
  const t0 = Date.now();
  if ((await replayButton.count()) > 0) {
    await replayButton.click();
  } else {
    // Without the session-list button, the address opens replay mode too.
    await page.evaluate(`(() => { const p = new URLSearchParams(location.hash.slice(1)); p.set("replay", ${JSON.stringify(opts.sessionId)}); location.hash = p.toString(); })()`);
  }
  await counter.filter({ hasText: /^Step 1 of \d+$/ }).waitFor({ timeout: 120_000 });
  const replayOpenMs = Date.now() - t0;
  const total = Number(((await counter.innerText()).match(/of (\d+)/) ?? [])[1] ?? 0);

  // Start in the middle of the session, where the transcript holds thousands of rows.
  const middle = Math.floor(total / 2);
  await page.evaluate(`(() => { const p = new URLSearchParams(location.hash.slice(1)); p.set("step", "${middle}"); location.hash = p.toString(); })()`);
  await counter.filter({ hasText: `Step ${middle + 1} of ${total}` }).waitFor({ timeout: 30_000 });
  await page.getByRole("region", { name: "Files at this step" }).getByText("Loading…").waitFor({ state: "detached", timeout: 30_000 });

  const times = (await page.evaluate(STEP_SCRIPT.replace(/FORWARD/g, String(forward)).replace(/BACK/g, String(back)))) as number[];
  const sorted = [...times].sort((a, b) => a - b);
  await page.getByRole("button", { name: "Exit replay" }).click();
  return {
    replayStepMs: round(percentile(sorted, 0.5)),
    replayStepP95Ms: round(percentile(sorted, 0.95)),
    replayOpenMs,
    replaySteps: times.length,
  };
}
