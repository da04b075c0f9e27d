/**
 * Checkpoint benchmark (`npm run bench:checkpoint`). A script, not a test: it
 * prints figures and ends with one line `RESULT {json}`. Design notes and
 * the figures' meaning: docs/checkpoints.md.
 *
 * Workspace (generated once, cached under the OS temp folder): 20,000 files,
 * ~200 MB (14,000 small ~2 KB files, 6,000 ~28 KB), a git repository with
 * everything committed, and a 5,000-file node_modules it ignores.
 * - firstCheckpointMs: the first checkpoint, cold (empty private repository);
 * - incrementalCheckpointMs: a checkpoint after 10 files changed (median);
 * - gitStatusMs: `git status --porcelain` on the same tree in the same runs
 *   (median), and ratioToGitStatus = incremental / gitStatus;
 * - unchangedCheckpointMs: a checkpoint after a command that changed nothing
 *   (median; the index comes out identical, so no tree is written);
 * - restoreMs: a rewind of 100 changed files (snapshot of the current state,
 *   conflict check, restore);
 * - storeGrowthBytes: store growth over 100 checkpoints of 10 changed small
 *   files each, after the background maintenance packs it (the loose figure,
 *   before packing, is reported too), against changedBytes (the bytes of the
 *   new file versions).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { restoreFiles } from "../electron/core/checkpoints/rewind";
import { CheckpointService } from "../electron/core/checkpoints/service";
import { SessionStore } from "../electron/core/store";
import { seededRandom } from "./seeded-random";

const SMALL = 14_000;
const LARGE = 6_000;
const DEPS = 5_000;
const PER_DIR = 100;
const RUNS = 7;
const CACHE = join(tmpdir(), "agent-workbench-bench-checkpoint-v1");
const WS = join(CACHE, "ws");

const { rand, pick } = seededRandom(0x51ed270b);
const WORDS = [
  "const",
  "value",
  "return",
  "function",
  "import",
  "export",
  "config",
  "items",
  "state",
  "handler",
  "render",
  "update",
  "=",
  "{",
  "}",
  "(",
  ")",
  ";",
  "if",
  "else",
];

function text(bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const line = Array.from({ length: 4 + Math.floor(rand() * 8) }, () => pick(WORDS)).join(" ") + ` ${Math.floor(rand() * 1e6)}\n`;
    parts.push(line);
    n += line.length;
  }
  return parts.join("");
}

const smallPath = (i: number) => join("src", `s${Math.floor(i / PER_DIR)}`, `small-${i}.ts`);
const largePath = (i: number) => join("assets", `l${Math.floor(i / PER_DIR)}`, `large-${i}.txt`);

function git(args: string[], cwd = WS): string {
  return execFileSync("git", args, {
    cwd,
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "b",
      GIT_AUTHOR_EMAIL: "b@b",
      GIT_COMMITTER_NAME: "b",
      GIT_COMMITTER_EMAIL: "b@b",
    },
    maxBuffer: 1 << 30,
  }).toString();
}

function generate(): void {
  if (existsSync(join(CACHE, "ready"))) return;
  rmSync(CACHE, { recursive: true, force: true });
  console.log(`generating the workspace in ${WS} (once)…`);
  const write = (rel: string, content: string) => {
    const abs = join(WS, rel);
    mkdirSync(join(abs, ".."), { recursive: true });
    writeFileSync(abs, content);
  };
  for (let i = 0; i < SMALL; i++) write(smallPath(i), text(1500 + Math.floor(rand() * 1000)));
  for (let i = 0; i < LARGE; i++) write(largePath(i), text(24_000 + Math.floor(rand() * 8000)));
  for (let i = 0; i < DEPS; i++) write(join("node_modules", `pkg${Math.floor(i / PER_DIR)}`, `index-${i}.js`), text(1000));
  write(".gitignore", "node_modules/\n");
  git(["init", "-q"]);
  git(["add", "-A"]);
  git(["commit", "-qm", "bench workspace"]);
  writeFileSync(join(CACHE, "ready"), "");
}

/** Back to the committed state (the previous run changed files). */
function reset(): void {
  git(["reset", "-q", "--hard"]);
  git(["clean", "-fdq"]);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function gitStatusMs(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("git", ["status", "--porcelain"], { cwd: WS, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null" } });
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - t0));
  });
}

let edits = 0;
/** Rewrites files with new content of about the same size; returns the bytes written. */
function change(paths: readonly string[]): number {
  let bytes = 0;
  for (const p of paths) {
    const old = readFileSync(join(WS, p), "utf8");
    const next = `// edit ${++edits}\n` + text(Math.max(200, old.length - 200));
    writeFileSync(join(WS, p), next);
    bytes += Buffer.byteLength(next);
  }
  return bytes;
}

const randomSmall = (n: number) => Array.from({ length: n }, () => smallPath(Math.floor(rand() * SMALL)));

async function main(): Promise<void> {
  generate();
  reset();
  const root = mkdtempSync(join(tmpdir(), "wb-bench-cp-"));
  const store = SessionStore.open(":memory:");
  const ws = store.addWorkspace(WS);
  const session = store.createSession({ workspaceId: ws.id });
  const service = new CheckpointService({ store, root, settings: () => ({ enabled: true, capBytes: 1e12 }), maintainDelayMs: 1e9 });
  let seq = 0;
  const record = async () => {
    const r = await service.record(session.id, { kind: "afterTool", seq: ++seq, toolCallId: `c${seq}` });
    if (!r) throw new Error("checkpoint failed: " + (await service.status(ws.id)).lastError);
    return r;
  };

  try {
    let t0 = performance.now();
    const first = await record();
    const firstCheckpointMs = performance.now() - t0;
    console.log(`first checkpoint: ${firstCheckpointMs.toFixed(0)} ms`);

    const incremental: number[] = [];
    const status: number[] = [];
    await gitStatusMs(); // warm the user repository's index the same way
    for (let r = 0; r < RUNS; r++) {
      change(randomSmall(10));
      status.push(await gitStatusMs());
      t0 = performance.now();
      await record();
      incremental.push(performance.now() - t0);
    }
    const incrementalCheckpointMs = median(incremental);
    const gitStatus = median(status);
    console.log(
      `incremental: ${incremental.map((x) => x.toFixed(0)).join(", ")} ms; git status: ${status.map((x) => x.toFixed(0)).join(", ")} ms`,
    );

    const unchanged: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      t0 = performance.now();
      await record();
      unchanged.push(performance.now() - t0);
    }
    const unchangedCheckpointMs = median(unchanged);
    console.log(`unchanged: ${unchanged.map((x) => x.toFixed(0)).join(", ")} ms`);

    const beforeRestore = await record();
    change([...randomSmall(70), ...Array.from({ length: 30 }, () => largePath(Math.floor(rand() * LARGE)))]);
    await record();
    t0 = performance.now();
    const outcome = await restoreFiles(service, session.id, beforeRestore, { confirmConflicts: true, atSeq: seq });
    const restoreMs = performance.now() - t0;
    console.log(`restore of ${outcome.files.length} files: ${restoreMs.toFixed(0)} ms`);

    await service.maintain(ws.id);
    const base = (await service.status(ws.id)).usedBytes;
    let changedBytes = 0;
    for (let i = 0; i < 100; i++) {
      changedBytes += change(randomSmall(10));
      await record();
    }
    const loose = (await service.status(ws.id)).usedBytes - base;
    await service.maintain(ws.id);
    const packed = (await service.status(ws.id)).usedBytes - base;
    console.log(`100 checkpoints of 10 small files: ${changedBytes} bytes changed; store +${loose} loose, +${packed} after maintenance`);

    const result = {
      files: SMALL + LARGE,
      workspaceBytes: git(["ls-tree", "-r", "-l", "HEAD"])
        .split("\n")
        .reduce((n, l) => n + (Number(l.split(/\s+/)[3]) || 0), 0),
      ignoredFiles: DEPS,
      firstCheckpointMs: Math.round(firstCheckpointMs),
      firstCheckpointId: first.id,
      incrementalCheckpointMs: Math.round(incrementalCheckpointMs),
      gitStatusMs: Math.round(gitStatus),
      ratioToGitStatus: Number((incrementalCheckpointMs / gitStatus).toFixed(2)),
      unchangedCheckpointMs: Math.round(unchangedCheckpointMs),
      restoreFiles: outcome.files.length,
      restoreMs: Math.round(restoreMs),
      changedBytes,
      storeGrowthBytes: packed,
      storeGrowthLooseBytes: loose,
      growthRatio: Number((packed / changedBytes).toFixed(2)),
      looseGrowthRatio: Number((loose / changedBytes).toFixed(2)),
    };
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    await service.close();
    store.close();
    rmSync(root, { recursive: true, force: true });
    reset();
  }
}

void main();
