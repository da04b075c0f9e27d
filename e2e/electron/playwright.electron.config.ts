/**
 * Electron-mode e2e: the built app driven through Playwright's `_electron`.
 * `npm run e2e:electron` (Linux CI: `xvfb-run -a npm run e2e:electron`).
 * Where no Electron binary exists, global setup prints one line and the spec
 * reports itself skipped.
 */
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  testMatch: "*.electron.spec.ts",
  outputDir: "../../test-results/e2e-electron",
  globalSetup: "./global-setup.ts",
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
});
