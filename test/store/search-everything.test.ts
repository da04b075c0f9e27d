import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importForeignFile } from "../../electron/core/importers/import-foreign";
import { SessionStore } from "../../electron/core/store";
import { SearchFiltersSchema } from "../../shared/search";
import { GPT, assistant, manualClock, toolCall, toolResult, user } from "./helpers";

/** Two workspaces, three sessions: differing models, tools, files touched, notes and times. */
function seeded() {
  const store = SessionStore.open(":memory:", manualClock());
  const api = store.addWorkspace("/work/api");
  const web = store.addWorkspace("/work/web");
  const a = store.createSession({ workspaceId: api.id, title: "Retry logic" });
  store.appendEntry(a.id, user("Add retry with backoff to the fetcher", 1_000));
  store.appendEntry(
    a.id,
    assistant([{ type: "text", text: "I will edit the fetcher retry loop." }, toolCall("c1", "edit", { path: "src/net/fetcher.ts" })], {
      timestamp: 2_000,
    }),
  );
  store.recordToolCall({ sessionId: a.id, toolCallId: "c1", toolName: "edit", args: { path: "src/net/fetcher.ts" }, status: "done" });
  store.appendEntry(a.id, toolResult("c1", "Edited src/net/fetcher.ts: retry now waits", "edit", 3_000));
  const b = store.createSession({ workspaceId: web.id, title: "Retry banner" });
  store.appendEntry(b.id, user("Show a retry banner when offline", 10_000));
  store.appendEntry(
    b.id,
    assistant([{ type: "text", text: "Running the retry tests." }, toolCall("c2", "bash", { command: "npm test" })], {
      model: GPT,
      timestamp: 11_000,
    }),
  );
  store.recordToolCall({ sessionId: b.id, toolCallId: "c2", toolName: "bash", args: { command: "npm test" }, status: "done" });
  store.appendEntry(b.id, toolResult("c2", "retry banner test passed", "bash", 12_000));
  store.addNote({ sessionId: b.id, seq: 2, author: "rev", verdict: "ok", text: "good" });
  const c = store.createSession({ workspaceId: web.id, title: "Unrelated" });
  store.appendEntry(c.id, user("Rename the logo file", 20_000));
  return { store, api, web, a, b, c };
}

const ids = (r: ReturnType<SessionStore["searchEverything"]>) => r.groups.map((g) => g.sessionTitle);

describe("search everything", () => {
  it("searches every workspace and groups hits per session, newest session first, best hits first", () => {
    const { store, a, api } = seeded();
    const r = store.searchEverything("retry");
    expect(ids(r)).toEqual(["Retry banner", "Retry logic"]);
    const logic = r.groups[1];
    expect(logic).toMatchObject({ sessionId: a.id, workspaceId: api.id, workspaceName: "api", workspacePath: "/work/api", hitCount: 3 });
    expect(logic.hits.map((h) => h.seq).sort()).toEqual([1, 2, 3]);
    expect(logic.hits.every((h) => h.snippet.includes("\u0002retry\u0003") || h.snippet.includes("\u0002Retry\u0003"))).toBe(true);
    expect(r.truncated).toBe(false);
    store.close();
  });

  it("keeps at most three best hits per session and says when the limit cut hits off", () => {
    const { store, web } = seeded();
    const s = store.createSession({ workspaceId: web.id, title: "Many" });
    for (let i = 0; i < 8; i++)
      store.appendEntry(
        s.id,
        user(i === 5 ? "zebra zebra zebra zebra" : `zebra number ${i} with a lot of other words around it`, 30_000 + i),
      );
    const r = store.searchEverything("zebra");
    expect(r.groups[0].hitCount).toBe(8);
    expect(r.groups[0].hits).toHaveLength(3);
    // The message that is all "zebra" ranks first.
    expect(r.groups[0].hits[0].seq).toBe(6);
    expect(store.searchEverything("zebra", {}, 4)).toMatchObject({ truncated: true });
    store.close();
  });

  it("filters by workspace, model, date, notes, tool and file touched", () => {
    const { store, api, web } = seeded();
    expect(ids(store.searchEverything("retry", { workspaceId: api.id }))).toEqual(["Retry logic"]);
    expect(ids(store.searchEverything("retry", { workspaceId: web.id }))).toEqual(["Retry banner"]);
    expect(ids(store.searchEverything("retry", { model: "gpt-5" }))).toEqual(["Retry banner"]);
    expect(ids(store.searchEverything("retry", { model: "claude-sonnet-4-5" }))).toEqual(["Retry logic"]);
    expect(ids(store.searchEverything("retry", { model: "no-such-model" }))).toEqual([]);
    expect(ids(store.searchEverything("retry", { from: 5_000 }))).toEqual(["Retry banner"]);
    expect(ids(store.searchEverything("retry", { to: 5_000 }))).toEqual(["Retry logic"]);
    expect(store.searchEverything("retry", { from: 2_000, to: 3_000 }).groups[0].hits.map((h) => h.seq)).toEqual([2]);
    expect(ids(store.searchEverything("retry", { hasNotes: true }))).toEqual(["Retry banner"]);
    expect(ids(store.searchEverything("retry", { tool: "bash" }))).toEqual(["Retry banner"]);
    expect(ids(store.searchEverything("retry", { tool: "edit" }))).toEqual(["Retry logic"]);
    expect(ids(store.searchEverything("retry", { file: "src/net/fetcher.ts" }))).toEqual(["Retry logic"]);
    expect(ids(store.searchEverything("retry", { file: "fetcher.ts" }))).toEqual(["Retry logic"]);
    // A path's tail matches whole segments only, and % or _ are no wildcards.
    expect(ids(store.searchEverything("retry", { file: "tcher.ts" }))).toEqual([]);
    expect(ids(store.searchEverything("retry", { file: "%" }))).toEqual([]);
    expect(ids(store.searchEverything("retry", { file: "src/net/fetcher_ts" }))).toEqual([]);
    expect(ids(store.searchEverything("retry", { tool: "bash", workspaceId: api.id }))).toEqual([]);
    store.close();
  });

  it("filters by agent: sessions of ours, or those imported from one agent", async () => {
    const { store, api } = seeded();
    // A Claude Code transcript imported through the real importer (origin recorded as the app records it).
    const home = mkdtempSync(join(tmpdir(), "search-origin-"));
    const project = join(home, ".claude", "projects", "-work-api");
    mkdirSync(project, { recursive: true });
    const file = join(project, "0b5e1c9a-0000-4000-8000-000000000001.jsonl");
    const at = "2026-03-01T10:00:00.000Z";
    const base = { sessionId: "0b5e1c9a-0000-4000-8000-000000000001", cwd: "/work/api", timestamp: at };
    writeFileSync(
      file,
      [
        { ...base, type: "user", uuid: "u1", parentUuid: null, message: { role: "user", content: "Why does the retry loop spin?" } },
        {
          ...base,
          type: "assistant",
          uuid: "a1",
          parentUuid: "u1",
          message: {
            id: "msg_1",
            role: "assistant",
            model: "claude-sonnet-4-5",
            content: [{ type: "text", text: "The retry counter is never reset." }],
            stop_reason: "end_turn",
            usage: { input_tokens: 10, output_tokens: 5 },
          },
        },
      ]
        .map((o) => JSON.stringify(o))
        .join("\n"),
    );
    const imported = await importForeignFile(store, api.id, { agent: "claude-code", path: file, root: join(home, ".claude", "projects") });
    const sessions = (f: object) => store.searchEverything("retry", f).groups.map((g) => g.sessionId);
    expect(sessions({})).toContain(imported.session.id);
    expect(sessions({ agent: "claude-code" })).toEqual([imported.session.id]);
    expect(ids(store.searchEverything("retry", { agent: "ours" }))).toEqual(["Retry banner", "Retry logic"]);
    expect(sessions({ agent: "codex" })).toEqual([]);
    expect(sessions({ agent: "pi" })).toEqual([]);
    // With the other filters: the imported session is in api, not web.
    expect(sessions({ agent: "claude-code", workspaceId: api.id })).toEqual([imported.session.id]);
    expect(ids(store.searchEverything("retry", { agent: "ours", workspaceId: api.id }))).toEqual(["Retry logic"]);
    // Settings whose keys only look like an origin's do not make one of ours foreign.
    store.setSetting("import.origin", { agent: "claude-code" });
    store.setSetting("import.origins", { agent: "claude-code" });
    expect(ids(store.searchEverything("retry", { agent: "ours" }))).toEqual(["Retry banner", "Retry logic"]);
    // An agent the app does not know is a request error, not an empty answer.
    expect(SearchFiltersSchema.safeParse({ agent: "gemini-cli" }).success).toBe(false);
    expect(SearchFiltersSchema.safeParse({ agent: "claude-code" }).success).toBe(true);
    store.close();
  });

  it("never lets stored text fake a highlight marker, and hostile queries are plain text", () => {
    const { store, web } = seeded();
    const s = store.createSession({ workspaceId: web.id, title: "<img src=x onerror=alert(1)>" });
    store.appendEntry(s.id, user("payload \u0002<script>alert(1)</script>\u0003 injected near keyword", 40_000));
    const r = store.searchEverything("keyword");
    const snippet = r.groups[0].hits[0].snippet;
    // The only markers are FTS5's own, around the match; the stored ones became spaces.
    expect(snippet.split("\u0002")).toHaveLength(2);
    expect(snippet).toContain("\u0002keyword\u0003");
    expect(snippet).toContain("<script>alert(1)</script>");
    expect(r.groups[0].sessionTitle).toBe("<img src=x onerror=alert(1)>");
    for (const q of ['" OR 1', "NEAR(a b)", "title:x", "-retry", "*", "\u0000"]) expect(() => store.searchEverything(q)).not.toThrow();
    store.close();
  });

  it("does not return sessions that were deleted", () => {
    const { store, b } = seeded();
    store.deleteSession(b.id);
    expect(ids(store.searchEverything("retry"))).toEqual(["Retry logic"]);
    store.close();
  });
});
