/**
 * Sandbox escapes: hand-written and generated paths against read, write,
 * edit, list, grep and glob. Zero escapes means: no content from outside the
 * workspace reaches the model, and nothing outside is created or modified.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRuntime, type ToolOutcome, type ToolRuntime } from "../../electron/core/tools";
import { approved, call, makeFixture, text, type Fixture } from "./helpers";

const MARKER = "SECRET-OUTSIDE-7c1f";
const TOOLS = ["read", "write", "edit", "list", "grep", "glob"] as const;
type Tool = (typeof TOOLS)[number];

/** Everything under `dir` except the workspace: path → size, mtime, content hash. */
function snapshotOutside(base: string, ws: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (p === ws || p.startsWith(`${ws}/`)) continue;
      const st = lstatSync(p);
      if (st.isDirectory()) {
        out.set(relative(base, p) + "/", `dir ${st.mode}`);
        visit(p);
      } else if (st.isFile()) {
        out.set(relative(base, p), `${st.size} ${st.mtimeMs} ${createHash("sha1").update(readFileSync(p)).digest("hex")}`);
      } else {
        out.set(relative(base, p), `other ${st.mtimeMs}`);
      }
    }
  };
  visit(base);
  return out;
}

async function runTool(runtime: ToolRuntime, tool: Tool, path: string): Promise<ToolOutcome> {
  switch (tool) {
    case "read":
      return runtime.runReadOnly(call("read", { path }));
    case "list":
      return runtime.runReadOnly(call("list", { path, includeIgnored: true }));
    case "grep":
      return runtime.runReadOnly(call("grep", { pattern: "SECRET", path }));
    case "glob":
      return runtime.runReadOnly(call("glob", { pattern: "**/*", path }));
    case "write":
      return approved(runtime, "write", { path, content: "PWNED" });
    case "edit":
      return approved(runtime, "edit", { path, edits: [{ oldText: MARKER, newText: "PWNED" }] });
  }
}

/** Builds the hostile workspace: links out, chains, dangling links, special files. */
function buildTree(fx: Fixture): void {
  const { ws, outside, base } = fx;
  writeFileSync(join(outside, "secret.txt"), `${MARKER}\n`);
  mkdirSync(join(outside, "dir"));
  writeFileSync(join(outside, "dir", "secret.txt"), `${MARKER}\n`);
  writeFileSync(join(base, "sibling-secret.txt"), `${MARKER}\n`);
  mkdirSync(join(ws, "src"));
  writeFileSync(join(ws, "src", "ok.txt"), "inside\n");
  mkdirSync(join(ws, "inner"));
  symlinkSync(outside, join(ws, "link-out"));
  symlinkSync(join(outside, "secret.txt"), join(ws, "link-file-out"));
  symlinkSync("../outside/secret.txt", join(ws, "rel-link-out"));
  symlinkSync("..", join(ws, "up"));
  symlinkSync(join(ws, "link-out"), join(ws, "chain1")); // inside → inside link → outside
  symlinkSync("chain1", join(ws, "chain2"));
  symlinkSync(join(outside, "not-yet.txt"), join(ws, "dangling-out"));
  symlinkSync(join(outside, "newdir"), join(ws, "dangling-dir-out"));
  symlinkSync(join(ws, "src"), join(ws, "inner", "back-in")); // link that stays inside
  symlinkSync("/", join(ws, "root-link"));
  symlinkSync("/etc/passwd", join(ws, "passwd-link"));
  symlinkSync("/dev/zero", join(ws, "zero-link"));
  symlinkSync("loop-b", join(ws, "loop-a"));
  symlinkSync("loop-a", join(ws, "loop-b"));
  symlinkSync(outside, join(ws, "src", "nested-out"));
}

const STATIC_PATHS = (fx: Fixture): string[] => [
  "../outside/secret.txt",
  "../../etc/passwd",
  "..",
  "../",
  "./../outside",
  "src/../../outside/secret.txt",
  "src/../../../etc/passwd",
  "/etc/passwd",
  "/",
  join(fx.outside, "secret.txt"),
  `${fx.ws}/../outside/secret.txt`,
  `${fx.ws}/../sibling-secret.txt`,
  "~/.bashrc",
  "~",
  "C:\\Windows\\win.ini",
  "C:/Windows/win.ini",
  "\\\\server\\share\\secret.txt",
  "//server/share/secret.txt",
  "..\\outside\\secret.txt",
  "src/ok.txt\0/../../outside/secret.txt",
  "link-out/secret.txt",
  "link-out",
  "link-out/dir/secret.txt",
  "link-out/new-file.txt",
  "link-out/newdir/deeper/file.txt",
  "link-file-out",
  "rel-link-out",
  "up/outside/secret.txt",
  "up/sibling-secret.txt",
  "chain1/secret.txt",
  "chain2/secret.txt",
  "chain2/created.txt",
  "dangling-out",
  "dangling-dir-out/created.txt",
  "root-link/etc/passwd",
  "passwd-link",
  "zero-link",
  "/dev/null",
  "/dev/zero",
  "src/nested-out/secret.txt",
  "src/nested-out/new.txt",
  "inner/back-in/../../outside/secret.txt",
  "．．/outside/secret.txt",
  "‥/outside/secret.txt",
  "..∕outside∕secret.txt",
  "src／..／..／outside",
];

describe("sandbox escapes", () => {
  let fx: Fixture;
  let before: Map<string, string>;
  let passwdMtime: number;

  beforeAll(() => {
    fx = makeFixture();
    buildTree(fx);
    before = snapshotOutside(fx.base, fx.ws);
    passwdMtime = statSync("/etc/passwd").mtimeMs;
  });
  afterAll(() => fx.cleanup());

  const paths = (() => {
    // Case names are needed before beforeAll runs: build them from a template fixture shape.
    return STATIC_PATHS({ base: "<base>", ws: "<ws>", outside: "<outside>" } as Fixture);
  })();

  for (const template of paths) {
    for (const tool of TOOLS) {
      it(`${tool} refuses to escape through ${JSON.stringify(template)}`, async () => {
        const path = template.replaceAll("<ws>", fx.ws).replaceAll("<outside>", fx.outside).replaceAll("<base>", fx.base);
        const outcome = await runTool(fx.runtime, tool, path);
        const seen = text(fx.runtime, outcome);
        expect(seen).not.toContain(MARKER);
        expect(outcome.ok, seen).toBe(false);
        if (!outcome.ok) {
          expect(["OUTSIDE_WORKSPACE", "INVALID_ARGUMENTS", "SPECIAL_FILE", "IO_ERROR"]).toContain(outcome.error.errorCode);
        }
        expect(snapshotOutside(fx.base, fx.ws)).toEqual(before);
      });
    }
  }

  it("follows a symbolic link that stays inside the workspace", async () => {
    const outcome = await fx.runtime.runReadOnly(call("read", { path: "inner/back-in/ok.txt" }));
    expect(outcome.ok).toBe(true);
    expect(text(fx.runtime, outcome)).toContain("inside");
  });

  it("a symlink loop is an error, not a hang", async () => {
    const outcome = await fx.runtime.runReadOnly(call("read", { path: "loop-a" }));
    expect(outcome.ok).toBe(false);
  });

  for (const tool of ["grep", "glob", "list"] as const) {
    it(`${tool} over the whole workspace never shows what links point to outside`, async () => {
      const args = tool === "grep" ? { pattern: "SECRET" } : tool === "glob" ? { pattern: "**/*" } : { depth: 10, includeIgnored: true };
      const outcome = await fx.runtime.runReadOnly(call(tool, args));
      expect(outcome.ok).toBe(true);
      const seen = text(fx.runtime, outcome);
      expect(seen).not.toContain(MARKER);
      expect(seen).not.toContain("dir/secret.txt");
    });
  }

  it("the built-in grep does not follow links out either", async () => {
    const builtin = createToolRuntime({ workspaceRoot: fx.ws, rgPath: null });
    const outcome = await builtin.runReadOnly(call("grep", { pattern: "SECRET" }));
    expect(text(builtin, outcome)).not.toContain(MARKER);
  });

  it("nothing outside was created or modified, /etc/passwd untouched", () => {
    expect(snapshotOutside(fx.base, fx.ws)).toEqual(before);
    expect(statSync("/etc/passwd").mtimeMs).toBe(passwdMtime);
    expect(existsSync(join(fx.outside, "not-yet.txt"))).toBe(false);
    expect(existsSync(join(fx.outside, "newdir"))).toBe(false);
  });
});

describe("special files inside the workspace", () => {
  let fx: Fixture;
  let server: Server | null = null;
  beforeAll(async () => {
    fx = makeFixture();
    execFileSync("mkfifo", [join(fx.ws, "pipe")]);
    server = createServer();
    await new Promise<void>((resolve) => server?.listen(join(fx.ws, "sock"), resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    fx.cleanup();
  });

  for (const name of ["pipe", "sock"]) {
    for (const tool of ["read", "write", "edit", "grep"] as const) {
      it(`${tool} refuses the ${name === "pipe" ? "FIFO" : "socket"} without blocking`, async () => {
        const outcome = await runTool(fx.runtime, tool, name);
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.error.errorCode).toBe("SPECIAL_FILE");
      });
    }
  }

  it.skipIf(process.getuid?.() !== 0)("refuses a character device node (needs root to create one)", async () => {
    execFileSync("mknod", [join(fx.ws, "null-dev"), "c", "1", "3"]);
    for (const tool of ["read", "write", "edit"] as const) {
      const outcome = await runTool(fx.runtime, tool, "null-dev");
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.errorCode).toBe("SPECIAL_FILE");
    }
  });
});

describe("generated paths (fast-check)", () => {
  let fx: Fixture;
  let before: Map<string, string>;
  beforeAll(() => {
    fx = makeFixture();
    buildTree(fx);
    before = snapshotOutside(fx.base, fx.ws);
  });
  afterAll(() => fx.cleanup());

  const segment = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        "..",
        ".",
        "src",
        "inner",
        "back-in",
        "link-out",
        "chain1",
        "chain2",
        "up",
        "outside",
        "secret.txt",
        "dir",
        "new",
        "ok.txt",
        "dangling-out",
        "dangling-dir-out",
        "root-link",
        "etc",
        "passwd",
        "nested-out",
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom("．．", "‥", "..∕..", "~", "", " ", "a\0b", "..\\..", "C:", "%2e%2e", "\u202e..") },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !s.includes("/")) },
  );
  const prefix = fc.constantFrom("", "", "", "<ws>/", "<outside>/", "<base>/", "/", "./");
  const pathArb = fc.tuple(prefix, fc.array(segment, { minLength: 1, maxLength: 7 })).map(([p, segs]) => p + segs.join("/"));

  it("no generated path leaks outside content or changes anything outside, for every tool", async () => {
    await fc.assert(
      fc.asyncProperty(pathArb, fc.constantFrom(...TOOLS), async (template, tool) => {
        const path = template.replaceAll("<ws>", fx.ws).replaceAll("<outside>", fx.outside).replaceAll("<base>", fx.base);
        const outcome = await runTool(fx.runtime, tool, path);
        expect(text(fx.runtime, outcome)).not.toContain(MARKER);
        expect(snapshotOutside(fx.base, fx.ws)).toEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it("random chains of links inside and outside never let a write land outside", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), fc.boolean(), async (hops, finalOut) => {
        // A chain link0 → link1 → … where each hop target lives inside (true) or outside (false).
        n++;
        const names = hops.map((inside, i) => join(inside ? fx.ws : fx.outside, `gen${n}-hop${i}`));
        const last = finalOut ? join(fx.outside, `gen${n}-target`) : join(fx.ws, `gen${n}-target`);
        for (let i = 0; i < names.length; i++) symlinkSync(i + 1 < names.length ? names[i + 1] : last, names[i]);
        const entry = join(fx.ws, `gen${n}-entry`);
        symlinkSync(names[0], entry);
        const snap = snapshotOutside(fx.base, fx.ws);
        const outcome = await approved(fx.runtime, "write", { path: `gen${n}-entry`, content: "via chain" });
        // Only where the chain finally lands matters (that is what the kernel would open).
        if (finalOut) {
          expect(existsSync(last)).toBe(false);
          expect(outcome.ok).toBe(false);
          expect(snapshotOutside(fx.base, fx.ws)).toEqual(snap);
        } else {
          expect(outcome.ok, text(fx.runtime, outcome)).toBe(true);
          expect(readFileSync(last, "utf8")).toBe("via chain");
        }
      }),
      { numRuns: 60 },
    );
  });
});
