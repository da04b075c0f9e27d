/**
 * read, list, glob and grep: paging, truncation notices, ignore rules, and
 * grep giving the same answer with ripgrep and with the built-in engine.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRuntime, type ToolRuntime } from "../../electron/core/tools";
import { IMAGE_MAX_BYTES, READ_MAX_FILE_BYTES } from "../../electron/core/tools/limits";
import { findOnPath } from "../../electron/core/tools/tool-specs";
import { SYNC_READ_MAX_BYTES } from "../../electron/core/tools/sandbox";
import { call, makeFixture, readOnly, text, type Fixture } from "./helpers";

const PNG_1x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

/** A sparse file of `size` bytes starting with `head` (nothing is really written past it). */
function sparse(fx: Fixture, rel: string, head: Buffer, size: number): void {
  const fd = openSync(join(fx.ws, rel), "w");
  try {
    writeSync(fd, head);
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

function write(fx: Fixture, rel: string, content: string | Buffer): void {
  const full = join(fx.ws, rel);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, content);
}

describe("read", () => {
  let fx: Fixture;
  beforeAll(() => {
    fx = makeFixture();
    write(fx, "long.txt", Array.from({ length: 4500 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    write(fx, "wide.txt", `${"x".repeat(3000)}\nshort\n`);
    write(fx, "fat.txt", Array.from({ length: 100 }, () => "y".repeat(1000)).join("\n"));
    write(fx, "crlf.txt", "\uFEFFa\r\nb\r\n");
    write(fx, "pic.png", PNG_1x1);
    write(fx, "empty.txt", "");
  });
  afterAll(() => fx.cleanup());

  it("numbers lines and says how to continue after 2000 lines", async () => {
    const seen = text(fx.runtime, await readOnly(fx.runtime, "read", { path: "long.txt" }));
    expect(seen.startsWith("1\tline 1\n2\tline 2\n")).toBe(true);
    expect(seen).toContain("2000\tline 2000\n");
    expect(seen).not.toContain("2001\tline 2001");
    expect(seen.endsWith("[Showing lines 1-2000 of 4500. Use offset=2001 to continue.]")).toBe(true);
  });

  it("continues from offset with limit", async () => {
    const seen = text(fx.runtime, await readOnly(fx.runtime, "read", { path: "long.txt", offset: 4499, limit: 5 }));
    expect(seen).toBe("4499\tline 4499\n4500\tline 4500");
    const mid = text(fx.runtime, await readOnly(fx.runtime, "read", { path: "long.txt", offset: 10, limit: 2 }));
    expect(mid).toBe("10\tline 10\n11\tline 11\n\n[Showing lines 10-11 of 4500. Use offset=12 to continue.]");
  });

  it("cuts long lines and stops at 50 KB without cutting a line", async () => {
    const wide = text(fx.runtime, await readOnly(fx.runtime, "read", { path: "wide.txt" }));
    expect(wide).toContain("… [line cut at 2000 characters]");
    expect(wide).toContain("2\tshort");
    const fat = await readOnly(fx.runtime, "read", { path: "fat.txt" });
    const seen = text(fx.runtime, fat);
    expect(Buffer.byteLength(seen)).toBeLessThanOrEqual(50 * 1024 + 200);
    expect(seen).toMatch(/\[Showing lines 1-\d+ of 100\. Use offset=\d+ to continue\.\]$/);
    expect(fat.details).toMatchObject({ truncated: true, totalLines: 100 });
  });

  it("hides BOM and CR from the numbered view", async () => {
    expect(text(fx.runtime, await readOnly(fx.runtime, "read", { path: "crlf.txt" }))).toBe("1\ta\n2\tb");
  });

  it("returns images as image blocks", async () => {
    const outcome = await readOnly(fx.runtime, "read", { path: "pic.png" });
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG_1x1.toString("base64") });
  });

  it("says when a file is not UTF-8, so the model knows the U+FFFD it sees are not in the file", async () => {
    write(fx, "latin1.txt", Buffer.from("caf\xe9\n", "latin1"));
    const seen = text(fx.runtime, await readOnly(fx.runtime, "read", { path: "latin1.txt" }));
    expect(seen).toMatch(/^1\tcaf\uFFFD\n\n\[latin1.txt is not valid UTF-8/);
  });

  it("says when a file is empty", async () => {
    expect(text(fx.runtime, await readOnly(fx.runtime, "read", { path: "empty.txt" }))).toBe("(empty.txt is empty)");
  });

  it("reads a file too big to read synchronously whole, to its last line", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `${i + 1} ${"z".repeat(120)}`);
    write(fx, "big.txt", `${lines.join("\n")}\n`);
    const outcome = await readOnly(fx.runtime, "read", { path: "big.txt", offset: 2999 });
    expect(outcome.details).toMatchObject({ bytes: expect.any(Number), totalLines: 3000 });
    expect((outcome.details as { bytes: number }).bytes).toBeGreaterThan(SYNC_READ_MAX_BYTES);
    expect(text(fx.runtime, outcome)).toBe(`2999\t${lines[2998]}\n3000\t${lines[2999]}`);
  });

  it("answers ABORTED, not the file, when the turn was aborted before the call ran", async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await fx.runtime.runReadOnly(call("read", { path: "long.txt" }), controller.signal);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.errorCode).toBe("ABORTED");
  });

  it("refuses a text file over the size limit, and an image over the image limit, with their own hints", async () => {
    sparse(fx, "huge.log", Buffer.from("text\n"), READ_MAX_FILE_BYTES + 1);
    const huge = await readOnly(fx.runtime, "read", { path: "huge.log" });
    expect(huge.ok).toBe(false);
    if (!huge.ok) {
      expect(huge.error.errorCode).toBe("TOO_LARGE");
      expect(huge.error.hint).toContain("grep");
    }
    sparse(fx, "huge.png", PNG_1x1, IMAGE_MAX_BYTES + 1);
    const picture = await readOnly(fx.runtime, "read", { path: "huge.png" });
    expect(picture.ok).toBe(false);
    if (!picture.ok) {
      expect(picture.error.errorCode).toBe("TOO_LARGE");
      expect(picture.error.hint).toContain("smaller version");
    }
  });
});

describe("list and glob", () => {
  let fx: Fixture;
  beforeAll(() => {
    fx = makeFixture();
    write(fx, ".gitignore", "build/\n*.log\n");
    write(fx, "src/app.ts", "a");
    write(fx, "src/lib/util.ts", "u");
    write(fx, "src/lib/.gitignore", "generated.ts\n");
    write(fx, "src/lib/generated.ts", "g");
    write(fx, "build/out.js", "o");
    write(fx, "debug.log", "l");
    write(fx, "node_modules/pkg/index.js", "n");
    write(fx, ".git/HEAD", "ref");
    for (let i = 0; i < 620; i++) write(fx, `many/f${String(i).padStart(4, "0")}.txt`, "m");
    const old = new Date("2020-01-01T00:00:00Z");
    const recent = new Date("2024-01-01T00:00:00Z");
    utimesSync(join(fx.ws, "src/app.ts"), old, old);
    utimesSync(join(fx.ws, "src/lib/util.ts"), recent, recent);
  });
  afterAll(() => fx.cleanup());

  it("list skips .git, node_modules and gitignored paths (nested .gitignore too)", async () => {
    const seen = text(fx.runtime, await readOnly(fx.runtime, "list", { path: "src" }));
    expect(seen).toBe("src/\n  app.ts\n  lib/\n    .gitignore\n    util.ts");
    const root = text(fx.runtime, await readOnly(fx.runtime, "list", { depth: 1 }));
    expect(root).not.toMatch(/build|debug\.log|node_modules|\.git\//);
    expect(root).toContain("  many/ …");
  });

  it("list shows ignored paths on request", async () => {
    const seen = text(fx.runtime, await readOnly(fx.runtime, "list", { depth: 1, includeIgnored: true }));
    expect(seen).toContain("build/");
    expect(seen).toContain("debug.log");
    expect(seen).toContain("node_modules/");
  });

  it("list pages through 500 entries at a time without gaps or repeats", async () => {
    const first = await readOnly(fx.runtime, "list", { path: "many" });
    expect(first.details).toMatchObject({ shown: 500, truncated: true, nextCursor: "500" });
    expect(text(fx.runtime, first)).toContain('Call list again with cursor="500" to continue');
    const second = await readOnly(fx.runtime, "list", { path: "many", cursor: "500" });
    expect(second.details).toMatchObject({ shown: 120, truncated: false });
    const names = [text(fx.runtime, first), text(fx.runtime, second)].join("\n").match(/f\d{4}\.txt/g) ?? [];
    expect(new Set(names).size).toBe(620);
    expect(names.length).toBe(620);
  });

  it("glob finds names at any depth, newest first, honouring .gitignore", async () => {
    const seen = text(fx.runtime, await readOnly(fx.runtime, "glob", { pattern: "*.ts" }));
    expect(seen).toBe("src/lib/util.ts\nsrc/app.ts");
    expect(text(fx.runtime, await readOnly(fx.runtime, "glob", { pattern: "lib/*.ts", path: "src" }))).toBe("src/lib/util.ts");
    expect(text(fx.runtime, await readOnly(fx.runtime, "glob", { pattern: "**/*.js" }))).toContain('No files match "**/*.js"');
  });

  it("glob caps at 100 with a cursor to continue", async () => {
    const first = await readOnly(fx.runtime, "glob", { pattern: "many/*.txt" });
    expect(first.details).toMatchObject({ total: 620, shown: 100, truncated: true, nextCursor: "100" });
    expect(text(fx.runtime, first)).toContain('[Showing 1-100 of 620 files, newest first. Call glob again with cursor="100" to continue.]');
    const last = await readOnly(fx.runtime, "glob", { pattern: "many/*.txt", cursor: "600" });
    expect(last.details).toMatchObject({ shown: 20, truncated: false });
  });
});

describe("grep: ripgrep and the built-in engine agree", () => {
  let fx: Fixture;
  let rg: ToolRuntime;
  let builtin: ToolRuntime;
  const hasRg = findOnPath("rg") !== null;

  beforeAll(() => {
    fx = makeFixture();
    write(fx, ".gitignore", "dist/\n");
    write(fx, "src/a.ts", "import x from 'y';\nconst Alpha = 1;\n// TODO: alpha\nexport { Alpha };\n");
    write(fx, "src/b-c.ts", "alpha();\n");
    write(fx, "src/b/inner.ts", "let alpha = 2;\n");
    write(fx, "src/nested/.gitignore", "skip.ts\n");
    write(fx, "src/nested/skip.ts", "alpha skipped\n");
    write(fx, "src/nested/keep.ts", "alpha kept\r\nsecond\r\n");
    write(fx, "dist/bundle.js", "alpha in dist\n");
    write(fx, "node_modules/m/i.js", "alpha in node_modules\n");
    write(fx, ".hidden/h.ts", "alpha hidden\n");
    write(fx, "bin.dat", Buffer.concat([Buffer.from("alpha\n"), Buffer.from([0, 1, 2])]));
    write(fx, "wide.txt", `alpha ${"w".repeat(900)}\n`);
    write(fx, "bom.txt", "\uFEFFalpha with bom\n");
    write(fx, "many.lst", Array.from({ length: 150 }, (_, i) => `alpha ${i}`).join("\n") + "\n");
    rg = createToolRuntime({ workspaceRoot: fx.ws });
    builtin = createToolRuntime({ workspaceRoot: fx.ws, rgPath: null });
  });
  afterAll(() => fx.cleanup());

  const queries: Record<string, unknown>[] = [
    { pattern: "alpha" },
    { pattern: "alpha", ignoreCase: true },
    { pattern: "Alpha", literal: true },
    { pattern: "a.pha\\b", include: "*.ts" },
    { pattern: "alpha", path: "src", context: 1 },
    { pattern: "alpha", path: "src/nested" },
    { pattern: "alpha", include: "src/**/*.ts", context: 2 },
    { pattern: "second", path: "src/nested/keep.ts" },
    { pattern: "(", literal: true },
    { pattern: "nothing-matches-this" },
    { pattern: "alpha \\d+" },
    { pattern: "alpha", path: "src", include: "src/nested/*.ts" },
    { pattern: "ALPHA", ignoreCase: true, include: "**" },
  ];

  for (const q of queries) {
    it.skipIf(!hasRg)(`same output for ${JSON.stringify(q)} (skipped without rg on PATH)`, async () => {
      const a = await rg.runReadOnly(call("grep", q));
      const b = await builtin.runReadOnly(call("grep", q));
      expect(a.details?.engine).toBe("rg");
      expect(b.details?.engine).toBe("builtin");
      expect(text(rg, a)).toBe(text(builtin, b));
    });
  }

  it("skips ignored, vendored and binary files, searches hidden ones, cuts wide lines", async () => {
    const seen = text(builtin, await builtin.runReadOnly(call("grep", { pattern: "alpha", include: "*.{ts,txt,dat,js}" })));
    expect(seen).not.toMatch(/dist|node_modules|skipped|bin\.dat/);
    expect(seen).toContain(".hidden/h.ts:");
    expect(seen).toContain("… [line cut at 500 characters]");
    expect(seen).toContain("alpha with bom");
  });

  it("stops at 100 matching lines and says how to narrow", async () => {
    const outcome = await builtin.runReadOnly(call("grep", { pattern: "alpha \\d+", path: "many.lst" }));
    const seen = text(builtin, outcome);
    expect(seen.startsWith("Found 150 matching lines in 1 file; showing the first 100 (in 1 file).")).toBe(true);
    expect(seen).toContain("  100: alpha 99");
    expect(seen).not.toContain("alpha 100");
    expect(seen).toContain("[Results cut. Narrow the search");
  });

  it("formats matches and context as LINE: and LINE-", async () => {
    const seen = text(builtin, await builtin.runReadOnly(call("grep", { pattern: "TODO", path: "src/a.ts", context: 1 })));
    expect(seen).toBe("Found 1 matching line in 1 file.\n\nsrc/a.ts:\n  2- const Alpha = 1;\n  3: // TODO: alpha\n  4- export { Alpha };");
  });
});
