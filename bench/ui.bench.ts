/**
 * UI benchmark (`npm run bench:ui`): the real renderer in Chromium, against the
 * real core and web host, with a 10,000-entry session (tool cards, diffs,
 * approvals, model switches) seeded in SQLite. A script, not a test: it prints
 * figures and ends with one line `RESULT {json}`.
 *
 * - firstPaintMs: from navigation start to the first painted frame showing the
 *   session's transcript rows (page load, WebSocket, session.load of 10,000
 *   entries, validation, first render); the core has loaded that session once
 *   before (coreLoadMs), as after a reload of the page.
 * - firstPaintColdMs: the same on another 10,000-entry session the core has not
 *   loaded since it started, in a fresh browser profile (as when the printed
 *   URL of a new launch is opened); bench/ui-first-paint.ts, which also runs
 *   alone (`tsx bench/ui-first-paint.ts [--profile|--trace]`).
 * - scrollFpsMedian: scrolling the transcript end to end, one step per frame;
 *   frames counted per 250 ms window, median window as frames per second.
 * - heapMB: JS heap after load, after a forced garbage collection.
 * - longTasksStreaming: long tasks (> 50 ms) while 2,000 text deltas stream at
 *   200 per second from the faux provider into that same session.
 * - replayStepMs: median time from an arrow key to the painted replay step, in that session (bench/ui-replay.ts).
 * - modelViewOpenMs: median time from a click on "What the model saw" to the
 *   painted request body, at the last assistant step of a 2,000-entry session (bench/ui-model-view.ts).
 * - changesViewMs / hunkToggleMs: the Changes view of a session that changed 500 files (2,000 hunks), and
 *   accepting/rejecting one hunk of a proposal with the diff visible (bench/ui-changes.ts).
 *
 * Targets: firstPaintMs <= 1000, firstPaintColdMs <= 1200, scrollFpsMedian >= 55, heapMB <= 300,
 * longTasksStreaming = 0, replayStepMs < 50, modelViewOpenMs <= 200, changesViewMs <= 300, hunkToggleMs <= 50.
 */
import { chromium, type Page } from "@playwright/test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkbench } from "../electron/core/api/create-workbench";
import { reply, startFauxProvider, text } from "../electron/core/faux";
import { SessionStore } from "../electron/core/store";
import { startWebHost } from "../electron/core/web/server";
import type { ModelInfo } from "../shared/models";
import globalSetup from "../e2e/helpers/global-setup";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium-path";
import { topSelfTime, type CpuProfile } from "./cpu-profile";
import { benchEntries } from "./ui-session";
import { measureReplayStep } from "./ui-replay";
import { measureModelView } from "./ui-model-view";
import { FIRST_PAINT_SCRIPT, measureFirstPaint, waitForFirstPaint } from "./ui-first-paint";
import { changesEntries, CHANGES_FILES, HUNK_FILE, hunkFileText, hunkReply, measureChangesView, measureHunkToggle } from "./ui-changes";

/** `--profile`: print the hottest functions of each phase (scroll, streaming). */
const PROFILE = process.argv.includes("--profile");

const ENTRIES = 10_000;
const MODEL_VIEW_ENTRIES = 2_000;
const DELTAS = 2_000;
const DELTAS_PER_SECOND = 200;
const CHUNK = 6;

/** A model with a context window large enough to send the whole 10,000-entry history without compaction. */
const BENCH_MODEL: ModelInfo = {
  id: "bench-stream",
  name: "Bench streaming model",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 100_000_000,
  maxOutput: 64_000,
  input: ["text"],
  reasoning: false,
  price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

function streamedText(): string {
  // Markdown with paragraphs, lists and a code block, DELTAS * CHUNK characters long.
  const block =
    "Here is the plan for the refactoring, step by step.\n\n" +
    "1. Extract the pricing rules into `pricing.ts`.\n2. Cover them with tests.\n\n" +
    "```ts\nexport function price(item: Item): number {\n  return item.base * (1 - item.discount);\n}\n```\n\n";
  let out = "";
  while (out.length < DELTAS * CHUNK) out += block;
  return out.slice(0, DELTAS * CHUNK);
}

/**
 * Runs in the page. Kept as source text: tsx's keepNames would otherwise wrap
 * the page function's inner functions in a helper the page does not have.
 */
const SCROLL_SCRIPT = `(async () => {
  const log = document.querySelector('[role="log"][aria-label="Transcript"]');
  log.scrollTop = 0;
  await new Promise((r) => setTimeout(r, 300));
  const frames = [];
  const step = Math.round(log.clientHeight * STEP_FACTOR);
  await new Promise((resolve) => {
    function tick(ts) {
      frames.push(ts);
      if (log.scrollTop + log.clientHeight >= log.scrollHeight - 2) return resolve();
      log.scrollTop += step;
      requestAnimationFrame(tick);
    }
    requestAnimationFrame(tick);
  });
  const windows = [];
  const start = frames[0];
  const end = frames[frames.length - 1];
  for (let w = start; w + 250 <= end; w += 250) windows.push(frames.filter((f) => f >= w && f < w + 250).length * 4);
  windows.sort((a, b) => a - b);
  return { fps: windows.length ? windows[Math.floor(windows.length / 2)] : 0, frames: frames.length, ms: Math.round(end - start), height: log.scrollHeight };
})()`;

/** Scroll speed: this fraction of the viewport per frame (about 12,000 px/s at 60 fps, a fast drag). */
const STEP_FACTOR = Number(process.env.BENCH_SCROLL_STEP ?? 0.25);

async function measureScroll(page: Page): Promise<{ fps: number; frames: number; ms: number; height: number }> {
  return page.evaluate(SCROLL_SCRIPT.replace("STEP_FACTOR", String(STEP_FACTOR)));
}

async function main(): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium found (run scripts/ensure-chromium.ts)");
  await globalSetup();

  const dir = mkdtempSync(join(tmpdir(), "wb-bench-ui-"));
  const workspacePath = join(dir, "project");
  mkdirSync(workspacePath);
  const dbPath = join(dir, "workbench.db");

  // Seed the session.
  const store = SessionStore.open(dbPath);
  const ws = store.addWorkspace(workspacePath, "project");
  const modelRef = { provider: BENCH_MODEL.provider, api: BENCH_MODEL.api, id: BENCH_MODEL.id };
  const session = store.createSession({ workspaceId: ws.id, title: "Benchmark: 10,000 entries", model: modelRef });
  const t0 = Date.now();
  for (const entry of benchEntries(ENTRIES)) store.appendEntry(session.id, entry);
  store.setSessionModel(session.id, modelRef);
  // The same again for the cold first paint, and a shorter one for "what the model saw".
  const coldSession = store.createSession({ workspaceId: ws.id, title: "Cold first paint (10,000 entries)", model: modelRef });
  for (const entry of benchEntries(ENTRIES)) store.appendEntry(coldSession.id, entry);
  const viewSession = store.createSession({ workspaceId: ws.id, title: "Benchmark: 2,000 entries", model: modelRef });
  for (const entry of benchEntries(MODEL_VIEW_ENTRIES)) store.appendEntry(viewSession.id, entry);
  const changesTitle = `Benchmark: ${CHANGES_FILES} files changed`;
  const changesSession = store.createSession({ workspaceId: ws.id, title: changesTitle, model: modelRef });
  for (const entry of changesEntries()) store.appendEntry(changesSession.id, entry);
  store.setSessionModel(changesSession.id, modelRef);
  store.close();
  writeFileSync(join(workspacePath, HUNK_FILE), hunkFileText());
  console.log(`seeded 2 × ${ENTRIES} + ${MODEL_VIEW_ENTRIES} entries in ${Date.now() - t0} ms`);

  const faux = await startFauxProvider({});
  faux.setDefaultResponder(
    (request) => hunkReply(request) ?? reply([text(streamedText())], { chunkSize: CHUNK, chunkDelayMs: 1000 / DELTAS_PER_SECOND }),
  );
  const workbench = await createWorkbench({
    dbPath,
    host: { mode: "web", notices: [] },
    version: "bench",
    env: { ANTHROPIC_API_KEY: "sk-ant-bench-not-a-real-key" },
    initialWorkspace: workspacePath,
    baseUrlOverrides: { anthropic: faux.baseUrls.anthropic },
    extraModels: [BENCH_MODEL],
    demo: false,
  });
  const host = await startWebHost({ workbench, staticDir: join(process.cwd(), "out", "renderer") });
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, "--enable-precise-memory-info"] });

  try {
    // Cold: a fresh profile opens a session the core has not loaded (first, before anything warms the core).
    const cold = await measureFirstPaint(browser, host.url, ws.id, coldSession.id);
    const firstPaintColdMs = cold.ms;
    console.log(`firstPaintColdMs ${firstPaintColdMs} (${cold.timeline.join(", ")})`);

    // How much of the first paint is the core's: session.load handled and serialised, without a browser.
    const coreStart = performance.now();
    const loaded = await workbench.handle("session.load", { sessionId: session.id });
    const loadJsonMB = Math.round((JSON.stringify(loaded).length / 1024 / 1024) * 10) / 10;
    const coreLoadMs = Math.round(performance.now() - coreStart);
    console.log(`core session.load: ${coreLoadMs} ms, ${loadJsonMB} MB of JSON`);

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

    // Open the session at start (as after a reload) and time its first painted frame.
    await page.addInitScript(FIRST_PAINT_SCRIPT, [ws.id, session.id]);
    const cdp = await page.context().newCDPSession(page);
    const profiled = async <T>(phase: string, run: () => Promise<T>): Promise<T> => {
      if (!PROFILE) return run();
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.start");
      const out = await run();
      const { profile } = (await cdp.send("Profiler.stop")) as { profile: CpuProfile };
      console.log(`--- hottest functions while ${phase}\n${topSelfTime(profile).join("\n")}`);
      return out;
    };
    // Listened for before navigating (see waitForFirstPaint): nothing is injected into the page while it starts.
    const painted = waitForFirstPaint(page);
    await profiled("loading", async () => {
      await page.goto(host.url);
      await painted.catch(() => undefined);
    });
    let firstPaintMs: number;
    try {
      firstPaintMs = Math.round(await painted);
    } catch (err) {
      mkdirSync(join(process.cwd(), "bench", ".tmp"), { recursive: true });
      await page.screenshot({ path: join(process.cwd(), "bench", ".tmp", "ui-first-paint-timeout.png") });
      throw new Error(
        `the transcript never painted (screenshot in bench/.tmp; browser errors: ${errors.slice(0, 3).join(" | ") || "none"})`,
        {
          cause: err,
        },
      );
    }
    const marks = await page.evaluate(() =>
      performance
        .getEntriesByType("mark")
        .filter((m) => m.name.startsWith("wb:") || m.name.startsWith("bench:"))
        .map((m) => `${m.name}@${Math.round(m.startTime)}`),
    );
    console.log(`firstPaintMs ${firstPaintMs} (${marks.join(", ")})`);

    await page.waitForTimeout(500);
    await cdp.send("HeapProfiler.collectGarbage");
    const heap = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
    const heapMB = Math.round((heap.usedSize / 1024 / 1024) * 10) / 10;
    console.log(`heapMB ${heapMB}`);

    const scroll = await profiled("scrolling", () => measureScroll(page));
    const scrollFpsMedian = scroll.fps;
    console.log(`scrollFpsMedian ${scrollFpsMedian} (${scroll.frames} frames over ${scroll.height} px in ${scroll.ms} ms)`);

    // Streaming: count long tasks from the send until the turn is idle again.
    await page.evaluate(() => {
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.duration > 50) w.__longTasks.push(e.duration);
      }).observe({ type: "longtask", buffered: false });
    });
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("Stream the plan, please.");
    const requestsBefore = faux.requests.length;
    await box.press("Enter");
    await page.getByLabel("Assistant message (streaming)").waitFor({ timeout: 60_000 });
    const streamStart = Date.now();
    await profiled("streaming", async () => {
      await page.getByLabel("Assistant message (streaming)").waitFor({ state: "detached", timeout: 120_000 });
      await page.getByRole("button", { name: "Send" }).waitFor();
    });
    const streamMs = Date.now() - streamStart;
    const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    const fauxRequest = faux.requests[requestsBefore];
    console.log(`streamed ${DELTAS} deltas in ${streamMs} ms; long tasks: ${JSON.stringify(longTasks.map(Math.round))}`);
    if (!fauxRequest?.accepted)
      console.log(`warning: the faux provider did not accept the request (${fauxRequest?.rejection?.message ?? "none"})`);
    // Replay stepping over the same session (bench/ui-replay.ts).
    const replay = await measureReplayStep(page, { sessionId: session.id, title: session.title });
    console.log(
      `replayStepMs ${replay.replayStepMs} (p95 ${replay.replayStepP95Ms} over ${replay.replaySteps} steps; replay opened in ${replay.replayOpenMs} ms)`,
    );
    // The Changes view and per-hunk review (bench/ui-changes.ts).
    // measureReplayStep and measureModelView leave replay themselves.
    const exitReplay = page.getByRole("button", { name: "Exit replay" });
    if ((await exitReplay.count()) > 0) await exitReplay.click();
    const changes = await measureChangesView(page, changesTitle);
    console.log(`changesViewMs ${changes.changesViewMs} (${CHANGES_FILES} files)`);
    const toggle = await measureHunkToggle(page);
    console.log(`hunkToggleMs ${toggle.hunkToggleMs}`);
    const modelView = await measureModelView(page, { sessionId: viewSession.id });
    console.log(
      `modelViewOpenMs ${modelView.modelViewOpenMs} (max ${modelView.modelViewOpenMaxMs}; ${modelView.modelViewBodyChars} characters of JSON)`,
    );
    if (errors.length) console.log(`browser errors: ${errors.slice(0, 5).join(" | ")}`);

    console.log(
      `RESULT ${JSON.stringify({
        entries: ENTRIES,
        firstPaintMs,
        firstPaintColdMs,
        scrollFpsMedian,
        heapMB,
        longTasksStreaming: longTasks.length,
        longTaskMaxMs: Math.round(Math.max(0, ...longTasks)),
        coreLoadMs,
        loadJsonMB,
        deltas: DELTAS,
        streamMs,
        replayStepMs: replay.replayStepMs,
        modelViewOpenMs: modelView.modelViewOpenMs,
        changesViewMs: changes.changesViewMs,
        hunkToggleMs: toggle.hunkToggleMs,
        browserErrors: errors.length,
      })}`,
    );
  } finally {
    await browser.close();
    await host.close();
    await workbench.close();
    await faux.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`bench:ui failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
