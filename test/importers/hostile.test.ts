/**
 * A foreign session file is untrusted: crafted lines, names and contents
 * import safely or fail with a typed error, store nothing, and the foreign
 * files are never written.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importClaudeCode } from "../../electron/core/importers/claude-code";
import { importCodex } from "../../electron/core/importers/codex";
import { decodeText } from "../../electron/core/importers/decode";
import { agentRoots, discover } from "../../electron/core/importers/discover";
import { importForeignFile } from "../../electron/core/importers/import-foreign";
import { readJsonl } from "../../electron/core/importers/jsonl";
import { loadOrigin } from "../../electron/core/importers/origin";
import { ForeignImportError } from "../../electron/core/importers/types";
import { SessionStore } from "../../electron/core/store";
import { fingerprint } from "./run-cli";

const T = "2026-03-01T10:00:00.000Z";
const line = (o: unknown) => JSON.stringify(o);
const user = (uuid: string, parent: string | null, content: unknown, extra: object = {}) =>
  line({ type: "user", uuid, parentUuid: parent, sessionId: "s-1", cwd: "/w", timestamp: T, message: { role: "user", content }, ...extra });
const assistant = (uuid: string, parent: string, id: string, content: unknown[], extra: object = {}) =>
  line({
    type: "assistant",
    uuid,
    parentUuid: parent,
    sessionId: "s-1",
    timestamp: T,
    message: {
      id,
      role: "assistant",
      model: "claude-sonnet-4-5",
      content,
      stop_reason: "end_turn",
      usage: { input_tokens: 10, output_tokens: 5 },
    },
    ...extra,
  });

function claudeHome() {
  const home = mkdtempSync(join(tmpdir(), "cc-hostile-"));
  const project = join(home, ".claude", "projects", "-w");
  mkdirSync(project, { recursive: true });
  return { home, root: join(home, ".claude", "projects"), project };
}

async function expectRejected(store: SessionStore, workspaceId: string, p: Promise<unknown>, code: string) {
  await expect(p).rejects.toBeInstanceOf(ForeignImportError);
  await expect(p).rejects.toMatchObject({ code });
  expect(store.listSessions(workspaceId).sessions).toEqual([]);
}

describe("hostile foreign files", () => {
  it("lines that are not JSON are left out and counted in the header; the rest imports", () => {
    const text = [
      user("u1", null, "hi"),
      "{not json",
      "[1,2]",
      assistant("a1", "u1", "m1", [{ type: "text", text: "hello" }]),
      '{"type":"assistant","mess',
    ].join("\n");
    const s = importClaudeCode({ path: "x.jsonl", text });
    expect(s.entries.map((e) => e.type === "message" && e.message.role)).toEqual(["user", "assistant"]);
    expect(s.notHeld[0]).toBe("3 lines (2, 3, 5) were not JSON and were left out");
  });

  it("a line or a file past the size limit fails as IMPORT_TOO_LARGE; a file within it imports", async () => {
    const { home, root, project } = claudeHome();
    const file = join(project, "big.jsonl");
    writeFileSync(file, `${user("u1", null, "hi")}\n${user("u2", "u1", "x".repeat(300))}\n`);
    expect(() => readJsonl(`${"x".repeat(200)}\n`, { fileBytes: 1e9, lineChars: 100, children: 1 })).toThrow(/line 1 has 200 characters/);
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace(home).id;
    // The file limit, through the real path.
    const big = join(project, "huge.jsonl");
    writeFileSync(big, Buffer.alloc(1024, 0x20));
    const { readForeignText } = await import("../../electron/core/importers/read-file");
    await expect(readForeignText(big, 512)).rejects.toMatchObject({ code: "IMPORT_TOO_LARGE" });
    await importForeignFile(store, ws, { agent: "claude-code", path: file, root });
    expect(store.listSessions(ws).sessions).toHaveLength(1);
    store.close();
  });

  it("refuses paths outside the agent's folder: .. names and symbolic links", async () => {
    const { home, root, project } = claudeHome();
    const outside = join(home, "secret.jsonl");
    writeFileSync(outside, user("u1", null, "secret"));
    symlinkSync(outside, join(project, "link.jsonl"));
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace(home).id;
    await expectRejected(
      store,
      ws,
      importForeignFile(store, ws, { agent: "claude-code", path: join(project, "..", "..", "..", "secret.jsonl"), root }),
      "IMPORT_INVALID",
    );
    await expectRejected(
      store,
      ws,
      importForeignFile(store, ws, { agent: "claude-code", path: join(project, "link.jsonl"), root }),
      "IMPORT_INVALID",
    );
    await expectRejected(
      store,
      ws,
      importForeignFile(store, ws, { agent: "claude-code", path: join(project, "missing.jsonl"), root }),
      "NOT_FOUND",
    );
    // Discovery lists neither the link nor anything outside.
    const [listing] = await discover(
      agentRoots({ CLAUDE_CONFIG_DIR: join(home, ".claude") }, home).filter((r) => r.agent === "claude-code"),
    );
    expect(listing?.sessions).toEqual([]);
    store.close();
  });

  it("HTML and script in content stay text, stored verbatim (the renderer sanitises at display)", async () => {
    const { home, root, project } = claudeHome();
    const evil = '<img src=x onerror="alert(1)"><script>fetch("http://evil")</script>';
    const file = join(project, "evil.jsonl");
    writeFileSync(
      file,
      [
        user("u1", null, evil),
        assistant("a1", "u1", "m1", [
          { type: "text", text: evil },
          { type: "tool_use", id: "t1", name: "<b>Bash</b>", input: { command: evil } },
        ]),
      ].join("\n"),
    );
    const before = await fingerprint([file]);
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace(home).id;
    const r = await importForeignFile(store, ws, { agent: "claude-code", path: file, root });
    const entries = store.loadEntries(r.session.id).map((e) => e.entry);
    expect(JSON.stringify(entries)).toContain(JSON.stringify(evil).slice(1, -1));
    expect(r.session.title).toBe(evil);
    expect(await fingerprint([file])).toEqual(before);
    store.close();
  });

  it("a time out of range is IMPORT_INVALID naming the entry, and nothing of the import stays (children included)", async () => {
    const { home, root, project } = claudeHome();
    const file = join(project, "s-1.jsonl");
    writeFileSync(file, [user("u1", null, "hi"), assistant("a1", "u1", "m1", [{ type: "text", text: "ok" }])].join("\n"));
    // A valid parent with a sub-agent transcript whose time is 1970: the whole import is undone.
    mkdirSync(join(project, "s-1", "subagents"), { recursive: true });
    writeFileSync(
      join(project, "s-1", "subagents", "agent-x.jsonl"),
      line({
        type: "user",
        uuid: "c1",
        parentUuid: null,
        sessionId: "s-1",
        timestamp: "1970-01-02T00:00:00Z",
        message: { role: "user", content: "sub" },
      }),
    );
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace(home).id;
    const p = importForeignFile(store, ws, { agent: "claude-code", path: file, root });
    await expectRejected(store, ws, p, "IMPORT_INVALID");
    await expect(p).rejects.toThrow(/entry 1: message.timestamp/);
    store.close();
  });

  it("a branch cycle, a crafted tool input and an unknown block kind import without a crash", () => {
    const text = [
      line({ type: "user", uuid: "u1", parentUuid: "a1", sessionId: "s", timestamp: T, message: { role: "user", content: "loop" } }),
      assistant("a1", "u1", "m1", [
        { type: "tool_use", id: "t1", name: "Bash", input: "rm -rf /" },
        { type: "server_tool_use", id: "s1" },
      ]),
    ].join("\n");
    const s = importClaudeCode({ path: "x", text });
    const a = s.entries.find((e) => e.type === "message" && e.message.role === "assistant");
    expect(a?.type === "message" && a.message.role === "assistant" && a.message.content[0]).toMatchObject({
      type: "toolCall",
      arguments: {},
      argumentsError: "the recorded input is not an object",
    });
    expect(s.notHeld.some((n) => n.includes("server_tool_use"))).toBe(true);
  });

  it("a zstd bomb stops at the limit; bytes that are not UTF-8 are IMPORT_INVALID", async () => {
    const { execFileSync } = await import("node:child_process");
    const { onPath } = await import("../../scripts/chromium-path");
    expect(() => decodeText(Buffer.from([0xff, 0xfe, 0x00]), "bad")).toThrow(/not UTF-8/);
    expect(() => decodeText(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]), "bad.zst")).toThrow(ForeignImportError);
    if (onPath("zstd") === null) return;
    const bomb = execFileSync("zstd", ["-q", "-c", "-19"], { input: Buffer.alloc(8 * 1024 * 1024, 0x61) });
    expect(bomb.length).toBeLessThan(4096);
    expect(() => decodeText(bomb, "bomb.zst", 1024 * 1024)).toThrow(/expands past 1048576 bytes/);
  });

  it("Codex: unknown items and a bad arguments string are said, not fatal; a file with nothing Codex is IMPORT_INVALID", () => {
    const rec = (type: string, payload: object) => line({ timestamp: T, type, payload });
    const text = [
      rec("session_meta", { id: "r1", cwd: "/w" }),
      rec("turn_context", { model: "gpt-5-codex", approval_policy: "on-request", sandbox_policy: { type: "workspace-write" } }),
      rec("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] }),
      rec("response_item", { type: "function_call", id: "fc_1", call_id: "call_1", name: "shell", arguments: "{oops" }),
      rec("response_item", { type: "web_search_call", id: "ws_1" }),
      rec("response_item", { type: "function_call_output", call_id: "call_1", output: { content: "failed", success: false } }),
    ].join("\n");
    const s = importCodex("r.jsonl", text);
    const result = s.entries.find((e) => e.type === "message" && e.message.role === "toolResult");
    expect(result?.type === "message" && result.message).toMatchObject({ toolCallId: "call_1|fc_1", toolName: "shell", isError: true });
    expect(s.notHeld.join("\n")).toContain("1 web_search_call");
    expect(() => importCodex("x", "{}\n")).toThrow(ForeignImportError);
  });

  it("keeps the origin record with what the format could not hold", async () => {
    const { home, root, project } = claudeHome();
    const file = join(project, "s-2.jsonl");
    writeFileSync(
      file,
      [
        user("u1", null, "hi"),
        line({ type: "attachment", uuid: "x1", parentUuid: "u1" }),
        assistant("a1", "x1", "m1", [{ type: "text", text: "ok" }]),
      ].join("\n"),
    );
    const store = SessionStore.open(":memory:");
    const ws = store.addWorkspace(home).id;
    const r = await importForeignFile(store, ws, { agent: "claude-code", path: file, root });
    const origin = loadOrigin(store, r.session.id);
    expect(origin?.notHeld.join("\n")).toContain("1 attachment");
    store.close();
  });
});
