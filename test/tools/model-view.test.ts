/**
 * What the model sees: every tool's name, description and JSON schema, and the
 * exact error texts it can meet. Snapshotted to files in __snapshots__ so a
 * wording change is a reviewed diff. Also checks the schemas stay inside the
 * subset every provider accepts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRuntime, defaultToolSpecs, errorText, type ToolOutcome, type ToolRuntime } from "../../electron/core/tools";
import { READ_MAX_FILE_BYTES } from "../../electron/core/tools/limits";
import { approved, call, makeFixture, readOnly, type Fixture } from "./helpers";

/** Keywords that Anthropic, OpenAI (strict and not) and Gemini's subset all accept. */
const ALLOWED_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "description",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "enum",
]);

function keywordsOf(node: unknown, out: Set<string>, inProperties = false): Set<string> {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return out;
  for (const [key, value] of Object.entries(node)) {
    if (!inProperties) out.add(key);
    keywordsOf(value, out, key === "properties" && !inProperties);
  }
  return out;
}

describe("tool specs as the model sees them", () => {
  it("match the committed snapshot (names, descriptions, JSON schemas)", async () => {
    await expect(JSON.stringify(defaultToolSpecs(), null, 2) + "\n").toMatchFileSnapshot("__snapshots__/tool-specs.json");
  });

  it("descriptions are also readable as plain text in a snapshot", async () => {
    const text = defaultToolSpecs()
      .map((s) => `## ${s.name}\n\n${s.description}\n`)
      .join("\n");
    await expect(text).toMatchFileSnapshot("__snapshots__/tool-descriptions.md");
  });

  for (const spec of defaultToolSpecs()) {
    it(`${spec.name}: root is an object schema without $schema, rejecting unknown fields, using only portable keywords`, () => {
      expect(spec.parameters.type).toBe("object");
      expect(spec.parameters).not.toHaveProperty("$schema");
      expect(spec.parameters.additionalProperties).toBe(false);
      const used = keywordsOf(spec.parameters, new Set());
      for (const k of used) expect(ALLOWED_KEYWORDS.has(k), `keyword ${k}`).toBe(true);
      expect(JSON.stringify(spec.parameters)).not.toContain("9007199254740991");
    });
  }

  it("limits in descriptions come from the enforced constants", () => {
    const read = defaultToolSpecs().find((s) => s.name === "read");
    expect(read?.description).toContain(`Files over ${READ_MAX_FILE_BYTES / (1024 * 1024)} MB are refused`);
  });
});

describe("golden error strings", () => {
  let fx: Fixture;
  let builtin: ToolRuntime;
  beforeAll(() => {
    fx = makeFixture();
    builtin = createToolRuntime({ workspaceRoot: fx.ws, rgPath: null });
    mkdirSync(join(fx.ws, "src"));
    writeFileSync(join(fx.ws, "src", "index.ts"), "export const a = 1;\nexport const b = 2;\nexport const a2 = 1;\n");
    writeFileSync(join(fx.ws, "src", "dup.ts"), "x();\nx();\n");
    writeFileSync(join(fx.ws, "bin.dat"), Buffer.from([0, 1, 2, 3, 0, 5]));
    writeFileSync(join(fx.ws, "latin1.txt"), Buffer.from("caf\xe9\n", "latin1"));
    writeFileSync(join(fx.ws, "big.log"), "");
    truncateSync(join(fx.ws, "big.log"), READ_MAX_FILE_BYTES + 1);
    symlinkSync(fx.outside, join(fx.ws, "out"));
    execFileSync("mkfifo", [join(fx.ws, "pipe")]);
  });
  afterAll(() => fx.cleanup());

  it("match the committed snapshot", async () => {
    const rt = fx.runtime;
    const scenarios: [string, () => Promise<ToolOutcome>][] = [
      ["invalid JSON arguments", () => rt.runReadOnly({ ...call("read", {}), argumentsError: "Unexpected end of JSON input" })],
      ["wrong types and an unknown field", () => readOnly(rt, "read", { path: "a", offset: "10", extra: true })],
      ["missing required field", () => readOnly(rt, "grep", {})],
      [
        "edit with an empty edits array",
        () => rt.propose(call("edit", { path: "a", edits: [] })).then((r) => ("outcome" in r ? r.outcome : { ok: true, content: [] })),
      ],
      ["unknown tool", () => readOnly(rt, "cat", { path: "a" })],
      ["read: missing file with close matches", () => readOnly(rt, "read", { path: "src/indx.ts" })],
      ["read: a directory", () => readOnly(rt, "read", { path: "src" })],
      ["read: binary file", () => readOnly(rt, "read", { path: "bin.dat" })],
      ["read: too large", () => readOnly(rt, "read", { path: "big.log" })],
      ["read: offset past the end", () => readOnly(rt, "read", { path: "src/index.ts", offset: 99 })],
      ["read: .. escape", () => readOnly(rt, "read", { path: "../secret" })],
      ["read: absolute path outside", () => readOnly(rt, "read", { path: "/etc/passwd" })],
      ["read: home directory", () => readOnly(rt, "read", { path: "~/.ssh/id_rsa" })],
      ["read: drive letter", () => readOnly(rt, "read", { path: "C:\\x" })],
      ["read: backslashes", () => readOnly(rt, "read", { path: "src\\index.ts" })],
      ["read: NUL byte", () => readOnly(rt, "read", { path: "src/index.ts\0" })],
      ["read: look-alike dots", () => readOnly(rt, "read", { path: "．．/x" })],
      ["read: symlink out", () => readOnly(rt, "read", { path: "out/secret" })],
      ["read: FIFO", () => readOnly(rt, "read", { path: "pipe" })],
      ["list: a file", () => readOnly(rt, "list", { path: "src/index.ts" })],
      ["list: bad cursor", () => readOnly(rt, "list", { cursor: "abc" })],
      ["list: missing folder", () => readOnly(rt, "list", { path: "nope" })],
      ["glob: pattern with ..", () => readOnly(rt, "glob", { pattern: "../*" })],
      ["grep: invalid regex (built-in engine)", () => readOnly(builtin, "grep", { pattern: "a(b" })],
      ["grep: newline in pattern", () => readOnly(rt, "grep", { pattern: "a\\nb" })],
      [
        "edit: no match, nearest region",
        () =>
          approved(rt, "edit", { path: "src/index.ts", edits: [{ oldText: "export const b = 3;\nexport const c = 1;", newText: "x" }] }),
      ],
      ["edit: ambiguous", () => approved(rt, "edit", { path: "src/dup.ts", edits: [{ oldText: "x();", newText: "y();" }] })],
      ["edit: identical", () => approved(rt, "edit", { path: "src/index.ts", edits: [{ oldText: "a", newText: "a" }] })],
      [
        "edit: oldText copied from a cut line",
        () =>
          approved(rt, "edit", {
            path: "src/index.ts",
            edits: [{ oldText: "export const a = 1;… [line cut at 2000 characters]", newText: "x" }],
          }),
      ],
      ["edit: not UTF-8", () => approved(rt, "edit", { path: "latin1.txt", edits: [{ oldText: "caf", newText: "bar" }] })],
      [
        "edit: overlap",
        () =>
          approved(rt, "edit", {
            path: "src/index.ts",
            edits: [
              { oldText: "export const a = 1;", newText: "1" },
              { oldText: "const a = 1;\nexport", newText: "2" },
            ],
          }),
      ],
      ["write: same content", () => approved(rt, "write", { path: "src/dup.ts", content: "x();\nx();\n" })],
      [
        "write: denied by the user",
        () => rt.run(call("write", { path: "n.txt", content: "n" }), { ask: async () => ({ approved: false, reason: "not now" }) }),
      ],
      // 5 s, not 1: the output so far must hold "started" even when the shell starts slowly on a loaded machine.
      ["bash: timeout", () => approved(rt, "bash", { command: "echo started; sleep 30", timeout: 5 })],
      ["bash: missing workdir", () => approved(rt, "bash", { command: "true", workdir: "nope" })],
    ];
    const lines: string[] = [];
    for (const [name, run] of scenarios) {
      const outcome = await run();
      lines.push(`### ${name}`, outcome.ok ? "(no error)" : errorText(outcome.error), "");
    }
    // Errors that need a specific runtime state.
    const tight = createToolRuntime({
      workspaceRoot: fx.ws,
      budget: { maxToolCalls: 1, maxOutputBytes: 1e9, maxDurationMs: 1e9, maxSideEffects: 1 },
    });
    await tight.runReadOnly(call("list", {}));
    const over = await tight.runReadOnly(call("list", {}));
    lines.push("### budget exceeded", over.ok ? "(no error)" : errorText(over.error), "");
    const denyAll = createToolRuntime({
      workspaceRoot: fx.ws,
      policy: { write: "deny", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] },
    });
    const denied = await denyAll.run(call("write", { path: "x", content: "y" }));
    lines.push("### denied by policy", denied.ok ? "(no error)" : errorText(denied.error), "");
    const proposed = await rt.propose(call("write", { path: "conflict.txt", content: "mine" }));
    if ("proposal" in proposed) {
      rt.approve(proposed.proposal);
      writeFileSync(join(fx.ws, "conflict.txt"), "theirs");
      const conflict = await rt.execute(proposed.proposal);
      lines.push("### conflict", conflict.ok ? "(no error)" : errorText(conflict.error), "");
    }
    const unapproved = await rt.propose(call("write", { path: "u.txt", content: "u" }));
    if ("proposal" in unapproved) {
      const refused = await rt.execute(unapproved.proposal);
      lines.push("### executed without approval", refused.ok ? "(no error)" : errorText(refused.error), "");
    }
    const controller = new AbortController();
    controller.abort();
    const aborted = await rt.runReadOnly(call("list", {}), controller.signal);
    lines.push("### aborted", aborted.ok ? "(no error)" : errorText(aborted.error), "");

    await expect(lines.join("\n")).toMatchFileSnapshot("__snapshots__/golden-errors.md");
  });
});
