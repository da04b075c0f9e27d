/**
 * A cloned repository whose instruction files and prompt templates are links
 * to the user's secrets, or FIFOs: files that reach the prompt without a tool
 * call go through the same checks as the read tool (docs/prompt-files.md), so
 * no planted secret reaches the provider and no FIFO holds up a turn.
 *
 * Some FIFOs have a writer waiting (a process that writes a marker as soon as
 * someone opens the pipe for reading): a reader that opens and reads one
 * leaks the marker. Others have none, where a blocking open would hang the core.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FauxReply, FauxRequest } from "../../electron/core/faux";
import { expectAllAccepted, startHarness, type Harness } from "./harness";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let h: Harness | null = null;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = null;
  for (const c of cleanups.splice(0)) c();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A file outside the workspace holding a unique marker, as ~/.aws/credentials would. */
function plantSecret(dir: string, name: string, marker: string): string {
  const path = join(dir, name);
  writeFileSync(path, `${marker}\nsecret material\n`);
  return path;
}

function mkfifo(path: string): void {
  const made = spawnSync("mkfifo", [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path}: ${made.stderr.toString()}`);
}

/** A FIFO with a process waiting to write `marker` into it as soon as a reader opens it. */
function fedFifo(path: string, marker: string): void {
  mkfifo(path);
  const child = spawn(process.execPath, ["-e", `require("fs").writeFileSync(${JSON.stringify(path)}, ${JSON.stringify(marker)})`], {
    stdio: "ignore",
  });
  cleanups.push(() => child.kill("SIGKILL"));
}

const read = (id: string, path: string): FauxReply => ({
  type: "reply",
  content: [{ type: "toolCall", id, name: "read", arguments: { path } }],
});
const say = (text: string): FauxReply => ({ type: "reply", content: [{ type: "text", text }] });
const systemOf = (req: FauxRequest) => (req.turns[0]?.role === "system" ? req.turns[0].text : "");

/** Names the markers found, without printing the request bodies. */
function expectNoMarker(texts: readonly string[], markers: readonly string[]): void {
  expect(markers.filter((m) => texts.some((t) => t.includes(m)))).toEqual([]);
}

describe("a cloned repository's files that reach the prompt", () => {
  it(
    "AGENTS.md, CLAUDE.md and nested ones that are links to secrets, or a FIFO, never reach a provider request",
    async () => {
      const outside = tempDir("awb-secrets-");
      const userDir = tempDir("awb-user-");
      const markers = ["MARKER-AWS-7f3a9c", "MARKER-SSH-2b81de", "MARKER-CLAUDE-5c0e44", "MARKER-FIFO-e6a5d8", "MARKER-USER-33fe10"];
      h = await startHarness({
        files: { "guide/intro.md": "# Guide\n", "pkg/a.ts": "export const a = 1;\n", "lib/b.ts": "export const b = 2;\n" },
        workbench: { userConfigDir: userDir },
      });
      const ws = h.workspace;
      symlinkSync(plantSecret(outside, "credentials", markers[0]), join(ws, "AGENTS.md"));
      symlinkSync(plantSecret(outside, "id_ed25519", markers[1]), join(ws, "guide", "AGENTS.md"));
      symlinkSync(plantSecret(outside, "claude.md", markers[2]), join(ws, "pkg", "CLAUDE.md"));
      fedFifo(join(ws, "lib", "AGENTS.md"), markers[3]);
      // The user's own AGENTS.md may not lead out of the user's config folder either.
      symlinkSync(plantSecret(outside, "user.md", markers[4]), join(userDir, "AGENTS.md"));

      h.faux.script([read("call_guide", "guide/intro.md"), read("call_pkg", "pkg/a.ts"), read("call_lib", "lib/b.ts"), say("done")]);
      await h.turn("look around the repository");

      expectAllAccepted(h);
      expect(h.faux.requests).toHaveLength(4);
      expectNoMarker(
        h.faux.requests.map((r) => JSON.stringify(r.body)),
        markers,
      );
      // The header lists what was left out, and why.
      const { files, skipped } = await h.call("session.instructions", { sessionId: h.sessionId });
      expect(files).toEqual([]);
      const reasons = Object.fromEntries(skipped.map((s) => [s.path, s.reason]));
      expect(reasons["AGENTS.md"]).toMatch(/symbolic link that points outside the workspace/);
      expect(reasons["guide/AGENTS.md"]).toMatch(/outside the workspace/);
      expect(reasons["pkg/CLAUDE.md"]).toMatch(/outside the workspace/);
      expect(reasons["lib/AGENTS.md"]).toMatch(/named pipe \(FIFO\)/);
      expect(reasons[join(userDir, "AGENTS.md")]).toMatch(/outside/);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "prompt templates that are links to secrets, or a FIFO, are neither listed nor sent",
    async () => {
      const outside = tempDir("awb-secrets-");
      const userDir = tempDir("awb-user-");
      const markers = ["MARKER-TEMPLATE-91d2aa", "MARKER-TFIFO-6b3e0f", "MARKER-USER-TEMPLATE-c47b02"];
      h = await startHarness({ files: { ".agents/commands/fine.md": "Say hello to $ARGUMENTS." }, workbench: { userConfigDir: userDir } });
      const commandsDir = join(h.workspace, ".agents", "commands");
      symlinkSync(plantSecret(outside, "template.md", markers[0]), join(commandsDir, "review.md"));
      fedFifo(join(commandsDir, "piped.md"), markers[1]);
      mkdirSync(join(userDir, "commands"));
      symlinkSync(plantSecret(outside, "user-template.md", markers[2]), join(userDir, "commands", "mine.md"));

      // The `/` menu: nothing the renderer could expand carries a secret.
      const commands = await h.call("commands.list", { workspaceId: h.workspaceId });
      expectNoMarker([JSON.stringify(commands)], markers);
      const names = commands.map((c) => c.name);
      expect(names).toContain("fine");
      expect(names).not.toContain("review");
      expect(names).not.toContain("piped");
      expect(names).not.toContain("mine");

      // Sending one by name: the core reads it again, through the same checks.
      for (const name of ["review", "piped", "mine"]) {
        const sent = await h.workbench.handle("chat.send", { sessionId: h.sessionId, text: "", command: { name, args: "" } });
        expect(sent).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
      }
      h.faux.script([say("hello sent")]);
      const from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: "", command: { name: "fine", args: "the team" } });
      await h.waitIdle(from);

      expectAllAccepted(h);
      expect(h.faux.requests).toHaveLength(1);
      const body = JSON.stringify(h.faux.requests[0].body);
      expectNoMarker([body], markers);
      expect(body).toContain("Say hello to the team.");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a FIFO named AGENTS.md, CLAUDE.md or a template that nobody writes does not hold up the core",
    async () => {
      h = await startHarness({ files: { "vendor/c.ts": "export const c = 3;\n", ".agents/commands/fine.md": "Fine: $ARGUMENTS" } });
      const ws = h.workspace;
      mkfifo(join(ws, "AGENTS.md"));
      mkfifo(join(ws, "vendor", "CLAUDE.md"));
      mkfifo(join(ws, ".agents", "commands", "stuck.md"));

      const commands = await h.call("commands.list", { workspaceId: h.workspaceId });
      expect(commands.map((c) => c.name)).toContain("fine");
      h.faux.script([read("call_vendor", "vendor/c.ts"), say("done")]);
      await h.turn("read vendor/c.ts");
      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      expect(
        entries.some((e) => e.entry.type === "message" && e.entry.message.role === "assistant" && e.entry.message.stopReason === "stop"),
      ).toBe(true);
      const { skipped } = await h.call("session.instructions", { sessionId: h.sessionId });
      expect(skipped.map((s) => s.path).sort()).toEqual(["AGENTS.md", "vendor/CLAUDE.md"]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "links that stay inside the workspace still work, as they do for the read tool",
    async () => {
      h = await startHarness({
        files: { "shared/rules.md": "Inside rule: keep it small.", ".agents/shared/t.md": "Template inside: $ARGUMENTS" },
      });
      symlinkSync(join(h.workspace, "shared", "rules.md"), join(h.workspace, "AGENTS.md"));
      mkdirSync(join(h.workspace, ".agents", "commands"));
      symlinkSync(join("..", "shared", "t.md"), join(h.workspace, ".agents", "commands", "t.md"));
      let system = "";
      h.faux.script([
        (req: FauxRequest) => {
          system = systemOf(req);
          return say("ok");
        },
      ]);
      await h.call("chat.send", { sessionId: h.sessionId, text: "", command: { name: "t", args: "go" } });
      await h.waitIdle();
      expect(system).toContain("Inside rule: keep it small.");
      expect(JSON.stringify(h.faux.requests[0].body)).toContain("Template inside: go");
      const { files } = await h.call("session.instructions", { sessionId: h.sessionId });
      expect(files).toMatchObject([{ path: "AGENTS.md", scope: "workspace" }]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "what the model saw lists each file and image that reached the request, with the path it came from",
    async () => {
      const userDir = tempDir("awb-user-");
      const outside = tempDir("awb-secrets-");
      h = await startHarness({
        files: { "AGENTS.md": "Root rule.", "src/a.ts": "one\ntwo\nthree\n", ".agents/commands/review.md": "Review $ARGUMENTS." },
        workbench: { userConfigDir: userDir },
      });
      symlinkSync(plantSecret(outside, "x.md", "MARKER-X"), join(h.workspace, "CLAUDE.md"));
      mkdirSync(join(h.workspace, "guide"));
      symlinkSync(plantSecret(outside, "y.md", "MARKER-Y"), join(h.workspace, "guide", "AGENTS.md"));
      const png = Buffer.from(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e5273f9b0000000049454e44ae426082",
        "hex",
      );
      h.faux.script([read("call_guide", "guide/none.md"), say("one"), say("two")]);
      let from = h.events.length;
      await h.call("chat.send", {
        sessionId: h.sessionId,
        text: "look at @src/a.ts:2-3",
        mentions: [{ path: "src/a.ts", startLine: 2, endLine: 3 }],
        images: [{ type: "image", mimeType: "image/png", data: png.toString("base64") }],
      });
      await h.waitIdle(from);
      from = h.events.length;
      await h.call("chat.send", { sessionId: h.sessionId, text: "", command: { name: "review", args: "src/a.ts" } });
      await h.waitIdle(from);

      const { entries } = await h.call("session.load", { sessionId: h.sessionId });
      const users = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "user").map((e) => e.seq);
      const last = entries.filter((e) => e.entry.type === "message" && e.entry.message.role === "assistant").at(-1);
      const view = await h.call("review.modelView", { sessionId: h.sessionId, seq: last?.seq ?? -1 });
      expect(view.sources).toEqual([
        { kind: "instructions", path: "AGENTS.md", seq: null, bytes: 10, truncated: false, detail: "workspace" },
        {
          kind: "instructions",
          path: "guide/AGENTS.md",
          seq: null,
          bytes: 0,
          truncated: false,
          skipped: expect.stringMatching(/outside the workspace/),
        },
        { kind: "mention", path: "src/a.ts", seq: users[0], bytes: 14, truncated: false, detail: "lines 2-3" },
        { kind: "image", path: null, seq: users[0], bytes: png.length, truncated: false, detail: "image/png" },
        { kind: "template", path: ".agents/commands/review.md", seq: users[1], bytes: 18, truncated: false, detail: "/review" },
      ]);
      // CLAUDE.md was not tried: the root's AGENTS.md was there.
      expect(JSON.stringify(view.sources)).not.toContain("CLAUDE.md");
      expect(JSON.stringify(view.body)).toContain("Review src/a.ts.");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
