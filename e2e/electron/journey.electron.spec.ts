/**
 * The desktop app through Playwright's `_electron`: the hardened window opens
 * on the app's own page, with its CSP, without Node in the renderer, with only
 * the workbench bridge exposed; then the start of the UI journey (open a
 * workspace, create a session) over the real IPC transport.
 *
 * One test on purpose: where Electron cannot run, it is the one skip line.
 */
import { _electron as electron, expect, test, type ElectronApplication, type Page } from "@playwright/test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newSession, openWorkspace } from "../helpers/app";
import { ROOT, electronSkipReason } from "./electron-env";

const skipReason = electronSkipReason();

test("the desktop window is hardened and drives the workbench over IPC", async () => {
  test.skip(skipReason !== null, skipReason ?? "");

  const scratch = mkdtempSync(join(tmpdir(), "wb-electron-e2e-"));
  // Isolated profile, database and key file for this run.
  const userData = mkdtempSync(join(tmpdir(), "wb-electron-user-"));
  const workspace = join(scratch, "workspace");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "README.md"), "# e2e\n");

  let app: ElectronApplication | null = null;
  const errors: string[] = [];
  try {
    // No executablePath: Playwright resolves node_modules/electron itself and adds its loader.
    app = await electron.launch({
      args: [ROOT, "--user-data", userData, "--demo"],
      cwd: ROOT,
      env: { ...process.env, ELECTRON_ENABLE_LOGGING: "1" },
    });
    const electronApp = app;
    const page: Page = await electronApp.firstWindow();
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(`console.error: ${msg.text()}`);
    });
    page.on("pageerror", (err) => errors.push(`uncaught: ${err.message}`));
    await page.waitForLoadState("domcontentloaded");

    await test.step("opens the app's own page with its title", async () => {
      expect(page.url()).toBe("app://workbench/index.html");
      await expect(page).toHaveTitle("Agent Workbench");
    });

    await test.step("serves the page with the strict CSP and enforces it", async () => {
      const csp = await electronApp.evaluate(async ({ net }) =>
        (await net.fetch("app://workbench/index.html")).headers.get("content-security-policy"),
      );
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      const verdict = await page.evaluate(() => {
        let evalResult = "blocked";
        try {
          eval("1");
          evalResult = "allowed";
        } catch {
          // CSP without 'unsafe-eval' throws EvalError.
        }
        const s = document.createElement("script");
        s.textContent = "window.__inlineRan = true";
        document.head.appendChild(s);
        return { evalResult, inline: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true };
      });
      expect(verdict).toEqual({ evalResult: "blocked", inline: false });
      // The blocked inline script is reported on the console; it is expected here.
      errors.length = 0;
    });

    await test.step("gives the renderer no Node and only the workbench bridge", async () => {
      const env = await page.evaluate(() => ({
        require: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
        module: typeof (globalThis as { module?: unknown }).module,
        bridge: Object.keys((window as unknown as { workbench: object }).workbench).sort(),
      }));
      expect(env).toEqual({ require: "undefined", process: "undefined", module: "undefined", bridge: ["call", "on"] });
      const info = await page.evaluate(() =>
        (window as unknown as { workbench: { call(m: string, p: unknown): Promise<unknown> } }).workbench.call("app.info", {}),
      );
      expect(info).toMatchObject({ ok: true, result: { mode: "electron" } });
    });

    await test.step("blocks navigation away, window.open and permission prompts", async () => {
      const opened = await page.evaluate(() => window.open("http://127.0.0.1:9/") === null);
      expect(opened).toBe(true);
      // Listen in main first (awaited), then navigate. The app's own will-navigate handler was
      // registered when the window was created, so it has run when this listener runs.
      await electronApp.evaluate(({ BrowserWindow }) => {
        const g = globalThis as { navigationPrevented?: Promise<boolean> };
        g.navigationPrevented = new Promise<boolean>((resolve) => {
          BrowserWindow.getAllWindows()[0]?.webContents.once("will-navigate", (event) => resolve(event.defaultPrevented));
        });
      });
      await page.evaluate(() => {
        window.location.href = "http://127.0.0.1:9/";
      });
      const prevented = electronApp.evaluate(() => (globalThis as { navigationPrevented?: Promise<boolean> }).navigationPrevented);
      expect(await prevented).toBe(true);
      expect(page.url()).toBe("app://workbench/index.html");
      expect(await page.evaluate(() => Notification.requestPermission())).toBe("denied");
      expect(electronApp.windows()).toHaveLength(1);
    });

    await test.step("opens a workspace and creates a session over IPC", async () => {
      await openWorkspace(page, workspace);
      await newSession(page);
    });

    expect(errors, "the renderer logged errors").toEqual([]);
  } finally {
    await app?.close();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(userData, { recursive: true, force: true });
  }
});
