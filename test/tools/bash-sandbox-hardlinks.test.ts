/**
 * A file in the workspace can be a hard link to a file outside it (pnpm's
 * store, uv's cache, `git clone` of a local repository): the kernel checks the
 * mount a write goes through, not where the file's other names are, so a
 * write through the workspace name changes the outside file and no sandbox
 * refuses it. The run is checked before and after: every such file that
 * changed is named on the card (`details.outsideWrites`) and to the model.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";
import { approved, makeFixture, text, type Fixture } from "./helpers";

const info = detectBashSandbox();
const sandboxed = info.kind !== "none";
const title = sandboxed
  ? `bash sandbox (${info.kind}): writes through hard links`
  : `bash sandbox: hard links — skipped: ${info.reason ?? "no sandbox"}`;

describe.skipIf(!sandboxed)(title, () => {
  let fx: Fixture;
  beforeAll(() => {
    fx = makeFixture();
    mkdirSync(join(fx.ws, "node_modules", "pkg"), { recursive: true });
  });
  afterAll(() => fx.cleanup());

  /** A file outside the workspace with a second name inside it, as pnpm links its store. */
  function linkedFromOutside(name: string): { outside: string; inside: string } {
    const outside = join(fx.outside, `store-${name}`);
    writeFileSync(outside, "module.exports = 1;\n");
    const inside = join(fx.ws, "node_modules", "pkg", name);
    linkSync(outside, inside);
    return { outside, inside };
  }

  it("a write through a hard link to an outside file is reported on the card and to the model", async () => {
    const { outside } = linkedFromOutside("index.js");
    linkedFromOutside("untouched.js");
    const outcome = await approved(fx.runtime, "bash", { command: "echo 'pwned();' >> node_modules/pkg/index.js; echo done" });
    const seen = text(fx.runtime, outcome);
    // The kernel cannot refuse it: the outside file changed…
    expect(readFileSync(outside, "utf8")).toContain("pwned();");
    // …and the user and the model are told which file, and only that one.
    expect(outcome.details?.outsideWrites).toEqual(["node_modules/pkg/index.js"]);
    expect(seen).toContain("node_modules/pkg/index.js");
    expect(seen).toMatch(/hard link/i);
  });

  it("a hard-linked file removed or replaced during the run is reported as not checkable", async () => {
    linkedFromOutside("gone.js");
    const outcome = await approved(fx.runtime, "bash", { command: "rm node_modules/pkg/gone.js; echo done" });
    expect(outcome.details?.outsideWrites ?? []).toEqual([]);
    expect(outcome.details?.outsideUnchecked).toEqual(["node_modules/pkg/gone.js"]);
    expect(text(fx.runtime, outcome)).toContain("node_modules/pkg/gone.js");
  });

  it("hard links whose names are all inside the workspace, and files only read, are not reported", async () => {
    writeFileSync(join(fx.ws, "a.txt"), "a\n");
    linkSync(join(fx.ws, "a.txt"), join(fx.ws, "b.txt"));
    linkedFromOutside("read-only.js");
    const outcome = await approved(fx.runtime, "bash", { command: "echo more >> a.txt; cat node_modules/pkg/read-only.js" });
    expect(text(fx.runtime, outcome)).toContain("module.exports");
    expect(existsSync(join(fx.ws, "b.txt"))).toBe(true);
    expect(outcome.details?.outsideWrites ?? []).toEqual([]);
    expect(outcome.details?.outsideUnchecked ?? []).toEqual([]);
  });
});
