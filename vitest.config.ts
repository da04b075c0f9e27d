import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "shared/**/*.test.ts", "electron/**/*.test.ts", "renderer/**/*.test.{ts,tsx}"],
    environment: "node",
    // CI runs on a shared 2-core machine at load 10-20, where tests run 3-5x slower than on a quiet one
    // (a git-checkpoint test: 12 s quiet, 31 s at load 16). A timeout only bounds a failing run.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
  },
});
