/**
 * End-to-end tests of the renderer in web mode (Chromium against the real core
 * and the faux provider). Run with `npm run test:e2e`, which first makes sure a
 * Chromium exists (scripts/ensure-chromium.ts). Electron specs have their own
 * config under e2e/electron/.
 */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./scripts/chromium-path";

export default defineConfig({
  testDir: "e2e/web",
  outputDir: "test-results/e2e",
  globalSetup: "./e2e/helpers/global-setup.ts",
  // One browser at a time: the machines running this are small and shared.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  // Generous: on a loaded 2-core CI machine (load 15+) a spec with several turns took 90 s of the 120 s it
  // had, and the first diff Monaco renders in a page stayed empty for 20 s (the page answered two polls in
  // that time). Timeouts only bound a failing run.
  timeout: 300_000,
  expect: { timeout: 60_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    viewport: { width: 1440, height: 900 },
    colorScheme: "light",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: findChromium() ?? undefined,
      args: CHROMIUM_ARGS,
    },
  },
});
