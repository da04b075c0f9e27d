import { describe, expect, it } from "vitest";
import { SessionExportSchema, type SessionExport } from "../../shared/review";
import { SessionStore } from "../../electron/core/store";
import { buildEnvelope, importEnvelope, loadExportSource, parseEnvelope, serializeEnvelope } from "../../electron/core/review/export-json";
import { exportSession } from "../../electron/core/review/export-session";
import { scriptHash } from "../../electron/core/review/export-html";
import { closeFences } from "../../electron/core/review/export-markdown";
import { REPLAY_SCRIPT } from "../../electron/core/review/html-replay.generated";
import { createRedactor } from "../../electron/core/review/redact";
import { modelViewAt } from "../../electron/core/review/model-view";
import { T0, TOOL_SPECS, WORKSPACE, buildSession, resolveModel } from "./fixture";

const redactor = createRedactor();

function reviewed() {
  const f = buildSession();
  f.clock.set(T0 + 40_000);
  f.store.addNote({ sessionId: f.sessionId, seq: 11, author: "rita", verdict: "problem", text: "Rate limited: retry worked." });
  f.clock.set(T0 + 41_000);
  f.store.addNote({ sessionId: f.sessionId, seq: 16, author: "rita", verdict: "ok", text: "Right to deny npm test here." });
  f.clock.set(T0 + 42_000);
  f.store.addNote({ sessionId: f.sessionId, seq: 21, author: "sam", verdict: null, text: "Check the README wording." });
  return f;
}

function exportText(store: SessionStore, sessionId: string, format: "json" | "markdown" | "html"): string {
  const r = exportSession(store, sessionId, format, redactor);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.content;
}

function envelopeOf(store: SessionStore, sessionId: string): SessionExport {
  const src = loadExportSource(store, sessionId);
  if (!src.ok) throw new Error(src.error.message);
  return buildEnvelope(src.value, redactor);
}

/** Store-assigned ids (session uuid, note and audit row ids) replaced by placeholders. */
function normaliseIds(json: string, sessionId: string): string {
  return json
    .split(sessionId)
    .join("<session>")
    .replace(/"id": \d+,/g, '"id": 0,');
}

function dataBlock(html: string): unknown {
  const m = /<script type="application\/json" id="session-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error("no data block");
  return JSON.parse(m[1]);
}

describe("JSON export", () => {
  it("is a versioned envelope with the entries, notes and audit rows, thinking signatures dropped", () => {
    const f = reviewed();
    const text = exportText(f.store, f.sessionId, "json");
    const envelope = SessionExportSchema.parse(JSON.parse(text));
    expect(envelope).toMatchObject({
      format: "agent-workbench.session",
      version: 1,
      session: { id: f.sessionId, title: "Rename greet", startedAt: T0 + 1_000, endedAt: T0 + 22_000, forkedFrom: null },
      redaction: { secrets: "redacted", thinkingSignatures: "dropped" },
    });
    expect(envelope.entries).toHaveLength(22);
    expect(envelope.notes.map((n) => [n.seq, n.author, n.verdict, n.createdAt])).toEqual([
      [11, "rita", "problem", T0 + 40_000],
      [16, "rita", "ok", T0 + 41_000],
      [21, "sam", null, T0 + 42_000],
    ]);
    expect(envelope.toolCalls.map((r) => [r.toolCallId, r.status, r.durationMs])).toEqual([
      ["call_abc|fc_1", "done", 4],
      ["call_zzz|fc_9", "error", 2],
      ["call_def|fc_2", "done", 12],
      ["toolu_01W", "done", 9],
      ["toolu_01X", "denied", 0],
      ["toolu_01Y", "done", 7],
    ]);
    expect(text).not.toContain("signature");
    expect(text).not.toContain("gAAAAB-opaque");
    // Apart from the signatures, entries are the stored ones.
    const stored = f.store.loadEntries(f.sessionId);
    expect(envelope.entries[0]).toEqual(stored[0]);
    expect(envelope.entries[6]).toEqual(stored[6]);
  });

  it("round-trips: export, import into another store, export again gives the same bytes apart from the new ids", async () => {
    const f = reviewed();
    const first = exportText(f.store, f.sessionId, "json");

    const other = SessionStore.open(":memory:");
    const ws = other.addWorkspace("/elsewhere/greeter").id;
    const parsed = parseEnvelope(first);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const imported = await importEnvelope(other, ws, parsed.value);
    if (!imported.ok) throw new Error(imported.error.message);
    expect(imported.value.id).not.toBe(f.sessionId);
    expect(imported.value).toMatchObject({
      workspaceId: ws,
      title: "Rename greet",
      entryCount: 22,
      model: f.store.getSession(f.sessionId)?.model,
    });

    const second = exportText(other, imported.value.id, "json");
    expect(second).not.toBe(first);
    expect(normaliseIds(second, imported.value.id)).toBe(normaliseIds(first, f.sessionId));

    // And once more inside the same store.
    const again = await importEnvelope(f.store, f.workspaceId, parsed.value);
    if (!again.ok) throw new Error(again.error.message);
    expect(normaliseIds(exportText(f.store, again.value.id, "json"), again.value.id)).toBe(normaliseIds(first, f.sessionId));
    other.close();
  });

  it("imports a session that the review and the loop can use: notes on the same entries, requests rebuildable", async () => {
    const f = reviewed();
    const parsed = parseEnvelope(exportText(f.store, f.sessionId, "json"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const imported = await importEnvelope(f.store, f.workspaceId, parsed.value);
    if (!imported.ok) throw new Error(imported.error.message);
    const id = imported.value.id;
    expect(f.store.listNotes(id).map((n) => [n.seq, n.text])).toEqual(f.store.listNotes(f.sessionId).map((n) => [n.seq, n.text]));
    expect(f.store.loadEntriesChecked(id).problems).toEqual([]);
    const view = modelViewAt(f.store.loadEntries(id), 22, {
      workspaceRoot: WORKSPACE,
      platform: "linux",
      toolSpecs: TOOL_SPECS,
      resolve: resolveModel,
    });
    expect(view.ok).toBe(true);
  });

  it("refuses what is not a valid export, and creates no session for it", async () => {
    const f = reviewed();
    const good = JSON.parse(exportText(f.store, f.sessionId, "json")) as SessionExport;
    expect(parseEnvelope("{ nope")).toMatchObject({ ok: false, error: { code: "IMPORT_INVALID" } });
    expect(parseEnvelope(JSON.stringify({ ...good, format: "other" }))).toMatchObject({ ok: false, error: { code: "IMPORT_INVALID" } });
    expect(parseEnvelope(JSON.stringify({ ...good, version: 2 }))).toMatchObject({
      ok: false,
      error: { code: "UNSUPPORTED", message: "export version 2 is not supported (this app reads version 1)" },
    });
    const badEntry = { ...good, entries: [{ seq: 1, entry: { type: "message", message: { role: "user", content: "x" } } }] };
    expect(parseEnvelope(JSON.stringify(badEntry))).toMatchObject({ ok: false, error: { code: "IMPORT_INVALID" } });
    const unordered = { ...good, entries: [good.entries[1], good.entries[0]] };
    expect(parseEnvelope(JSON.stringify(unordered))).toMatchObject({
      ok: false,
      error: { message: "entry 2 (seq 1): seqs must increase (found 1 after 2)" },
    });
    expect(parseEnvelope(JSON.stringify({ ...good, extra: true }))).toMatchObject({ ok: false });
    expect(await importEnvelope(f.store, "no-such-workspace", good)).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(f.store.listSessions(f.workspaceId).sessions).toHaveLength(1);
  });

  it("keeps a fork's link in the envelope, taken from its fork entry", () => {
    const f = reviewed();
    const fork = f.store.forkSession(f.sessionId, 8);
    expect(envelopeOf(f.store, fork.id).session.forkedFrom).toEqual({ sessionId: f.sessionId, seq: 8 });
  });

  it("serialises deterministically", () => {
    const f = reviewed();
    const a = serializeEnvelope(envelopeOf(f.store, f.sessionId));
    expect(serializeEnvelope(envelopeOf(f.store, f.sessionId))).toBe(a);
    expect(a.endsWith("}\n")).toBe(true);
  });
});

describe("Markdown export", () => {
  it("reads as a transcript with statistics, tool calls, diffs, errors and notes, numbered by replay's steps", () => {
    const f = reviewed();
    const r = exportSession(f.store, f.sessionId, "markdown", redactor);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.filename).toBe(`rename-greet-${f.sessionId.slice(0, 8)}.md`);
    expect(r.value.mimeType).toBe("text/markdown; charset=utf-8");
    const md = r.value.content;
    expect(md.startsWith("# Rename greet\n\n- Session: `")).toBe(true);
    for (const snippet of [
      "- Started: 2025-03-01 09:30:01 UTC · Duration: 21s",
      "- Turns: 3 · Assistant messages: 8 · Tool calls: 6 (edit 2, read 2, bash 1, write 1)",
      "- Approvals: 3 granted, 1 denied",
      "- Errors: 1 failed requests (1 retried), 1 failed tool calls, 0 aborted",
      "  - anthropic/claude-sonnet-4-5: 5 messages, 9,595 tokens, $0.0840",
      "## Step 1 · User · 2025-03-01 09:30:01 UTC\n\nRename greet to hello in src/app.ts.",
      "## Step 2 · Assistant · openai/gpt-5 · 2025-03-01 09:30:01 UTC\n\n_1,000 in · 50 out · $0.0100 · stop: toolUse_",
      "> _Thinking:_\n> Read the file first.",
      '**Tool call** `read` · `call_abc|fc_1`\n\n```json\n{\n  "path": "src/app.ts"\n}\n```',
      "## Step 9 · Approval · 2025-03-01 09:30:02 UTC\n\n**approved** `edit` call `call_def|fc_2` (by user)",
      "## Step 10 · Tool result · `edit` · ok · 2025-03-01 09:30:02 UTC\n\nFor call `call_def|fc_2`\n\n```text\nEdited src/app.ts: 1 replacement (+1 -1 lines).\n```\n\n```diff\n",
      "-export function greet(name: string) {\n+export function hello(name: string) {",
      "## Step 12 · Model switch · 2025-03-01 09:30:09 UTC\n\nFrom openai/gpt-5 to **anthropic/claude-sonnet-4-5**",
      "## Step 14 · Error · anthropic/claude-sonnet-4-5 · 2025-03-01 09:30:10 UTC",
      "> **Error:** 429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit",
      "> 📝 **Review note** by rita · **problem** · 2025-03-01 09:30:40 UTC\n>\n> Rate limited: retry worked.",
      "**denied** `bash` call `toolu_01X` (by user) — reason: no tests in this repo",
    ]) {
      expect(md).toContain(snippet);
    }
    expect(md.endsWith("Done.\n")).toBe(true);
  });

  it("a fork names its source's step, as replay does, and only the entry when the source is unknown", () => {
    const f = buildSession();
    const fork = f.store.forkSession(f.sessionId, 9);
    const source = (id: string, seq: number) => (id === f.sessionId && seq === 9 ? { title: "Rename greet", step: 12 } : undefined);
    const known = exportSession(f.store, fork.id, "markdown", redactor, undefined, source);
    if (!known.ok) throw new Error(known.error.message);
    expect(known.value.content).toContain(`- Forked from: “Rename greet” (\`${f.sessionId}\`) at step 12`);
    expect(known.value.content).toMatch(/## Step \d+ · Fork · [^\n]+\n\nForked from “Rename greet” at step 12/);
    const unknown = exportText(f.store, fork.id, "markdown");
    expect(unknown).toContain(`- Forked from: \`${f.sessionId}\` (its entry #9)`);
  });

  it("fences tool output that contains backticks so it cannot break out", () => {
    const f = buildSession();
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: "t",
        toolName: "read",
        isError: false,
        content: [{ type: "text", text: "```\n# not a heading\n```" }],
        timestamp: T0 + 50_000,
      },
    });
    const md = exportText(f.store, f.sessionId, "markdown");
    expect(md).toContain("````text\n```\n# not a heading\n```\n````");
  });

  it("closes a code fence that a message leaves open, so the entries after it are not swallowed as code", () => {
    const f = buildSession();
    const cut = "Here is the fix:\n\n```ts\nexport const a = 1;";
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: cut }], timestamp: T0 + 50_000 },
    });
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "Next question." }], timestamp: T0 + 51_000 },
    });
    const md = exportText(f.store, f.sessionId, "markdown");
    expect(md).toContain("```ts\nexport const a = 1;\n```\n\n---\n\n## Step 30 · User");
    // A closed fence, or a longer one around a shorter run, is left as it is.
    expect(closeFences("```sh\nls\n```\nDone.")).toBe("```sh\nls\n```\nDone.");
    expect(closeFences("````md\n```\n````")).toBe("````md\n```\n````");
  });
});

describe("HTML export", () => {
  it("is one self-contained file: a CSP that allows no network, one hashed inline script, no external resources", () => {
    const f = reviewed();
    const r = exportSession(f.store, f.sessionId, "html", redactor);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.mimeType).toBe("text/html; charset=utf-8");
    const html = r.value.content;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain(
      `content="default-src 'none'; style-src 'unsafe-inline'; script-src '${scriptHash(REPLAY_SCRIPT)}'; img-src data:; base-uri 'none'; form-action 'none'"`,
    );
    const outsideData = html.replace(/<script type="application\/json" id="session-data">[\s\S]*?<\/script>/, "");
    expect(outsideData).not.toMatch(/https?:\/\//);
    expect(outsideData).not.toMatch(/<(link|iframe|object|embed)\b/i);
    expect(outsideData).not.toMatch(/\ssrc=/i);
    expect(outsideData).toContain(`<script>${REPLAY_SCRIPT}</script>`);
  });

  it("embeds the same entries, notes and audit rows as the JSON export", () => {
    const f = reviewed();
    const html = exportText(f.store, f.sessionId, "html");
    const json = JSON.parse(exportText(f.store, f.sessionId, "json")) as SessionExport;
    const data = dataBlock(html) as { envelope: SessionExport; items: unknown[]; stats: { turns: number } };
    expect(data.envelope).toEqual(json);
    expect(data.items).toHaveLength(28);
    expect(data.stats.turns).toBe(3);
  });

  it("cannot be broken out of by session content: </script> and <!-- stay inside the data", () => {
    const f = buildSession();
    const evil = '</script><script>alert(1)</script><!-- \u2028 & "quotes"';
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: evil }], timestamp: T0 + 50_000 },
    });
    f.store.renameSession(f.sessionId, "<b>bold</b> & </title>");
    const html = exportText(f.store, f.sessionId, "html");
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain("<!-- ");
    expect(html).toContain("<title>&#60;b&#62;bold&#60;/b&#62; &#38; &#60;/title&#62; · Agent Workbench replay</title>");
    const data = dataBlock(html) as SessionExport & { envelope: SessionExport };
    const last = data.envelope.entries.find((e) => e.seq === 23);
    expect(last?.entry.type === "message" && last.entry.message.content[0]).toEqual({ type: "text", text: evil });
  });
});
