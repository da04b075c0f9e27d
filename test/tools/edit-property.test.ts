/**
 * Edits that cannot corrupt, over random files and random edits:
 * - a successful edit changes exactly one located region (or the replaceAll
 *   regions) and nothing else, and that region differs from oldText only in
 *   whitespace or escapes (never in another character);
 * - a failed edit leaves the file byte for byte as it was.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planEdits } from "../../electron/core/tools/edit-apply";
import { locate, unescapeText } from "../../electron/core/tools/edit-match";
import { detectEol } from "../../electron/core/tools/text-file";
import { approved, makeFixture, type Fixture } from "./helpers";

const word = fc.constantFrom(
  "a",
  "b",
  "foo",
  "bar",
  "x1",
  "return",
  "{",
  "}",
  "(",
  ")",
  ";",
  '"s"',
  "'q'",
  "😀",
  "é",
  "\\n",
  "=",
  "1",
  "2",
);
const indent = fc.constantFrom("", "  ", "    ", "\t", "\t\t", " \t");
const line = fc
  .tuple(indent, fc.array(word, { minLength: 0, maxLength: 5 }), fc.constantFrom("", " ", "\t"))
  .map(([i, ws, trail]) => i + ws.join(" ") + trail);
const fileText = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 14 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
  .map(([ls, eol, final]) => ls.join(eol) + (final ? eol : ""));

/** What a fuzzy match may ignore: all whitespace. */
const squash = (s: string) => s.replace(/\s+/g, "");

type Drift = "none" | "reindent" | "trailing" | "crlf" | "mutate";

/** An oldText taken from the file, with drift a model might add (or a real change). */
function oldTextFrom(content: string, startLine: number, count: number, drift: Drift, mutateAt: number): string {
  const lines = content.replace(/\r\n/g, "\n").split("\n");
  const region = lines.slice(startLine, startLine + count);
  switch (drift) {
    case "reindent":
      return region.map((l) => l.replace(/^[ \t]*/, (m) => m.replace(/\t/g, "  "))).join("\n");
    case "trailing":
      return region.map((l) => `${l}  `).join("\n");
    case "crlf":
      return region.join("\r\n");
    case "mutate": {
      const text = region.join("\n");
      const spots = [...text].map((c, i) => (/\s/.test(c) ? -1 : i)).filter((i) => i >= 0);
      if (spots.length === 0) return `${text}Z`;
      const at = spots[mutateAt % spots.length];
      return `${text.slice(0, at)}Z${text.slice(at + 1)}`;
    }
    default:
      return region.join("\n");
  }
}

const editCase = fileText.chain((content) => {
  const n = content.replace(/\r\n/g, "\n").split("\n").length;
  return fc.record({
    content: fc.constant(content),
    start: fc.nat({ max: n - 1 }),
    count: fc.integer({ min: 1, max: 4 }),
    drift: fc.constantFrom<Drift>("none", "reindent", "trailing", "crlf", "mutate"),
    mutateAt: fc.nat(),
    newText: fc.array(line, { minLength: 0, maxLength: 4 }).map((ls) => ls.join("\n")),
    replaceAll: fc.boolean(),
  });
});

describe("edit: property tests", () => {
  it("a successful edit replaces exactly the located regions, each equal to oldText up to whitespace and escapes", () => {
    fc.assert(
      fc.property(editCase, ({ content, start, count, drift, mutateAt, newText, replaceAll }) => {
        const oldText = oldTextFrom(content, start, count, drift, mutateAt);
        // The schema refuses an empty oldText before it gets here.
        if (oldText === "") return;
        const eol = detectEol(content);
        const plan = planEdits("f.txt", content, eol, [{ oldText, newText, replaceAll }]);
        const found = locate(content, eol, oldText, newText, replaceAll);
        if (!plan.ok) return;
        expect(found.kind).toBe("found");
        if (found.kind !== "found") return;
        let expected = "";
        let cursor = 0;
        for (const r of found.ranges) {
          const region = content.slice(r.start, r.end);
          // Only whitespace (or over-escaping) may differ between what was quoted and what is replaced.
          expect([squash(oldText), squash(unescapeText(oldText))]).toContain(squash(region));
          expected += content.slice(cursor, r.start) + found.replacement;
          cursor = r.end;
        }
        expected += content.slice(cursor);
        expect(plan.value.after).toBe(expected);
      }),
      { numRuns: 1500 },
    );
  });

  describe("on disk", () => {
    let fx: Fixture;
    beforeAll(() => {
      fx = makeFixture();
    });
    afterAll(() => fx.cleanup());

    it("after a failed edit the file is byte-identical; after a successful one it is the plan's result", async () => {
      await fc.assert(
        fc.asyncProperty(editCase, async ({ content, start, count, drift, mutateAt, newText, replaceAll }) => {
          const path = join(fx.ws, "f.txt");
          writeFileSync(path, content);
          const before = readFileSync(path);
          const oldText = oldTextFrom(content, start, count, drift, mutateAt);
          if (oldText === "") return;
          const plan = planEdits("f.txt", content, detectEol(content), [{ oldText, newText, replaceAll }]);
          const outcome = await approved(fx.runtime, "edit", { path: "f.txt", edits: [{ oldText, newText, replaceAll }] });
          const after = readFileSync(path);
          if (!outcome.ok) expect(after.equals(before)).toBe(true);
          else {
            expect(plan.ok).toBe(true);
            if (plan.ok) expect(after.toString("utf8")).toBe(plan.value.after);
          }
        }),
        { numRuns: 150 },
      );
    }, 120_000);
  });
});
