/**
 * What the standalone runs of the bench:ui pages share (`tsx bench/ui-replay.ts`,
 * `ui-model-view.ts`, `ui-first-paint.ts`): a web host on a fresh database
 * with one generated session, a Chromium, and an optional CPU profile around
 * the measured part. Imports are dynamic so that bench:ui, which imports the
 * pages for their measurements, does not load any of this.
 */
import type { Browser, Page } from "@playwright/test";

export interface StandaloneHost {
  browser: Browser;
  url: string;
  workspaceId: string;
  session: { id: string; title: string };
  close(): Promise<void>;
}

/** A database with one session of `entries` generated entries, served in web mode, and a Chromium to load it. */
export async function startStandaloneHost(options: { entries: number; tmpPrefix: string }): Promise<StandaloneHost> {
  const [
    { chromium },
    fs,
    os,
    path,
    { createWorkbench },
    { SessionStore },
    { startWebHost },
    { default: globalSetup },
    chromiumPath,
    { benchEntries, BENCH_MODEL },
  ] = await Promise.all([
    import("@playwright/test"),
    import("node:fs"),
    import("node:os"),
    import("node:path"),
    import("../electron/core/api/create-workbench"),
    import("../electron/core/store"),
    import("../electron/core/web/server"),
    import("../e2e/helpers/global-setup"),
    import("../scripts/chromium-path"),
    import("./ui-session"),
  ]);
  const executablePath = chromiumPath.findChromium();
  if (!executablePath) throw new Error("no Chromium found (run scripts/ensure-chromium.ts)");
  await globalSetup();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), options.tmpPrefix));
  const workspacePath = path.join(dir, "project");
  fs.mkdirSync(workspacePath);
  const dbPath = path.join(dir, "workbench.db");
  const store = SessionStore.open(dbPath);
  const ws = store.addWorkspace(workspacePath, "project");
  const title = `Benchmark: ${options.entries.toLocaleString("en-US")} entries`;
  const session = store.createSession({ workspaceId: ws.id, title, model: BENCH_MODEL });
  for (const entry of benchEntries(options.entries)) store.appendEntry(session.id, entry);
  store.close();
  const workbench = await createWorkbench({
    dbPath,
    host: { mode: "web", notices: [] },
    version: "bench",
    env: {},
    initialWorkspace: workspacePath,
    demo: false,
  });
  const host = await startWebHost({ workbench, staticDir: process.env.BENCH_STATIC ?? path.join(process.cwd(), "out", "renderer") });
  const browser = await chromium.launch({ executablePath, args: chromiumPath.CHROMIUM_ARGS });
  return {
    browser,
    url: host.url,
    workspaceId: ws.id,
    session: { id: session.id, title },
    close: async () => {
      await browser.close();
      await host.close();
      await workbench.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** With `--profile`: runs `run` under the page's CPU profiler and prints the hottest functions; otherwise just runs it. */
export async function profiledAround(page: Page, what: string): Promise<<T>(run: () => Promise<T>) => Promise<T>> {
  const { topSelfTime } = await import("./cpu-profile");
  const cdp = process.argv.includes("--profile") ? await page.context().newCDPSession(page) : null;
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (!cdp) return run();
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.start");
    const out = await run();
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: Parameters<typeof topSelfTime>[0] };
    console.log(`--- hottest functions while ${what}\n${topSelfTime(profile, 25).join("\n")}`);
    return out;
  };
}

/** Runs a page's standalone entry point when that file is the one executed. */
export function runIfMain(file: string, main: () => Promise<void>): void {
  if (!process.argv[1]?.endsWith(file)) return;
  main().catch((err: unknown) => {
    console.error(`${file.replace(/\.ts$/, "")} failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
