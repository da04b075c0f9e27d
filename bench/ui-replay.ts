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
 * - replayStepWorkMs: median of the part of a step before the frame: the React
 *   render and commit and a layout (what the step itself costs; the rest is the
 *   wait for the next frame and paint).
 * - replayOpenMs: from the Replay click to the first step shown (session.load,
 *   review.timeline and review.notes.list of the whole session, index build, first render).
 *
 * The diff panel's file states are fetched once stepping pauses (120 ms), so
 * they are not part of a step; the benchmark waits for them to settle before it starts.
 */
import type { Page } from "@playwright/test";
import { profiledAround, runIfMain, startStandaloneHost } from "./ui-standalone";

export interface ReplayBenchResult {
  replayStepMs: number;
  replayStepP95Ms: number;
  /** Median of the script, style and layout part of a step (render and forced layout, without waiting for the frame). */
  replayStepWorkMs: number;
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
  const work = [];
  const run = async (key, n) => {
    for (let i = 0; i < n; i++) {
      const before = counter();
      const t0 = performance.now();
      press(key);
      // React renders a store update from a native event in a microtask; then lay out.
      await Promise.resolve();
      await Promise.resolve();
      void document.documentElement.offsetHeight;
      work.push(performance.now() - t0);
      await afterPaint();
      times.push(performance.now() - t0);
      if (counter() === before) throw new Error("a step did not change the step counter (" + before + ")");
    }
  };
  await run("ArrowRight", FORWARD);
  await run("ArrowLeft", BACK);
  await run("j", FORWARD);
  return { times, work };
})()`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

export interface ReplayBenchOptions {
  sessionId: string;
  title: string;
  forward?: number;
  back?: number;
  /** Wraps the stepping phase only (e.g. a CPU profile). */
  around?: <T>(run: () => Promise<T>) => Promise<T>;
}

export async function measureReplayStep(page: Page, opts: ReplayBenchOptions): Promise<ReplayBenchResult> {
  const forward = opts.forward ?? 120;
  const back = opts.back ?? 60;
  const counter = page.getByLabel("Current step");

  const replayButton = page.getByRole("button", { name: `Replay session ${opts.title}` });
  const t0 = Date.now();
  if ((await replayButton.count()) > 0) {
    await replayButton.click();
  } else {
    // Without the session-list button, the address opens replay mode too.
    await page.evaluate(
      `(() => { const p = new URLSearchParams(location.hash.slice(1)); p.set("replay", ${JSON.stringify(opts.sessionId)}); location.hash = p.toString(); })()`,
    );
  }
  await counter.filter({ hasText: /^Step 1 of \d+$/ }).waitFor({ timeout: 120_000 });
  const replayOpenMs = Date.now() - t0;
  const total = Number(((await counter.innerText()).match(/of (\d+)/) ?? [])[1] ?? 0);

  // Start in the middle of the session, where the transcript holds thousands of rows.
  const middle = Math.floor(total / 2);
  await page.evaluate(
    `(() => { const p = new URLSearchParams(location.hash.slice(1)); p.set("step", "${middle}"); location.hash = p.toString(); })()`,
  );
  await counter.filter({ hasText: `Step ${middle + 1} of ${total}` }).waitFor({ timeout: 30_000 });
  // The diff panel shows the files as of this step once the step settles: let Monaco load
  // and its worker finish that first diff before stepping (it is not part of a step).
  await page.getByRole("region", { name: "Files at this step" }).getByRole("list").waitFor({ timeout: 60_000 });
  // While the panel swaps files two diff editors can be mounted for a moment: any one painted will do.
  await page.locator(".diff-panel .modified .view-lines").first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1_000);

  const script = STEP_SCRIPT.replace(/FORWARD/g, String(forward)).replace(/BACK/g, String(back));
  const step = () => page.evaluate<{ times: number[]; work: number[] }>(script);
  const { times, work } = opts.around ? await opts.around(step) : await step();
  const sorted = [...times].sort((a, b) => a - b);
  // Let the diff panel catch up with the last step before leaving: Monaco throws
  // "no diff result available" when its editor is disposed mid-computation.
  await page.getByRole("region", { name: "Files at this step" }).getByText("Loading…").waitFor({ state: "detached", timeout: 30_000 });
  await page.waitForTimeout(500);
  await page.getByRole("button", { name: "Exit replay" }).click();
  return {
    replayStepMs: round(percentile(sorted, 0.5)),
    replayStepP95Ms: round(percentile(sorted, 0.95)),
    replayStepWorkMs: round(
      percentile(
        [...work].sort((a, b) => a - b),
        0.5,
      ),
    ),
    replayOpenMs,
    replaySteps: times.length,
  };
}

// ---------------------------------------------------------------- standalone run

/**
 * `tsx bench/ui-replay.ts [--profile]`: only this measurement, on the same
 * 10,000-entry session, without the rest of bench:ui (for iterating on it).
 */
async function standalone(): Promise<void> {
  const bench = await startStandaloneHost({ entries: 10_000, tmpPrefix: "wb-bench-replay-" });
  try {
    const page = await bench.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) =>
      errors.push(`${e.message} at ${performance.now().toFixed(0)} ms: ${(e.stack ?? "").split("\n").slice(1, 6).join(" / ")}`),
    );
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("console", (m) => m.text().startsWith("[replay-bench]") && console.log(m.text()));
    await page.goto(bench.url);
    await page.getByRole("button", { name: `Replay session ${bench.session.title}` }).waitFor({ state: "attached", timeout: 60_000 });
    const around = await profiledAround(page, "stepping");
    const result = await measureReplayStep(page, { sessionId: bench.session.id, title: bench.session.title, around });
    if (errors.length) console.log(`browser errors: ${errors.slice(0, 5).join(" | ")}`);
    console.log(`RESULT ${JSON.stringify({ ...result, browserErrors: errors.length })}`);
  } finally {
    await bench.close();
  }
}

runIfMain("ui-replay.ts", standalone);
