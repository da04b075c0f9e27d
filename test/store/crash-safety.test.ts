import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../electron/core/store";
import { crashEntry } from "./fixtures/crash-entries";
import { tempDir, type TempDir } from "./helpers";

const CHILD = fileURLToPath(new URL("./fixtures/append-child.ts", import.meta.url));

let dir: TempDir;
const running = new Set<ChildProcess>();
afterEach(() => {
  // A failed assertion or a timeout must not leave a child appending forever.
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  dir?.remove();
});

/**
 * Runs the appending child until it has acknowledged `minAcks` appends, then
 * SIGKILLs it. Resolves with every seq it acknowledged (including acks that
 * were still in the pipe when it died).
 */
function appendUntilKilled(dbPath: string, sessionId: string, minAcks: number, mode: Mode): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, dbPath, sessionId, mode], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    const acks: number[] = [];
    let checkpoints = 0;
    let partial = "";
    let stderr = "";
    let killed = false;
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      const lines = (partial + d.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^ack (\d+) (\d+)$/.exec(line);
        if (m) {
          acks.push(Number(m[1]));
          checkpoints = Number(m[2]);
        }
      }
      // With idle checkpoints: not before two of them ran between the child's appends.
      if (!killed && acks.length >= minAcks && (mode === "atCommit" || checkpoints >= 2)) {
        killed = true;
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    // "close" fires after stdout has drained, so every printed ack is counted.
    child.on("close", (code, signal) => {
      running.delete(child);
      if (signal === "SIGKILL" && killed) resolve(acks);
      else reject(new Error(`child ended on its own (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

type Mode = "atCommit" | "whenIdle";

describe("crash safety", () => {
  // "whenIdle": the app's way, a PASSIVE checkpoint on the main connection whenever the writer pauses.
  it.each<Mode>(["atCommit", "whenIdle"])(
    "keeps every acknowledged append and a sound file when the writer is SIGKILLed (checkpoints %s)",
    async (mode) => {
      dir = tempDir();
      const path = dir.file("crash.db");
      const setup = SessionStore.open(path);
      const session = setup.createSession({ workspaceId: setup.addWorkspace("/w").id });
      setup.close();

      // seq -> what the child wrote there; repair's synthesized results are tracked apart.
      const expected = new Map<number, number>();
      let onDisk = 0;
      for (let round = 0; round < 2; round++) {
        const acks = await appendUntilKilled(path, session.id, 300, mode);
        // The child acknowledges contiguous seqs right after what was on disk.
        expect(acks).toEqual(acks.map((_, i) => onDisk + i + 1));
        for (const seq of acks) expected.set(seq, seq - 1);

        const raw = new Database(path);
        expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
        raw.close();

        const store = SessionStore.open(path);
        const { entries, problems } = store.loadEntriesChecked(session.id);
        expect(problems).toEqual([]);
        expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
        expect(store.getSession(session.id)?.entryCount).toBe(entries.length);
        // Beyond the acks: at most the one append that committed as the child died, then repair's results.
        const added = store.openReport.repaired.reduce((n, r) => n + r.added, 0);
        const inFlight = entries.length - added - (onDisk + acks.length);
        expect(inFlight === 0 || inFlight === 1).toBe(true);
        for (let k = 1; k <= inFlight; k++) expected.set(onDisk + acks.length + k, onDisk + acks.length + k - 1);
        for (const [seq, i] of expected) expect(entries[seq - 1].entry).toEqual(crashEntry(i));
        for (const e of entries.slice(entries.length - added)) {
          expect(e.entry).toMatchObject({ type: "message", message: { role: "toolResult", details: { synthesized: true } } });
        }
        // The index catches up on rows the child committed but never indexed.
        const lastUserSeq = Math.max(...[...expected.keys()].filter((seq) => (seq - 1) % 3 === 0));
        expect(store.search(`please look file ${lastUserSeq - 1}`).map((h) => h.seq)).toContain(lastUserSeq);
        onDisk = entries.length;
        store.close();
      }
      // Two child processes under tsx: generous on a loaded machine; no timing is asserted.
    },
    120_000,
  );
});
