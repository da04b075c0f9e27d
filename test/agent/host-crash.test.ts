import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../shared/protocol";
import { startHarness, type Harness } from "./harness";

const dirs: string[] = [];
let h: Harness | null = null;
const running = new Set<ChildProcess>();
afterEach(async () => {
  // A timeout before READY must not leave the child host (and its faux server) running forever.
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  await h?.close();
  h = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts the child host and resolves with the session id once a turn waits for approval. */
function runChildUntilReady(dbPath: string, workspace: string): Promise<{ sessionId: string; kill: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(__dirname, "fixtures", "host-child.ts"), dbPath, workspace], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /READY (\S+)/.exec(out);
      if (m) {
        resolve({
          sessionId: m[1],
          kill: () =>
            new Promise<void>((done) => {
              child.once("exit", () => done());
              child.kill("SIGKILL");
            }),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
  });
}

describe("host process killed mid-turn", () => {
  it("reopens the session repaired and continues it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wb-crash-"));
    dirs.push(dir);
    const workspace = join(dir, "ws");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "a.txt"), "one\n");
    const dbPath = join(dir, "workbench.db");

    const child = await runChildUntilReady(dbPath, workspace);
    await child.kill();

    h = await startHarness({ dbPath });
    const { entries, turn } = await h.call("session.load", { sessionId: child.sessionId });
    expect(turn.status).toBe("idle");
    const msgs: Message[] = entries.flatMap((e) => (e.entry.type === "message" ? [e.entry.message] : []));
    const results = msgs.filter((m) => m.role === "toolResult");
    // The read had finished before the kill; the edit waiting for approval is answered as aborted.
    expect(results.map((r) => r.role === "toolResult" && [r.toolCallId, r.isError])).toEqual([
      ["toolu_read_1", false],
      ["toolu_edit_1", true],
    ]);
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("one\n");

    h.faux.script([{ type: "reply", content: [{ type: "text", text: "picking up where we left off" }] }]);
    const from = h.events.length;
    await h.call("chat.send", { sessionId: child.sessionId, text: "continue" });
    await h.waitFor("stream.end", (p) => p.sessionId === child.sessionId, from);
    const after = await h.call("session.load", { sessionId: child.sessionId });
    const last = after.entries.at(-1)?.entry;
    expect(last).toMatchObject({ type: "message", message: { role: "assistant", stopReason: "stop" } });
    expect(h.faux.requests.every((r) => r.accepted)).toBe(true);
    // The child host loads the whole core under tsx (~18 s to READY at load 10 on 2 cores), then the
    // harness starts another: generous for a loaded machine; no timing is asserted.
  }, 120_000);
});
