/** Code blocks: plain (escaped) until highlight.js has loaded on demand, then highlighted. */
import { describe, expect, it } from "vitest";
import { highlightCode, highlighterReady, highlighterVersion, subscribeHighlighter } from "../../renderer/src/lib/markdown";

describe("highlight.js loaded on the first code block", () => {
  it("shows code escaped first, tells views once it loaded, then highlights", async () => {
    const code = "const a = 1 < 2;";
    // Not part of the app's first script: the first call renders plain, escaped text.
    expect(highlightCode(code, "ts")).toBe("const a = 1 &lt; 2;");
    const before = highlighterVersion();
    let told = 0;
    const off = subscribeHighlighter(() => told++);
    await highlighterReady();
    off();
    expect(told).toBe(1);
    expect(highlighterVersion()).toBe(before + 1);
    expect(highlightCode(code, "ts")).toContain('<span class="hljs-keyword">const</span>');
    // Unknown languages stay plain.
    expect(highlightCode("<b>", "no-such-language")).toBe("&lt;b&gt;");
  });
});
