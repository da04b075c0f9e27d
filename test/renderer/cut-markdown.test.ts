/** A stopped answer's text renders without a stray backtick or an open code block. */
import { describe, expect, it } from "vitest";
import { closeCutMarkdown } from "../../renderer/src/lib/markdown";

describe("text cut off mid-markdown", () => {
  it("closes an inline code span left open", () => {
    expect(closeCutMarkdown("I'll open `READ")).toBe("I'll open `READ`");
  });
  it("leaves balanced spans and a double-backtick span alone", () => {
    expect(closeCutMarkdown("Use `a` and `b`.")).toBe("Use `a` and `b`.");
    expect(closeCutMarkdown("A span with ``a ` inside``")).toBe("A span with ``a ` inside``");
  });
  it("looks only at the last paragraph", () => {
    expect(closeCutMarkdown("An odd ` in an earlier paragraph.\n\nThen `x")).toBe("An odd ` in an earlier paragraph.\n\nThen `x`");
    expect(closeCutMarkdown("Then `x` ok\n\nAll fine")).toBe("Then `x` ok\n\nAll fine");
  });
  it("closes a code fence left open, and ignores backticks inside one", () => {
    expect(closeCutMarkdown("Here:\n```ts\nconst a = `b")).toBe("Here:\n```ts\nconst a = `b\n```");
    expect(closeCutMarkdown("```\n`\n```\nDone")).toBe("```\n`\n```\nDone");
  });
});
