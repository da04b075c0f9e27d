/**
 * Check-to-use guards: a path checked by the sandbox and then swapped for a
 * link (the file itself, or a folder above it) before it is opened or written
 * is refused, and nothing outside the workspace is read or changed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Sandbox } from "../../electron/core/tools/sandbox";
import { makeFixture, type Fixture } from "./helpers";

let fx: Fixture;
let sandbox: Sandbox;
beforeEach(async () => {
  fx = makeFixture();
  mkdirSync(join(fx.ws, "src"));
  writeFileSync(join(fx.ws, "src", "a.txt"), "inside\n");
  mkdirSync(join(fx.outside, "src"));
  writeFileSync(join(fx.outside, "src", "a.txt"), "OUTSIDE SECRET\n");
  writeFileSync(join(fx.outside, "secret.txt"), "OUTSIDE SECRET\n");
  const opened = await Sandbox.open(fx.ws);
  if (!opened.ok) throw new Error(opened.error.message);
  sandbox = opened.value;
});
afterEach(() => fx.cleanup());

async function checked(path: string) {
  const resolved = await sandbox.resolve(path);
  if (!resolved.ok) throw new Error(resolved.error.message);
  return resolved.value;
}

describe("check-to-use", () => {
  it("a file swapped for a link to outside after the check is not read", async () => {
    const target = await checked("src/a.txt");
    rmSync(join(fx.ws, "src", "a.txt"));
    symlinkSync(join(fx.outside, "secret.txt"), join(fx.ws, "src", "a.txt"));
    const read = await sandbox.readFile(target);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error.errorCode).toBe("OUTSIDE_WORKSPACE");
  });

  it("a parent folder swapped for a link to outside after the check is not read through", async () => {
    const target = await checked("src/a.txt");
    renameSync(join(fx.ws, "src"), join(fx.ws, "src-moved"));
    symlinkSync(join(fx.outside, "src"), join(fx.ws, "src"));
    const read = await sandbox.readFile(target);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error.message).not.toContain("OUTSIDE SECRET");
  });

  it("a parent folder swapped for a link to outside after the check is not written through", async () => {
    const target = await checked("src/a.txt");
    renameSync(join(fx.ws, "src"), join(fx.ws, "src-moved"));
    symlinkSync(join(fx.outside, "src"), join(fx.ws, "src"));
    const written = await sandbox.writeAtomic(target, Buffer.from("PWNED"));
    expect(written.ok).toBe(false);
    expect(readFileSync(join(fx.outside, "src", "a.txt"), "utf8")).toBe("OUTSIDE SECRET\n");
    expect(readdirSync(join(fx.outside, "src"))).toEqual(["a.txt"]);
  });

  it("a write veto right before the rename leaves the old file and no temporary file", async () => {
    const target = await checked("src/a.txt");
    const written = await sandbox.writeAtomic(target, Buffer.from("new"), {
      precondition: async () => ({ errorCode: "CONFLICT", retryable: true, message: "changed" }),
    });
    expect(written.ok).toBe(false);
    expect(readFileSync(join(fx.ws, "src", "a.txt"), "utf8")).toBe("inside\n");
    expect(readdirSync(join(fx.ws, "src"))).toEqual(["a.txt"]);
  });

  it("a new file under a folder linked inside the workspace is created at the real location", async () => {
    mkdirSync(join(fx.ws, "real"));
    symlinkSync("real", join(fx.ws, "alias"));
    const target = await checked("alias/sub/new.txt");
    expect(target.kind).toBe("missing");
    expect(target.rel).toBe("real/sub/new.txt");
    const written = await sandbox.writeAtomic(target, Buffer.from("ok"));
    expect(written.ok).toBe(true);
    expect(readFileSync(join(fx.ws, "real", "sub", "new.txt"), "utf8")).toBe("ok");
    expect(existsSync(join(fx.outside, "sub"))).toBe(false);
  });
});
