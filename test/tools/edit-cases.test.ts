/**
 * The edit tool, case by case, with the exact bytes on disk afterwards.
 * Each case runs through the runtime (propose → approve → execute).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolErrorCode } from "../../electron/core/tools";
import { approved, makeFixture, readOnly, text, type Fixture } from "./helpers";

interface EditCase {
  name: string;
  file: string;
  edits: { oldText: string; newText: string; replaceAll?: boolean }[];
  /** Exact file content afterwards (for errors: unchanged). */
  expected: string;
  error?: ToolErrorCode;
  /** Substrings of what the model is told. */
  says?: string[];
  matcher?: string;
}

const BOM = "\uFEFF";

const cases: EditCase[] = [
  {
    name: "exact match replaces only the matched text",
    file: "const a = 1;\nconst b = 2;\n",
    edits: [{ oldText: "const b = 2;", newText: "const b = 3;" }],
    expected: "const a = 1;\nconst b = 3;\n",
    matcher: "exact",
  },
  {
    name: "whitespace drift: trailing spaces in oldText still match (line-trimmed)",
    file: "function f() {\n  foo();\n  bar();\n}\n",
    edits: [{ oldText: "  foo();   \n  bar();  ", newText: "  foo();\n  baz();" }],
    expected: "function f() {\n  foo();\n  baz();\n}\n",
    matcher: "line-trimmed",
  },
  {
    name: "indentation drift: unindented oldText matches and newText takes the file's indentation",
    file: "class A {\n    run() {\n        step1();\n        step2();\n    }\n}\n",
    edits: [{ oldText: "run() {\n    step1();\n    step2();\n}", newText: "run() {\n    step1();\n}" }],
    expected: "class A {\n    run() {\n        step1();\n    }\n}\n",
    matcher: "indentation-flexible",
  },
  {
    name: "inner whitespace drift on one line (whitespace-normalized)",
    file: "let  total =   price * qty;\nreturn total;\n",
    edits: [{ oldText: "let total = price * qty;", newText: "const total = price * qty;" }],
    expected: "const total = price * qty;\nreturn total;\n",
    matcher: "whitespace-normalized",
  },
  {
    name: "escaped newlines: over-escaped oldText and newText are unescaped",
    file: 'log("a");\nlog("b");\n',
    edits: [{ oldText: 'log(\\"a\\");\\nlog(\\"b\\");', newText: 'log(\\"a\\");\\nlog(\\"c\\");' }],
    expected: 'log("a");\nlog("c");\n',
    matcher: "escape-normalized",
  },
  {
    name: "CRLF file: LF oldText matches and the replacement is written with CRLF",
    file: "one\r\ntwo\r\nthree\r\n",
    edits: [{ oldText: "one\ntwo", newText: "one\n2\nextra" }],
    expected: "one\r\n2\r\nextra\r\nthree\r\n",
    matcher: "exact",
  },
  {
    name: "CRLF file with a fuzzy match keeps CRLF and leaves other lines' bytes alone",
    file: "keep  \r\n  if (x) {\r\n    y();\r\n  }\r\ntail\t\r\n",
    edits: [{ oldText: "if (x) {\n  y();\n}", newText: "if (x) {\n  z();\n}" }],
    expected: "keep  \r\n  if (x) {\r\n    z();\r\n  }\r\ntail\t\r\n",
    matcher: "indentation-flexible",
  },
  {
    name: "BOM is kept",
    file: `${BOM}hello world\n`,
    edits: [{ oldText: "hello", newText: "goodbye" }],
    expected: `${BOM}goodbye world\n`,
  },
  {
    name: "several edits are matched against the original and all applied",
    file: "a = 1\nb = 2\nc = 3\n",
    edits: [
      { oldText: "c = 3", newText: "c = 30" },
      { oldText: "a = 1", newText: "a = 10" },
    ],
    expected: "a = 10\nb = 2\nc = 30\n",
  },
  {
    name: "several edits: one failing applies none (all or nothing)",
    file: "a = 1\nb = 2\n",
    edits: [
      { oldText: "a = 1", newText: "a = 10" },
      { oldText: "zzz", newText: "y" },
    ],
    expected: "a = 1\nb = 2\n",
    error: "NO_MATCH",
    says: ["Could not find edits[1].oldText"],
  },
  {
    name: "overlapping edits are refused",
    file: "alpha beta gamma\n",
    edits: [
      { oldText: "alpha beta", newText: "A B" },
      { oldText: "beta gamma", newText: "B G" },
    ],
    expected: "alpha beta gamma\n",
    error: "INVALID_ARGUMENTS",
    says: ["edits[1] overlaps edits[0]", "Merge overlapping edits"],
  },
  {
    name: "ambiguous match lists the line numbers",
    file: "x();\ny();\nx();\n",
    edits: [{ oldText: "x();", newText: "z();" }],
    expected: "x();\ny();\nx();\n",
    error: "AMBIGUOUS_MATCH",
    says: ["matches 2 places", "lines 1, 3", "replaceAll: true"],
  },
  {
    name: "replaceAll replaces every occurrence",
    file: "x();\ny();\nx();\n",
    edits: [{ oldText: "x();", newText: "z();", replaceAll: true }],
    expected: "z();\ny();\nz();\n",
  },
  {
    name: "missing match shows the nearest region with line numbers and says to re-read",
    file: "import a\n\nfunction total(items) {\n  let sum = 0;\n  return sum;\n}\n",
    edits: [{ oldText: "function total(list) {\n  let sum = 1;", newText: "x" }],
    expected: "import a\n\nfunction total(items) {\n  let sum = 0;\n  return sum;\n}\n",
    error: "NO_MATCH",
    says: ["The closest region is lines 3-4", "3\tfunction total(items) {", "4\t  let sum = 0;", "Re-read", "offset=3"],
  },
  {
    name: "missing match with nothing similar says so",
    file: "aaaa\nbbbb\n",
    edits: [{ oldText: "completely unrelated text", newText: "x" }],
    expected: "aaaa\nbbbb\n",
    error: "NO_MATCH",
    says: ["no similar region exists", "Re-read"],
  },
  {
    name: "identical oldText and newText is a no-op error",
    file: "same\n",
    edits: [{ oldText: "same", newText: "same" }],
    expected: "same\n",
    error: "NO_CHANGE",
    says: ["oldText and newText are identical"],
  },
  {
    name: "a block whose middle line differs in content is not found, with the nearest region",
    file: "function f() {\n  const a = 0;\n  return 1;\n}\n",
    edits: [{ oldText: "function f() {\n  const a = 0;\n  return 2;\n}", newText: "function f() {\n  return 3;\n}" }],
    expected: "function f() {\n  const a = 0;\n  return 1;\n}\n",
    error: "NO_MATCH",
    says: ["lines 1-4", "return 1;"],
  },
  {
    name: "a block whose middle drifted in quotes is not found (only whitespace and escapes are forgiven)",
    file: "function go() {\n  const speed = 10;\n  move(speed);\n  log('moved');\n}\n",
    edits: [
      { oldText: 'function go() {\n  const speed = 12;\n  move(speed);\n  log("moved");\n}', newText: "function go() {\n  move(10);\n}" },
    ],
    expected: "function go() {\n  const speed = 10;\n  move(speed);\n  log('moved');\n}\n",
    error: "NO_MATCH",
  },
  {
    name: "half of a surrogate pair in oldText is refused, never matched inside an emoji",
    file: "smile \ud83d\ude00 here\n",
    edits: [{ oldText: "\ud83d", newText: "x" }],
    expected: "smile \ud83d\ude00 here\n",
    error: "INVALID_ARGUMENTS",
    says: ["oldText contains half of a surrogate pair"],
  },
  {
    name: "half of a surrogate pair in newText is refused",
    file: "smile here\n",
    edits: [{ oldText: "smile", newText: "\ude00" }],
    expected: "smile here\n",
    error: "INVALID_ARGUMENTS",
    says: ["newText contains half of a surrogate pair"],
  },
  {
    name: "a block quoted with spaces in a tab-indented file is applied with tabs",
    file: "class A {\n\tgo() {\n\t\treturn 1;\n\t}\n}\n",
    edits: [
      { oldText: "    go() {\n        return 1;\n    }", newText: "    go() {\n        if (x) {\n            return 2;\n        }\n    }" },
    ],
    expected: "class A {\n\tgo() {\n\t\tif (x) {\n\t\t\treturn 2;\n\t\t}\n\t}\n}\n",
  },
  {
    name: "a block quoted with 2-space indents in a 4-space file is applied with 4 spaces",
    file: "def f():\n    if x:\n        return 1\n",
    edits: [{ oldText: "if x:\n  return 1", newText: "if x:\n  y = 2\n  return y" }],
    expected: "def f():\n    if x:\n        y = 2\n        return y\n",
  },
  {
    name: "oldText ending with a newline removes whole lines",
    file: "keep\ndrop me\nkeep too\n",
    edits: [{ oldText: "drop me\n", newText: "" }],
    expected: "keep\nkeep too\n",
  },
  {
    name: "oldText repeated exactly is ambiguous even if a fuzzy matcher would be unique",
    file: "  a\na\n",
    edits: [{ oldText: "a", newText: "b" }],
    expected: "  a\na\n",
    error: "AMBIGUOUS_MATCH",
    says: ["lines 1, 2"],
  },
];

describe("edit tool: exact resulting bytes", () => {
  let fx: Fixture;
  beforeAll(() => {
    fx = makeFixture();
  });
  afterAll(() => fx.cleanup());

  cases.forEach((c, i) => {
    it(c.name, async () => {
      const name = `case-${i}.txt`;
      writeFileSync(join(fx.ws, name), c.file);
      const outcome = await approved(fx.runtime, "edit", { path: name, edits: c.edits });
      const after = readFileSync(join(fx.ws, name));
      expect(after.equals(Buffer.from(c.expected, "utf8"))).toBe(true);
      expect(after.toString("utf8")).toBe(c.expected);
      if (c.error) {
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.error.errorCode).toBe(c.error);
      } else {
        expect(outcome.ok, text(fx.runtime, outcome)).toBe(true);
      }
      for (const s of c.says ?? []) expect(text(fx.runtime, outcome)).toContain(s);
      if (c.matcher && outcome.ok) expect(outcome.details?.matchers).toEqual([c.matcher]);
    });
  });

  it("keeps the file mode after an edit", async () => {
    const file = join(fx.ws, "script.sh");
    writeFileSync(file, "echo hi\n", { mode: 0o750 });
    const { chmodSync, statSync } = await import("node:fs");
    chmodSync(file, 0o750);
    const outcome = await approved(fx.runtime, "edit", { path: "script.sh", edits: [{ oldText: "hi", newText: "bye" }] });
    expect(outcome.ok).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o750);
  });

  it("gives the UI a unified diff with counts and before/after", async () => {
    writeFileSync(join(fx.ws, "d.txt"), "a\nb\nc\n");
    const outcome = await approved(fx.runtime, "edit", { path: "d.txt", edits: [{ oldText: "b", newText: "B1\nB2" }] });
    expect(outcome.ok).toBe(true);
    expect(outcome.details).toMatchObject({
      path: "d.txt",
      before: "a\nb\nc\n",
      after: "a\nB1\nB2\nc\n",
      diff: { added: 2, removed: 1 },
    });
    expect(String((outcome.details?.diff as { unifiedDiff: string }).unifiedDiff)).toContain("-b\n+B1\n+B2\n");
  });

  it("leaves a Latin-1 file byte for byte as it was instead of turning its accents into U+FFFD", async () => {
    const latin1 = Buffer.from("caf\xe9 = 1\nna\xefve = 2\n", "latin1");
    writeFileSync(join(fx.ws, "legacy.py"), latin1);
    const outcome = await approved(fx.runtime, "edit", { path: "legacy.py", edits: [{ oldText: "= 2", newText: "= 3" }] });
    expect(readFileSync(join(fx.ws, "legacy.py")).equals(latin1)).toBe(true);
    expect(outcome.ok).toBe(false);
    expect(text(fx.runtime, outcome)).toContain("legacy.py is not valid UTF-8");
  });

  it("a long line copied from read with its cut marker gets a way out, not 're-read the file' (which cuts it again)", async () => {
    writeFileSync(join(fx.ws, "data.ts"), `export const blob = "${"ab".repeat(1500)}";\nexport const y = 1;\n`);
    const seen = text(fx.runtime, await readOnly(fx.runtime, "read", { path: "data.ts" }));
    const copied = seen.split("\n")[0].replace(/^1\t/, "");
    const outcome = await approved(fx.runtime, "edit", {
      path: "data.ts",
      edits: [{ oldText: copied, newText: 'export const blob = "";' }],
    });
    expect(outcome.ok).toBe(false);
    const said = text(fx.runtime, outcome);
    expect(said).toContain("which read adds to a line it shortened");
    expect(said).toContain("Put only a unique part of the long line in oldText");
  });

  it("refuses to edit a file that does not exist and points to write", async () => {
    const outcome = await approved(fx.runtime, "edit", { path: "nope.txt", edits: [{ oldText: "a", newText: "b" }] });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.errorCode).toBe("NOT_FOUND");
  });
});
