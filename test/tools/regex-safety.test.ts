/**
 * A pattern from the model never freezes the process: the built-in grep and
 * glob run regexes in a worker that is killed past its deadline, and ripgrep
 * (linear-time) is killed by the tool's timeout. Each test ends in bounded
 * time, and the main thread keeps ticking while the bad pattern runs.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findOnPath } from "../../electron/core/tools/tool-specs";
import { REGEX_JOB_TIMEOUT_MS } from "../../electron/core/tools/limits";
import { makeFixture, readOnly, text, type Fixture } from "./helpers";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let fx: Fixture | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

/** Counts event-loop ticks while `work` runs: a frozen main thread would count none. */
async function ticking<T>(work: () => Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 50);
  try {
    return { value: await work(), ticks };
  } finally {
    clearInterval(timer);
  }
}

const CATASTROPHIC = ["(a+)+$", "(a|aa)+$", "(a*)*b", "^(\\w+\\s?)*$"];

describe("catastrophic regexes", () => {
  it.each(CATASTROPHIC)(
    "built-in grep stops %s with a typed TIMEOUT and the main thread keeps running",
    async (pattern) => {
      fx = makeFixture({ rgPath: null });
      writeFileSync(join(fx.ws, "a.txt"), `${"a".repeat(41)}!\n${"word ".repeat(30)}!\n`);
      const { value: outcome, ticks } = await ticking(() => readOnly(fx!.runtime, "grep", { pattern }));
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.errorCode).toBe("TIMEOUT");
      expect(text(fx.runtime, outcome)).toContain("backtracks catastrophically");
      // The worker ran the regex; the main thread went on serving timers meanwhile.
      expect(ticks).toBeGreaterThan(REGEX_JOB_TIMEOUT_MS / 50 / 4);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a harmless grep still works after a worker was killed",
    async () => {
      fx = makeFixture({ rgPath: null });
      writeFileSync(join(fx.ws, "a.txt"), `${"a".repeat(41)}!\nfind me\n`);
      const bad = await readOnly(fx.runtime, "grep", { pattern: "(a+)+$" });
      expect(bad.ok).toBe(false);
      const good = await readOnly(fx.runtime, "grep", { pattern: "find (me)" });
      expect(text(fx.runtime, good)).toContain("2: find me");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "glob with a pattern of many wildcards is stopped with a typed TIMEOUT",
    async () => {
      fx = makeFixture();
      writeFileSync(join(fx.ws, "a".repeat(200)), "x");
      const { value: outcome, ticks } = await ticking(() => readOnly(fx!.runtime, "glob", { pattern: `${"*a".repeat(20)}*b` }));
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.errorCode).toBe("TIMEOUT");
      expect(ticks).toBeGreaterThan(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "grep's include glob is matched off the main thread too",
    async () => {
      fx = makeFixture({ rgPath: null });
      writeFileSync(join(fx.ws, "a".repeat(200)), "needle\n");
      const outcome = await readOnly(fx.runtime, "grep", { pattern: "needle", include: `${"*a".repeat(20)}*b` });
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.errorCode).toBe("TIMEOUT");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  const rg = findOnPath("rg");
  it.skipIf(!rg).each(CATASTROPHIC)("ripgrep runs %s in linear time and answers normally", async (pattern) => {
    fx = makeFixture();
    writeFileSync(join(fx.ws, "a.txt"), `${"a".repeat(5000)}!\n`);
    const outcome = await readOnly(fx.runtime, "grep", { pattern });
    expect(outcome.ok).toBe(true);
  });

  it(
    "the tool's timeout kills a ripgrep that does not finish",
    async () => {
      const base = makeFixture();
      fx = base;
      // A stand-in for an rg stuck on a slow disk: it records its pid and never ends.
      const bin = join(base.base, "bin");
      mkdirSync(bin);
      const pidFile = join(base.base, "rg.pid");
      writeFileSync(join(bin, "rg"), `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 600\n`);
      chmodSync(join(bin, "rg"), 0o755);
      // 5 s: the stand-in must have started and written its pid before the timeout, even on a loaded machine.
      const stuck = makeFixture({ workspaceRoot: base.ws, rgPath: join(bin, "rg"), readOnlyTimeoutMs: 5000 });
      try {
        const outcome = await readOnly(stuck.runtime, "grep", { pattern: "x" });
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.error.errorCode).toBe("TIMEOUT");
        const pid = Number(readFileSync(pidFile, "utf8"));
        // Killed with SIGKILL on the timeout: gone (or a zombie being reaped) shortly after.
        await expect
          .poll(() => !existsSync(`/proc/${pid}`) || /State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, "utf8")), { timeout: 5000 })
          .toBe(true);
      } finally {
        stuck.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
