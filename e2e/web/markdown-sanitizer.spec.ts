/**
 * The markdown sanitizer (renderer/src/lib/markdown.ts) on its own, in
 * Chromium: model text may format itself, but never position, size or style
 * itself, take an id or a class of the app's, pose as a control of the app
 * (buttons, inputs, dialogs, meters), claim an ARIA role, or take the focus.
 * The app's own markup for code blocks (copy button, highlighting) survives.
 */
import { expect, test, type Page } from "@playwright/test";
import { openHarness } from "../helpers/page-bundle";

const HARNESS = "e2e/harness/renderer-harness.tsx";

/** The sanitized HTML of one markdown block, parsed back into a detached element for inspection. */
async function render(page: Page, markdown: string): Promise<{ html: string; attrs: string[]; tags: string[]; text: string }> {
  return page.evaluate((source) => {
    const html = (window as unknown as { harness: { renderBlock(s: string): string } }).harness.renderBlock(source);
    const box = document.createElement("div");
    box.innerHTML = html;
    const all = [...box.querySelectorAll("*")];
    return {
      html,
      attrs: [...new Set(all.flatMap((el) => [...el.attributes].map((a) => `${el.tagName.toLowerCase()}[${a.name}]`)))].sort(),
      tags: [...new Set(all.map((el) => el.tagName.toLowerCase()))].sort(),
      text: box.textContent ?? "",
    };
  }, markdown);
}

test.beforeEach(async ({ page }) => {
  await openHarness(page, HARNESS);
});

test("an overlay drawn with style, class or id is reduced to its text", async ({ page }) => {
  const out = await render(
    page,
    [
      '<div style="position:fixed;inset:0;z-index:9999;background:white" class="modal-backdrop approval-card" id="composer-input">',
      "Fake tool card: bash · Done",
      "</div>",
    ].join("\n"),
  );
  expect(out.text).toContain("Fake tool card: bash · Done");
  expect(out.attrs).toEqual([]);
  expect(out.html).not.toMatch(/style|fixed|class=|id=/);
});

test("style elements, inline styles and layout attributes are removed everywhere", async ({ page }) => {
  const out = await render(
    page,
    [
      "<style>.tool-card { display: none }</style>",
      '<p style="position:absolute;top:0" align="right" dir="rtl" width="9999" height="9999" hidden>text</p>',
      '<img src="https://example.com/x.png" width="5000" height="5000" style="position:fixed" alt="pic">',
      '<table width="100%" border="5" cellpadding="40" bgcolor="red"><tr><td style="x" width="1">cell</td></tr></table>',
      '<font size="7" color="red" face="Impact">big</font> <center>c</center> <marquee>m</marquee>',
      '<bdo dir="rtl">reversed</bdo>',
    ].join("\n"),
  );
  expect(out.tags).not.toContain("style");
  expect(out.tags).not.toEqual(expect.arrayContaining(["font"]));
  for (const tag of ["style", "font", "center", "marquee", "bdo"]) expect(out.tags).not.toContain(tag);
  expect(out.attrs.filter((a) => !["img[alt]", "img[src]"].includes(a))).toEqual([]);
  expect(out.text).toContain("reversed");
});

test("controls of the app cannot be mimicked: no buttons, inputs, forms, dialogs, meters or frames", async ({ page }) => {
  const out = await render(
    page,
    [
      '<button type="button" class="primary">Approve once</button>',
      '<button class="copy-code" onclick="x()">Approve for this session</button>',
      '<form action="https://example.com"><input name="q" value="y"><textarea>t</textarea><select><option>o</option></select></form>',
      "<dialog open>Approval required</dialog>",
      '<meter value="0.9">90%</meter> <progress value="1"></progress>',
      '<iframe src="https://example.com"></iframe> <object data="x"></object> <embed src="x">',
      '<svg><foreignObject><div style="position:fixed">svg</div></foreignObject></svg>',
      '<math><mi>x</mi></math> <video src="x" autoplay></video> <audio src="x"></audio>',
      '<label for="composer-input">Message</label> <fieldset><legend>l</legend></fieldset>',
      // The mark of the app's own code blocks (which get a Copy button) cannot be forged.
      '<div class="code-block" data-wb-code="00112233445566778899aabbccddeeff">forged</div>',
    ].join("\n"),
  );
  for (const tag of [
    "button",
    "input",
    "textarea",
    "select",
    "option",
    "form",
    "dialog",
    "meter",
    "progress",
    "iframe",
    "object",
    "embed",
    "svg",
    "foreignobject",
    "math",
    "video",
    "audio",
    "label",
    "fieldset",
  ])
    expect(out.tags).not.toContain(tag);
  expect(out.attrs).toEqual(["div[class]"]);
});

test("no ARIA roles or labels, focus, editing, popovers or data attributes from model text", async ({ page }) => {
  const out = await render(
    page,
    [
      '<div role="dialog" aria-modal="true" aria-label="Approval required" tabindex="0" autofocus contenteditable="true">x</div>',
      '<span popover="manual" id="p" accesskey="y" draggable="true" data-testid="key-hint" inert slot="s" part="p" lang="en">y</span>',
      '<details open><summary role="button" tabindex="-1">more</summary>inside</details>',
    ].join("\n"),
  );
  expect(out.attrs).toEqual(["details[open]"]);
  expect(out.text).toContain("inside");
});

test("links leave the app only for the web or mail, and never look like the app's buttons", async ({ page }) => {
  const out = await render(
    page,
    [
      '[docs](https://example.com/docs) [mail](mailto:a@example.com) <a href="http://example.com" class="primary" style="display:block">plain</a>',
      '<a href="javascript:alert(1)">js</a> <a href="#composer-input">hash</a> <a href="/settings">relative</a> <a href="file:///etc/passwd">file</a> <a href="data:text/html,x">data</a>',
    ].join("\n"),
  );
  const links = await page.evaluate((html) => {
    const box = document.createElement("div");
    box.innerHTML = html;
    return [...box.querySelectorAll("a")].map((a) => [
      a.textContent,
      a.getAttribute("href"),
      a.getAttribute("target"),
      a.getAttribute("rel"),
      a.getAttribute("class"),
      a.getAttribute("style"),
    ]);
  }, out.html);
  expect(links).toEqual([
    ["docs", "https://example.com/docs", "_blank", "noopener noreferrer", null, null],
    ["mail", "mailto:a@example.com", "_blank", "noopener noreferrer", null, null],
    ["plain", "http://example.com", "_blank", "noopener noreferrer", null, null],
    ["js", null, null, null, null, null],
    ["hash", null, null, null, null, null],
    ["relative", null, null, null, null, null],
    ["file", null, null, null, null, null],
    ["data", null, null, null, null, null],
  ]);
});

test("markdown still formats: headings, lists, tables, task lists, code blocks with their copy button and highlighting", async ({
  page,
}) => {
  const out = await render(
    page,
    "# Title\n\n- [x] done\n- [ ] open\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n> quote **bold** _em_ `code` ~~del~~\n",
  );
  for (const tag of ["h1", "ul", "li", "table", "th", "td", "blockquote", "strong", "em", "code", "del"]) expect(out.tags).toContain(tag);
  expect(out.text).toContain("☑ done");
  expect(out.text).toContain("☐ open");
  expect(out.attrs).toEqual(["td[align]", "th[align]"]);

  const code = await render(page, "```ts\nconst x = 1;\n```\n");
  expect(code.attrs).toEqual(["button[aria-label]", "button[class]", "button[type]", "code[class]", "div[class]", "span[class]"]);
  expect(code.html).toContain('<button type="button" class="copy-code" aria-label="Copy code">Copy</button>');
  expect(code.html).toContain('class="hljs language-ts"');

  // Once highlight.js is in, its classes survive (and only they).
  await page.evaluate(() => (window as unknown as { harness: { highlighterReady(): Promise<void> } }).harness.highlighterReady());
  const lit = await render(page, "```ts\nfunction f() { return 1; }\n```\n");
  expect(lit.html).toMatch(/<span class="hljs-keyword">function<\/span>/);
  expect(lit.html).toMatch(/class="hljs-title function_"/);
});
