/**
 * First paint of a session's transcript, for `npm run bench:ui`: a fresh
 * browser profile opens the app with that session remembered as the last one
 * open, and the time from navigation start to the end of the first frame
 * painted with its transcript rows is read in the page.
 *
 * Also reports where that time went: the app's User Timing marks (`wb:*`),
 * when the script and style sheets finished loading, and (with `--profile`)
 * the hottest functions of the whole load.
 */
import type { Browser, Page } from "@playwright/test";
import { topSelfTime, type CpuProfile } from "./cpu-profile";
import { runIfMain, startStandaloneHost } from "./ui-standalone";

/**
 * Opens the session at start (as after a reload) and records the end of the first
 * frame painted with its transcript rows in `window.__firstPaint`.
 */
export const FIRST_PAINT_SCRIPT = ([wsId, sessionId]: string[]) => {
  // Repeated here: an init script is sent to the page as source text, without this module's scope.
  const FIRST_PAINT_SIGNAL = "bench:first-paint ";
  localStorage.setItem(`workbench.lastSession.${wsId}`, sessionId);
  localStorage.setItem("workbench.lastOpen", JSON.stringify({ workspaceId: wsId, sessionId }));
  const w = window as unknown as { __firstPaint?: number };
  const observer = new MutationObserver(() => {
    if (w.__firstPaint !== undefined) return;
    if (document.querySelector('[role="log"] [data-index] .msg')) {
      w.__firstPaint = -1;
      performance.mark("bench:rows-in-dom");
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          w.__firstPaint = performance.now();
          console.debug(`${FIRST_PAINT_SIGNAL}${w.__firstPaint}`);
        }),
      );
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
};

const FIRST_PAINT_SIGNAL = "bench:first-paint ";

/**
 * Resolves with the first paint's time once the page reports it on its console.
 * Call it before navigating. The page is only listened to: `waitForFunction`
 * would inject Playwright's own script (~80–330 ms of compilation) into the
 * page's main thread in the middle of the app's start-up, right after the
 * `load` event, and charge it to the app.
 */
export function waitForFirstPaint(page: Page, timeout = 60_000): Promise<number> {
  return page
    .waitForEvent("console", { predicate: (m) => m.text().startsWith(FIRST_PAINT_SIGNAL), timeout })
    .then((m) => Number(m.text().slice(FIRST_PAINT_SIGNAL.length)));
}

export interface FirstPaintResult {
  ms: number;
  /** `name@ms` of the app's marks and of the loaded resources, in time order. */
  timeline: string[];
}

/** Runs in the page: marks, navigation and resource timings as `name@ms` (kept as source text, see ui-replay.ts). */
const TIMELINE_SCRIPT = `(() => {
  const out = [];
  for (const m of performance.getEntriesByType("mark"))
    if (m.name.startsWith("wb:") || m.name.startsWith("bench:")) out.push([m.name, m.startTime]);
  const nav = performance.getEntriesByType("navigation")[0];
  if (nav) {
    out.push(["nav:responseEnd", nav.responseEnd]);
    out.push(["nav:domInteractive", nav.domInteractive]);
  }
  for (const r of performance.getEntriesByType("resource"))
    if (/\\.(js|css)$/.test(r.name)) out.push(["res:" + r.name.split("/").pop() + "(" + Math.round(r.transferSize / 1024) + "KB)", r.responseEnd]);
  out.sort((a, b) => a[1] - b[1]);
  return out.map(([n, t]) => n + "@" + Math.round(t));
})()`;

/** First paint of a session's transcript in a fresh browser profile (nothing cached, nothing remembered but that session). */
export async function measureFirstPaint(
  browser: Browser,
  url: string,
  workspaceId: string,
  sessionId: string,
  opts: { profile?: boolean; tracePath?: string } = {},
): Promise<FirstPaintResult> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(FIRST_PAINT_SCRIPT, [workspaceId, sessionId]);
    const cdp = opts.profile ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    if (opts.tracePath) await browser.startTracing(page, { path: opts.tracePath, screenshots: false });
    const painted = waitForFirstPaint(page);
    await page.goto(url);
    const ms = Math.round(await painted);
    if (opts.tracePath) await browser.stopTracing();
    if (cdp) {
      const { profile } = (await cdp.send("Profiler.stop")) as { profile: CpuProfile };
      console.log(`--- hottest functions up to the first paint\n${topSelfTime(profile, 30).join("\n")}`);
      if (process.env.BENCH_PROFILE_OUT) (await import("node:fs")).writeFileSync(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));
    }
    const timeline = await page.evaluate<string[]>(TIMELINE_SCRIPT);
    return { ms, timeline };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------- standalone run

/**
 * `tsx bench/ui-first-paint.ts [--profile]`: only the cold first paint (then a
 * warm one) of a 10,000-entry session, for iterating on it.
 */
async function standalone(): Promise<void> {
  const [fs, path] = await Promise.all([import("node:fs"), import("node:path")]);
  const bench = await startStandaloneHost({ entries: 10_000, tmpPrefix: "wb-bench-first-paint-" });
  const profile = process.argv.includes("--profile");
  // `--trace`: a Chromium performance trace of the cold load, for the browser's Performance panel.
  const tracePath = process.argv.includes("--trace") ? path.join(process.cwd(), "bench", ".tmp", "first-paint-trace.json") : undefined;
  if (tracePath) fs.mkdirSync(path.dirname(tracePath), { recursive: true });
  try {
    const cold = await measureFirstPaint(bench.browser, bench.url, bench.workspaceId, bench.session.id, { profile, tracePath });
    console.log(`cold ${cold.ms} ms: ${cold.timeline.join(", ")}`);
    const warm = await measureFirstPaint(bench.browser, bench.url, bench.workspaceId, bench.session.id);
    console.log(`warm ${warm.ms} ms: ${warm.timeline.join(", ")}`);
    console.log(`RESULT ${JSON.stringify({ firstPaintColdMs: cold.ms, firstPaintMs: warm.ms })}`);
  } finally {
    await bench.close();
  }
}

runIfMain("ui-first-paint.ts", standalone);
