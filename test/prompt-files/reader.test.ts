/**
 * The one reader for files that reach the prompt without a tool call
 * (docs/prompt-files.md): the read tool's checks, rooted at the workspace or
 * at the user's config folder. And the rule that keeps it the only one: the
 * modules that put files into prompts do not touch the file system themselves.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PromptFileReader, promptText } from "../../electron/core/prompt-files/reader";

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((done) => s.close(done));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "awb-prompt-files-"));
  dirs.push(dir);
  return dir;
}

async function fixture() {
  const base = temp();
  const root = join(base, "ws");
  const outside = join(base, "outside");
  mkdirSync(join(root, "guide"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret"), "SECRET");
  writeFileSync(join(root, "guide", "a.md"), "inside");
  const reader = await PromptFileReader.open(root, "workspace");
  if (!reader) throw new Error("no reader");
  return { base, root, outside, reader };
}

describe("the prompt-file reader", () => {
  it("refuses a link that leads out, anywhere on the path, and follows one that stays inside", async () => {
    const { root, outside, reader } = await fixture();
    symlinkSync(join(outside, "secret"), join(root, "AGENTS.md"));
    symlinkSync(outside, join(root, "linked"));
    symlinkSync(join("guide", "a.md"), join(root, "inner.md"));
    const direct = await reader.read("AGENTS.md", { maxBytes: 100, over: "cut" });
    expect(direct).toMatchObject({
      ok: false,
      missing: false,
      reason: expect.stringMatching(/symbolic link that points outside the workspace/),
    });
    expect(await reader.read("linked/secret", { maxBytes: 100, over: "cut" })).toMatchObject({ ok: false, missing: false });
    const inner = await reader.read("inner.md", { maxBytes: 100, over: "cut" });
    expect(inner).toMatchObject({ ok: true, file: { path: "guide/a.md", asked: "inner.md", bytes: 6 } });
    if (inner.ok) expect(promptText(inner.file)).toBe("inside");
  });

  it("skips a FIFO nobody writes, a socket and a device without blocking", async () => {
    const { root, reader } = await fixture();
    expect(spawnSync("mkfifo", [join(root, "fifo.md")]).status).toBe(0);
    const server = createServer();
    servers.push(server);
    await new Promise<void>((done) => server.listen(join(root, "sock.md"), done));
    symlinkSync("/dev/zero", join(root, "zero.md"));
    const fifo = await reader.read("fifo.md", { maxBytes: 100, over: "cut" });
    expect(fifo).toMatchObject({ ok: false, missing: false, reason: expect.stringMatching(/named pipe \(FIFO\)/) });
    expect(await reader.read("sock.md", { maxBytes: 100, over: "cut" })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/socket/),
    });
    // /dev/zero is outside the workspace as well as a device: refused either way, never read.
    expect(await reader.read("zero.md", { maxBytes: 100, over: "cut" })).toMatchObject({ ok: false, missing: false });
  });

  it("cuts or refuses past the cap, and says a missing file or a folder is simply absent", async () => {
    const { root, reader } = await fixture();
    writeFileSync(join(root, "big.md"), "é".repeat(100));
    const cut = await reader.read("big.md", { maxBytes: 51, over: "cut" });
    expect(cut).toMatchObject({ ok: true, file: { bytes: 200, truncated: true } });
    // Not ending on half a character.
    if (cut.ok) expect(promptText(cut.file)).toBe("é".repeat(25));
    expect(await reader.read("big.md", { maxBytes: 199, over: "refuse" })).toMatchObject({
      ok: false,
      missing: false,
      reason: /over the 199-byte limit/,
    });
    expect(await reader.read("big.md", { maxBytes: 200, over: "refuse" })).toMatchObject({ ok: true, file: { truncated: false } });
    expect(await reader.read("nope.md", { maxBytes: 10, over: "cut" })).toMatchObject({ ok: false, missing: true });
    expect(await reader.read("guide", { maxBytes: 10, over: "cut" })).toMatchObject({ ok: false, missing: true });
    expect(await reader.read("nope/deeper.md", { maxBytes: 10, over: "cut" })).toMatchObject({ ok: false, missing: true });
  });

  it("roots the user's own files at the config folder, shown by their absolute path", async () => {
    const { base, outside } = await fixture();
    const config = join(base, "config");
    mkdirSync(config);
    writeFileSync(join(config, "AGENTS.md"), "mine");
    symlinkSync(join(outside, "secret"), join(config, "leak.md"));
    const reader = await PromptFileReader.open(config, "user");
    expect(await reader?.read("AGENTS.md", { maxBytes: 10, over: "cut" })).toMatchObject({
      ok: true,
      file: { path: join(config, "AGENTS.md") },
    });
    expect(await reader?.read("leak.md", { maxBytes: 10, over: "cut" })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/outside your config folder/),
    });
    expect(await PromptFileReader.open(join(base, "missing"), "user")).toBeNull();
  });
});

describe("one reader for prompt files", () => {
  const PROMPT_MODULES = [
    "electron/core/agent/instructions.ts",
    "electron/core/commands/prompt-commands.ts",
    "electron/core/mentions/attach.ts",
    "electron/core/api/compose-message.ts",
  ];
  it("the modules that put files into prompts read them only through prompt-files/reader.ts", () => {
    for (const file of PROMPT_MODULES) {
      const source = readFileSync(join(__dirname, "..", "..", file), "utf8");
      expect({ file, fs: /from "node:fs(\/promises)?"|require\("(node:)?fs"\)/.test(source) }).toEqual({ file, fs: false });
    }
  });
});
