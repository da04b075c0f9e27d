/**
 * The check-to-use race, for real: a child process swaps a folder and a file
 * of the workspace for links to outside in a tight loop while every file tool
 * runs hundreds of times. Nothing from outside (bytes or names) may reach a
 * result — the model's text or the UI's details — and nothing may be created
 * outside.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolRuntime, type ToolOutcome, type ToolRuntime } from "../../electron/core/tools";
import { findOnPath } from "../../electron/core/tools/tool-specs";
import { approved, makeFixture, readOnly, text, type Fixture } from "./helpers";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const SECRET = "OUTSIDE-SECRET";
const LEAK_NAME = "LEAKNAME";
/**
 * Calls per tool; the loops also stop after RUN_BUDGET_MS so the test stays bounded, but never
 * before MIN_ROUNDS: on a loaded machine the slow tools (writes sync to disk) must still be raced
 * enough times, however long that takes.
 */
const ROUNDS = 300;
const MIN_ROUNDS = 20;
const RUN_BUDGET_MS = 35_000;

// Swaps ws/d <-> link to outside/d and ws/f.txt <-> link to outside/secret.txt until killed.
const SWAPPER = `
const fs = require("node:fs");
const [ws, outside] = process.argv.slice(1);
const d = ws + "/d", dReal = ws + "/.d-real", f = ws + "/f.txt", fReal = ws + "/.f-real";
let swaps = 0, stop = false;
process.on("SIGTERM", () => { stop = true; });
const step = () => {
  for (let i = 0; i < 200 && !stop; i++) {
    try { fs.renameSync(d, dReal); fs.symlinkSync(outside + "/d", d); } catch {}
    try { fs.renameSync(f, fReal); fs.symlinkSync(outside + "/secret.txt", f); } catch {}
    try { fs.unlinkSync(d); fs.renameSync(dReal, d); } catch {}
    try { fs.unlinkSync(f); fs.renameSync(fReal, f); } catch {}
    swaps++;
  }
  if (swaps === 200) process.stdout.write("started\\n");
  if (stop) { process.stdout.write("swaps " + swaps + "\\n"); process.exit(0); }
  setImmediate(step);
};
step();
`;

function tree(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    out.push(p);
    if (statSync(p, { throwIfNoEntry: false })?.isDirectory()) out.push(...tree(p));
  }
  return out.sort();
}

let fx: Fixture | null = null;
let swapper: ChildProcess | null = null;
afterEach(() => {
  if (swapper && swapper.exitCode === null) swapper.kill("SIGKILL");
  fx?.cleanup();
  fx = null;
});

function setUp(): Fixture {
  const f = makeFixture();
  mkdirSync(join(f.ws, "d", "sub"), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(f.ws, "d", `inside-${i}.txt`), `inside needle ${i}\n`);
  writeFileSync(join(f.ws, "d", "sub", "deep.txt"), "inside needle deep\n");
  writeFileSync(join(f.ws, "f.txt"), "inside needle file\n");
  mkdirSync(join(f.outside, "d", `${LEAK_NAME}-dir`), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(f.outside, "d", `${LEAK_NAME}-${i}.txt`), `${SECRET} needle ${i}\n`);
  writeFileSync(join(f.outside, "d", `${LEAK_NAME}-dir`, "deep.txt"), `${SECRET} needle deep\n`);
  writeFileSync(join(f.outside, "secret.txt"), `${SECRET} needle file\n`);
  return f;
}

async function startSwapper(f: Fixture): Promise<{ stop: () => Promise<number> }> {
  const child = spawn(process.execPath, ["-e", SWAPPER, f.ws, f.outside], { stdio: ["ignore", "pipe", "inherit"] });
  swapper = child;
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("started")) resolve();
    });
    child.on("exit", () => reject(new Error(`swapper exited early: ${out}`)));
  });
  return {
    stop: () =>
      new Promise<number>((resolve) => {
        child.on("exit", () => resolve(Number(/swaps (\d+)/.exec(out)?.[1] ?? 0)));
        child.kill("SIGTERM");
      }),
  };
}

function assertClean(runtime: ToolRuntime, what: string, outcome: ToolOutcome): void {
  const seen = `${text(runtime, outcome)}\n${JSON.stringify(outcome.details ?? {})}`;
  if (seen.includes(SECRET) || seen.includes(LEAK_NAME)) throw new Error(`${what} leaked outside content:\n${seen.slice(0, 2000)}`);
}

describe("tools under a live swap race", () => {
  it(
    "no tool returns a byte or a name from outside, and nothing is created outside, while a folder and a file are swapped for links",
    async () => {
      fx = setUp();
      const f = fx;
      const before = tree(f.outside);
      const builtin = createToolRuntime({
        workspaceRoot: f.ws,
        rgPath: null,
        budget: { maxToolCalls: 1e9, maxOutputBytes: 1e12, maxDurationMs: 1e12, maxSideEffects: 1e9 },
      });
      const rg = findOnPath("rg");
      const swaps = await startSwapper(f);
      const calls: { tool: string; run: () => Promise<ToolOutcome>; runtime: ToolRuntime }[] = [
        { tool: "list", runtime: f.runtime, run: () => readOnly(f.runtime, "list", { path: ".", depth: 3 }) },
        { tool: "list d", runtime: f.runtime, run: () => readOnly(f.runtime, "list", { path: "d" }) },
        { tool: "glob", runtime: f.runtime, run: () => readOnly(f.runtime, "glob", { pattern: "**/*" }) },
        { tool: "grep (built-in)", runtime: builtin, run: () => readOnly(builtin, "grep", { pattern: "needle" }) },
        { tool: "read file", runtime: f.runtime, run: () => readOnly(f.runtime, "read", { path: "f.txt" }) },
        { tool: "read in folder", runtime: f.runtime, run: () => readOnly(f.runtime, "read", { path: "d/inside-1.txt" }) },
        {
          tool: "write new folders",
          runtime: f.runtime,
          run: () => approved(f.runtime, "write", { path: `d/new-${Math.random().toString(36).slice(2)}/x/y.txt`, content: "w\n" }),
        },
        {
          tool: "write in folder",
          runtime: f.runtime,
          run: () => approved(f.runtime, "write", { path: "d/inside-2.txt", content: `inside needle ${Math.random()}\n` }),
        },
        {
          tool: "edit file",
          runtime: f.runtime,
          run: () => approved(f.runtime, "edit", { path: "f.txt", edits: [{ oldText: "needle", newText: "needle" + "!" }] }),
        },
      ];
      if (rg) calls.push({ tool: "grep (rg)", runtime: f.runtime, run: () => readOnly(f.runtime, "grep", { pattern: "needle" }) });

      const started = Date.now();
      const counts = new Map<string, { ok: number; failed: number }>();
      try {
        // Each tool in its own loop, all at once, so the fast ones run hundreds of times.
        await Promise.all(
          calls.map(async (c) => {
            const n = { ok: 0, failed: 0 };
            counts.set(c.tool, n);
            const more = () => n.ok + n.failed < MIN_ROUNDS || (n.ok + n.failed < ROUNDS && Date.now() - started < RUN_BUDGET_MS);
            while (more()) {
              const outcome = await c.run();
              assertClean(c.runtime, c.tool, outcome);
              if (outcome.ok) n.ok++;
              else n.failed++;
            }
          }),
        );
      } finally {
        const made = await swaps.stop();
        // The race was real: the swapper kept swapping the whole time.
        expect(made).toBeGreaterThan(1000);
      }
      console.log("race: calls per tool", Object.fromEntries(counts));
      // (Writes sync to disk and most reads of a swapped path are refused, so those run fewer times or mostly fail.)
      for (const c of calls) {
        const n = counts.get(c.tool) ?? { ok: 0, failed: 0 };
        expect(n.ok + n.failed, c.tool).toBeGreaterThanOrEqual(MIN_ROUNDS);
        // Tools on stable paths must keep working under the race. A list of the swapped folder itself may lose
        // every round on a loaded machine (each of its reads meets the link), so it is only required to answer.
        if (/^(list|glob|grep)/.test(c.tool) && c.tool !== "list d") expect(n.ok, c.tool).toBeGreaterThan(0);
      }
      // Nothing was created or renamed outside the workspace.
      expect(tree(f.outside)).toEqual(before);
      // The budget plus the slow tools' minimum rounds on a loaded machine; no timing is asserted.
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
