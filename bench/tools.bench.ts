/**
 * Tool benchmark (`npm run bench:tools`). A script, not a test: it prints
 * figures and ends with one line `RESULT {json}`.
 *
 * Over a generated tree of 20,000 files (temp dir, removed afterwards):
 * - grepMs: our grep tool end to end (sandbox checks, `rg --json`, parsing,
 *   sorting, formatting), median of interleaved runs;
 * - rgMs: a bare `rg -n` of the same pattern over the same tree, spawned the
 *   same way, output drained, in the same runs;
 * - grepRatioToRg: grepMs / rgMs (target <= 1.3);
 * - fallbackGrepMs: the built-in engine (no rg) for the same query;
 * - globMs: glob "**\/*.ts" (walk, .gitignore, stat for mtime, sort);
 * - bashMs / bashSandboxedMs: an approved `true` through the bash tool end to
 *   end, unconfined vs in the OS sandbox (bubblewrap here), interleaved in the
 *   same run; bashSandboxOverheadMs is the difference of the medians
 *   (null, with bashSandbox "none", where no sandbox works).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolRuntime, type ToolRuntime } from "../electron/core/tools";
import { findOnPath } from "../electron/core/tools/tool-specs";
import { detectBashSandbox } from "../electron/core/tools/bash-sandbox";
import { seededRandom } from "./seeded-random";

const FILES = 20_000;
const PER_DIR = 100;
const RUNS = 15;
const FALLBACK_RUNS = 3;
const PATTERN = "parseConfig";
const BASH_RUNS = 21;

const { rand, pick } = seededRandom(0x2545f491);
const NAMES = ["value", "items", "result", "options", "handler", "buffer", "index", "state", "config", "request", "response", "payload"];
const CALLS = ["render", "update", "compute", "dispatch", "validate", "serialize", "transform", "resolve", "load", "store"];

/** A plausible source file of 30-60 lines; about 1 file in 40 calls parseConfig. */
function sourceFile(i: number): string {
  const lines: string[] = [`// file ${i}`, `import { ${pick(CALLS)} } from "./mod-${Math.floor(rand() * 500)}";`, ""];
  const n = 30 + Math.floor(rand() * 30);
  for (let k = 0; k < n; k++) {
    const r = rand();
    if (r < 0.0006) lines.push(`  const ${pick(NAMES)} = parseConfig(${pick(NAMES)}, ${k});`);
    else if (r < 0.3) lines.push(`export function ${pick(CALLS)}${k}(${pick(NAMES)}: number): number {`);
    else if (r < 0.6) lines.push(`  return ${pick(CALLS)}(${pick(NAMES)}) + ${Math.floor(rand() * 1000)};`);
    else lines.push(`  // ${pick(NAMES)} ${pick(CALLS)} ${pick(NAMES)}`);
  }
  return lines.join("\n") + "\n";
}

function generate(root: string): void {
  writeFileSync(join(root, ".gitignore"), "build/\n*.log\n");
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${Math.floor(i / (PER_DIR * 10))}`, `mod${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    const ext = i % 10 === 0 ? "md" : i % 7 === 0 ? "js" : "ts";
    writeFileSync(join(dir, `file${i}.${ext}`), sourceFile(i));
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A bare rg run of the same query: spawned from Node, output drained, timed to close. */
function bareRg(rg: string, root: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(rg, ["-n", PATTERN, "."], { cwd: root, stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.on("data", () => undefined);
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - start));
  });
}

async function timeGrep(runtime: ToolRuntime): Promise<{ ms: number; matches: unknown }> {
  const start = performance.now();
  const outcome = await runtime.runReadOnly({ id: "bench", name: "grep", arguments: { pattern: PATTERN } });
  const ms = performance.now() - start;
  if (!outcome.ok) throw new Error(outcome.error.message);
  return { ms, matches: outcome.details?.matches };
}

async function timeBash(runtime: ToolRuntime): Promise<number> {
  const start = performance.now();
  const outcome = await runtime.run(
    { id: "bench", name: "bash", arguments: { command: "true" } },
    { ask: async () => ({ approved: true }) },
  );
  const ms = performance.now() - start;
  if (!outcome.ok) throw new Error(outcome.error.message);
  return ms;
}

/** A trivial command sandboxed vs not, interleaved; a small workspace of its own. */
async function bashOverhead(budget: Parameters<typeof createToolRuntime>[0]["budget"]) {
  const info = detectBashSandbox();
  const ws = mkdtempSync(join(tmpdir(), "awb-bench-bash-"));
  try {
    const plain = createToolRuntime({ workspaceRoot: ws, budget, bashSandbox: "off" });
    const boxed = createToolRuntime({ workspaceRoot: ws, budget, bashSandbox: "auto" });
    await timeBash(plain);
    await timeBash(boxed);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < BASH_RUNS; i++) {
      if (i % 2 === 0) {
        a.push(await timeBash(plain));
        b.push(await timeBash(boxed));
      } else {
        b.push(await timeBash(boxed));
        a.push(await timeBash(plain));
      }
    }
    console.log(`bash "true" (ms): unsandboxed ${a.map(Math.round).join(" ")} | ${info.kind} ${b.map(Math.round).join(" ")}`);
    const bashMs = median(a);
    const bashSandboxedMs = median(b);
    return {
      bashSandbox: info.kind,
      bashMs: Math.round(bashMs * 10) / 10,
      bashSandboxedMs: Math.round(bashSandboxedMs * 10) / 10,
      bashSandboxOverheadMs: info.kind === "none" ? null : Math.round((bashSandboxedMs - bashMs) * 10) / 10,
    };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rg = findOnPath("rg");
  if (!rg) throw new Error("rg is not on PATH (apt-get install ripgrep)");
  const root = mkdtempSync(join(tmpdir(), "awb-bench-tools-"));
  try {
    const genStart = performance.now();
    generate(root);
    console.log(`generated ${FILES} files in ${Math.round(performance.now() - genStart)} ms under ${root}`);
    const budget = { maxToolCalls: 1e9, maxOutputBytes: 1e12, maxDurationMs: 1e12, maxSideEffects: 1e9 };
    const withRg = createToolRuntime({ workspaceRoot: root, budget });
    const builtin = createToolRuntime({ workspaceRoot: root, rgPath: null, budget });

    // Warm the page cache and both paths.
    await bareRg(rg, root);
    const warm = await timeGrep(withRg);
    console.log(`grep "${PATTERN}": ${String(warm.matches)} matching lines shown`);

    const ours: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, alternating order, so a noisy neighbour hits both alike.
      if (i % 2 === 0) {
        ours.push((await timeGrep(withRg)).ms);
        bare.push(await bareRg(rg, root));
      } else {
        bare.push(await bareRg(rg, root));
        ours.push((await timeGrep(withRg)).ms);
      }
    }
    const fallback: number[] = [];
    for (let i = 0; i < FALLBACK_RUNS; i++) fallback.push((await timeGrep(builtin)).ms);
    const globs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const outcome = await withRg.runReadOnly({ id: "bench", name: "glob", arguments: { pattern: "**/*.ts" } });
      globs.push(performance.now() - start);
      if (!outcome.ok) throw new Error(outcome.error.message);
      if (i === 0) console.log(`glob "**/*.ts": ${String(outcome.details?.total)} files`);
    }

    const bash = await bashOverhead(budget);
    const grepMs = median(ours);
    const rgMs = median(bare);
    const result = {
      files: FILES,
      grepMs: Math.round(grepMs * 10) / 10,
      rgMs: Math.round(rgMs * 10) / 10,
      grepRatioToRg: Math.round((grepMs / rgMs) * 100) / 100,
      fallbackGrepMs: Math.round(median(fallback)),
      globMs: Math.round(median(globs)),
      ...bash,
    };
    console.log(`grep runs (ms): ours ${ours.map(Math.round).join(" ")} | bare rg ${bare.map(Math.round).join(" ")}`);
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
