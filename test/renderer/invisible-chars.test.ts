/**
 * One set of deceptive characters for both sides: the ones the core's shell
 * parser refuses to let a rule cover are exactly the ones the renderer
 * writes out (⟨U+202E⟩) where a path, command or rule is put to the user.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ensureShellParser } from "../../electron/core/tools";
import { plainCommands } from "../../electron/core/tools/shell-parse";
import { DECEPTIVE, hasInvisible, revealInvisible } from "../../shared/invisible-chars";

describe("revealInvisible", () => {
  it("writes out a right-to-left override, so readme\\u202Etxt.sh no longer reads as readmehs.txt", () => {
    expect(revealInvisible("cat readme\u202Etxt.sh")).toBe("cat readme⟨U+202E⟩txt.sh");
    expect(hasInvisible("cat readme\u202Etxt.sh")).toBe(true);
  });

  it("writes out every control, bidi, zero-width and filler character, one by one, and keeps the rest", () => {
    expect(revealInvisible("a\u200Bb\u200Dc\uFEFFd\u2066e\u2069f\u061Cg\u00ADh")).toBe(
      "a⟨U+200B⟩b⟨U+200D⟩c⟨U+FEFF⟩d⟨U+2066⟩e⟨U+2069⟩f⟨U+061C⟩g⟨U+00AD⟩h",
    );
    expect(revealInvisible("echo ok\r\u001b[2K")).toBe("echo ok⟨U+000D⟩⟨U+001B⟩[2K");
    expect(revealInvisible("\u3164\u115F\uFE0F")).toBe("⟨U+3164⟩⟨U+115F⟩⟨U+FE0F⟩");
  });

  it("leaves ordinary text, tabs, newlines and non-Latin letters as they are", () => {
    const plain = "npm test -- -u\n\tsrc/ümlaut/日本語.ts 🙂";
    expect(revealInvisible(plain)).toBe(plain);
    expect(hasInvisible(plain)).toBe(false);
  });
});

describe("the shell parser and the renderer agree on the set", () => {
  beforeAll(() => ensureShellParser());

  it("every BMP character the parser refuses as invisible is revealed, and no other", () => {
    const disagree: string[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue; // lone surrogates: not text
      const c = String.fromCharCode(cp);
      const refused = (() => {
        const r = plainCommands(`echo a${c}b`);
        return !r.ok && r.reason === "control or invisible characters";
      })();
      if (refused !== DECEPTIVE.test(c) || refused !== (revealInvisible(c) !== c)) disagree.push(`U+${cp.toString(16).padStart(4, "0")}`);
    }
    expect(disagree).toEqual([]);
  });
});
