/**
 * "What the model saw", for `npm run bench:ui`: called with a page that shows
 * the app. Opens the given session in replay mode at its last step, steps back
 * to the last assistant step (the request with the longest history), then
 * opens "What the model saw" several times: each open is timed in the page
 * from the click to the end of the frame that paints the request body
 * (review.modelView rebuilt in the core, sent, rendered).
 *
 * - modelViewOpenMs: median of those opens (target <= 200 on a 2,000-entry session).
 */
import type { Page } from "@playwright/test";
import { profiledAround, runIfMain, startStandaloneHost } from "./ui-standalone";

export interface ModelViewBenchResult {
  modelViewOpenMs: number;
  modelViewOpenMaxMs: number;
  modelViewBodyChars: number;
}

/** Runs in the page (kept as source text: tsx's keepNames helpers do not exist there). */
const OPEN_SCRIPT = `(async () => {
  const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(0);
  }));
  const button = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "What the model saw");
  if (!button) throw new Error("no 'What the model saw' button at this step");
  const t0 = performance.now();
  button.click();
  await new Promise((resolve, reject) => {
    const give = setTimeout(() => reject(new Error("the request body never showed")), 60000);
    const check = () => {
      if (document.querySelector('[aria-label="Request body"] .model-view-line')) { clearTimeout(give); resolve(); }
      else requestAnimationFrame(check);
    };
    check();
  });
  await afterPaint();
  const ms = performance.now() - t0;
  const head = document.querySelector(".model-view-body-head");
  const m = /^([0-9,]+) characters/.exec(head ? head.textContent : "");
  return { ms, chars: m ? Number(m[1].replace(/,/g, "")) : 0 };
})()`;

export async function measureModelView(
  page: Page,
  opts: { sessionId: string; opens?: number; around?: <T>(run: () => Promise<T>) => Promise<T> },
): Promise<ModelViewBenchResult> {
  const opens = opts.opens ?? 5;
  const counter = page.getByLabel("Current step");
  await page.evaluate(
    `(() => { const p = new URLSearchParams(location.hash.slice(1)); p.set("replay", ${JSON.stringify(opts.sessionId)}); location.hash = p.toString(); })()`,
  );
  await counter.filter({ hasText: /^Step 1 of \d+$/ }).waitFor({ timeout: 120_000 });
  const total = Number(((await counter.innerText()).match(/of (\d+)/) ?? [])[1] ?? 0);
  await page.evaluate(
    `(() => { const p = new URLSearchParams(location.hash.slice(1)); p.set("step", "${total - 1}"); location.hash = p.toString(); })()`,
  );
  await counter.filter({ hasText: `Step ${total} of ${total}` }).waitFor({ timeout: 30_000 });
  const button = page.getByRole("button", { name: "What the model saw" });
  for (let i = 0; i < 6 && (await button.count()) === 0; i++) {
    const before = await counter.innerText();
    await page.keyboard.press("ArrowLeft");
    await counter.filter({ hasNotText: before }).waitFor({ timeout: 10_000 });
  }
  const times: number[] = [];
  let chars = 0;
  for (let i = 0; i < opens; i++) {
    const open = () => page.evaluate<{ ms: number; chars: number }>(OPEN_SCRIPT);
    const { ms, chars: n } = opts.around && i === opens - 1 ? await opts.around(open) : await open();
    times.push(ms);
    chars = n;
    await page.getByRole("dialog", { name: "What the model saw" }).getByRole("button", { name: /close/i }).first().click();
    await page.getByRole("dialog", { name: "What the model saw" }).waitFor({ state: "detached" });
  }
  const sorted = [...times].sort((a, b) => a - b);
  await page.getByRole("button", { name: "Exit replay" }).click();
  return {
    modelViewOpenMs: Math.round(sorted[Math.floor(sorted.length / 2)]),
    modelViewOpenMaxMs: Math.round(sorted[sorted.length - 1]),
    modelViewBodyChars: chars,
  };
}

// ---------------------------------------------------------------- standalone run

/** `tsx bench/ui-model-view.ts [--profile]`: only this measurement, on a 2,000-entry session (for iterating on it). */
async function standalone(): Promise<void> {
  const bench = await startStandaloneHost({ entries: 2_000, tmpPrefix: "wb-bench-model-view-" });
  try {
    const page = await bench.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(bench.url);
    await page.getByRole("button", { name: `Replay session ${bench.session.title}` }).waitFor({ state: "attached", timeout: 60_000 });
    const around = await profiledAround(page, "opening");
    const result = await measureModelView(page, { sessionId: bench.session.id, around });
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    await bench.close();
  }
}

runIfMain("ui-model-view.ts", standalone);
