import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SnippetText } from "./snippet-text";
import { toFilters } from "./search-everything";

describe("search snippets", () => {
  it("renders stored markup as text: no element comes from what a session stored", () => {
    const hostile = `<img src=x onerror="alert(1)"> \u0002<script>alert(2)</script>\u0003 </mark><b>x</b> &amp;`;
    const html = renderToStaticMarkup(<SnippetText snippet={hostile} />);
    expect(html).not.toMatch(/<(img|script|b)[\s>]/u);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("<mark>&lt;script&gt;alert(2)&lt;/script&gt;</mark>");
    expect(html).toContain("&lt;/mark&gt;&lt;b&gt;x&lt;/b&gt; &amp;amp;");
    // One <mark> element: the one the markers asked for.
    expect(html.split("<mark>")).toHaveLength(2);
  });
});

describe("search filters from the form", () => {
  it("sends only what is set, with the To day included", () => {
    const base = { workspaceId: "", model: "", from: "", to: "", hasNotes: false, tool: "", file: "", agent: "" };
    expect(toFilters(base)).toEqual({});
    const f = toFilters({
      ...base,
      workspaceId: "w1",
      model: " gpt-5 ",
      from: "2026-01-02",
      to: "2026-01-02",
      hasNotes: true,
      tool: "bash",
      file: "a.ts",
    });
    expect(f).toMatchObject({ workspaceId: "w1", model: "gpt-5", hasNotes: true, tool: "bash", file: "a.ts" });
    expect(f.to! - f.from!).toBe(86_400_000);
    expect(toFilters({ ...base, from: "garbage" })).toEqual({});
    expect(toFilters({ ...base, agent: "ours" })).toEqual({ agent: "ours" });
    expect(toFilters({ ...base, agent: "claude-code" })).toEqual({ agent: "claude-code" });
    // A value that is no agent (a tampered select) is left out, not sent to fail the request.
    expect(toFilters({ ...base, agent: "gemini-cli" })).toEqual({});
  });
});
