/**
 * bash's output files live and die with their session: the file of a cut
 * output is kept (bounded) where the model is told, a stopped call leaves
 * nothing, and deleted sessions and killed calls are cleaned up. Before, the
 * 202 MB output of one command stayed in the temp folder for ever.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ToolResultMessage } from "../../shared/protocol";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { BASH_OUTPUT_FILE_MAX_BYTES } from "../../electron/core/tools/limits";
import { OutputFile, ToolOutputs } from "../../electron/core/tools/output-files";
import { messagesOf, startHarness, type Harness } from "../agent/harness";
import { call, makeFixture, type Fixture } from "./helpers";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const dirs: string[] = [];
let h: Harness | null = null;
let fx: Fixture | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  fx?.cleanup();
  fx = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}
const SESSION_A = "0b7e2f4c-1d2a-4c3b-9e8f-0a1b2c3d4e5f";
const SESSION_B = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
/** A pid no process has any more. */
const deadPid = () => spawnSync("true").pid;

describe("bash output files", () => {
  it(
    "a cut output keeps its first 32 MB in the session's folder, the model is told where, and deleting the session removes it",
    async () => {
      const data = tempDir("wb-out-data-");
      h = await startHarness({ dbPath: join(data, "wb.db") });
      await h.call("settings.update", { approvalPolicy: { write: "ask", edit: "ask", bash: "allow", bashAllow: [], bashDeny: [] } });
      const folder = join(data, "tool-output", h.sessionId);
      h.faux.script([
        { type: "reply", content: [{ type: "toolCall", id: "toolu_big", name: "bash", arguments: { command: "yes | head -c 40000000" } }] },
        // The model reads the saved file as it is told, from inside the sandbox; the rest of the data folder stays hidden.
        {
          type: "reply",
          content: [
            { type: "toolCall", id: "toolu_read", name: "bash", arguments: { command: `cat ${folder}/*.log | head -c 4; ls ${data}` } },
          ],
        },
        { type: "reply", content: [{ type: "text", text: "done" }] },
      ]);
      await h.turn("print a lot");
      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      const result = messagesOf(entries).find((m): m is ToolResultMessage => m.role === "toolResult")!;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      const path = /Its first 32 MB saved to (\S+)\./.exec(text)?.[1];
      expect(path).toBeDefined();
      expect(dirname(path!)).toBe(join(data, "tool-output", h.sessionId));
      expect(statSync(path!).size).toBe(BASH_OUTPUT_FILE_MAX_BYTES);
      expect((result.details as { fullOutputPath: string }).fullOutputPath).toBe(path);
      const read = messagesOf(entries).filter((m): m is ToolResultMessage => m.role === "toolResult")[1];
      const readText = read.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      expect(readText).toContain("y\ny\n");
      expect(readText).not.toContain("wb.db");

      await h.call("session.delete", { sessionId: h.sessionId });
      await vi.waitFor(() => expect(existsSync(dirname(path!))).toBe(false), { timeout: 30_000 });
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a call stopped by the user leaves nothing behind, even when its output was cut",
    async () => {
      fx = makeFixture({ bashSandbox: "off" });
      const outputDir = join(fx.base, "tool-output");
      const controller = new AbortController();
      const running = fx.runtime.run(call("bash", { command: "yes | head -c 200000; sleep 300" }), {
        signal: controller.signal,
        ask: async () => ({ approved: true }),
      });
      // Its file holds the cut output once 200,000 bytes went through.
      const size = () => (existsSync(outputDir) ? readdirSync(outputDir).map((n) => statSync(join(outputDir, n)).size) : []);
      await vi.waitFor(() => expect(size().some((s) => s >= 200_000)).toBe(true), { timeout: 60_000 });
      controller.abort();
      const outcome = await running;
      expect(outcome.ok).toBe(false);
      expect(readdirSync(outputDir)).toEqual([]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("files are bounded per session (oldest first) and for all sessions together", async () => {
    const root = tempDir("wb-out-root-");
    const limits = { fileBytes: 100, sessionBytes: 250, totalBytes: 400 };
    const keep = async (session: string, bytes: number, at: number) => {
      const file = await OutputFile.open(join(root, session), at, limits);
      file.write(Buffer.alloc(bytes, 0x61));
      const path = await file.keep(() => new ToolOutputs(root, limits).boundTotal());
      // Ages by name order, whatever the file system's clock resolution.
      utimesSync(path!, at / 1000, at / 1000);
      return { path: path!, capped: file.capped };
    };
    const first = await keep(SESSION_A, 150, 1000);
    expect(first.capped).toBe(true);
    expect(statSync(first.path).size).toBe(100);
    const second = await keep(SESSION_A, 90, 2000);
    const third = await keep(SESSION_A, 90, 3000);
    // 100 + 90 + 90 > 250: the oldest went.
    expect([first, second, third].map((f) => existsSync(f.path))).toEqual([false, true, true]);
    const b1 = await keep(SESSION_B, 100, 4000);
    const b2 = await keep(SESSION_B, 100, 5000);
    // 90 + 90 + 100 + 100 = 380 ≤ 400; one more passes the total and the oldest of all goes.
    expect([second, third, b1, b2].every((f) => existsSync(f.path))).toBe(true);
    const b3 = await keep(SESSION_B, 50, 6000);
    expect([second, third, b1, b2, b3].map((f) => existsSync(f.path))).toEqual([false, true, true, true, true]);
  });

  it("at start, the folders of deleted sessions and the files of killed calls are removed; a live session's files stay", async () => {
    const data = tempDir("wb-out-start-");
    const dbPath = join(data, "wb.db");
    const first = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
    const ws = await first.handle("workspace.open", { path: tempDir("wb-out-ws-") });
    if (!ws.ok) throw new Error(ws.error.message);
    const session = await first.handle("session.create", { workspaceId: (ws.result as { id: string }).id });
    if (!session.ok) throw new Error(session.error.message);
    const live = (session.result as { id: string }).id;
    await first.close();

    const root = join(data, "tool-output");
    const liveDir = join(root, live);
    mkdirSync(liveDir, { recursive: true });
    const kept = join(liveDir, "bash-1700000000000-0a1b2c3d.log");
    const killed = join(liveDir, `bash-1700000000001-0a1b2c3e.${deadPid()}.partial`);
    const running = join(liveDir, `bash-1700000000002-0a1b2c3f.${process.pid}.partial`);
    const notOurs = join(liveDir, "notes.txt");
    for (const f of [kept, killed, running, notOurs]) writeFileSync(f, "x");
    const gone = join(root, SESSION_B);
    mkdirSync(gone);
    writeFileSync(join(gone, "bash-1700000000003-0a1b2c40.log"), "x");

    const second = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
    try {
      await vi.waitFor(() => {
        expect(existsSync(gone)).toBe(false);
        expect(existsSync(killed)).toBe(false);
      });
      expect([kept, running, notOurs].every((f) => existsSync(f))).toBe(true);
    } finally {
      await second.close();
    }
  });
});
