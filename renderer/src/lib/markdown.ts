/**
 * Markdown to sanitized HTML, block by block. A streaming message re-renders
 * only its last (growing) block: completed blocks are cached by their source.
 */
import DOMPurify from "dompurify";
import type { HLJSApi } from "highlight.js";
import { Marked, type Tokens } from "marked";
import { nextPaint } from "./after-paint";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/** Code blocks larger than this are shown without highlighting (keeps frames short). */
const MAX_HIGHLIGHT_CHARS = 20_000;

/**
 * highlight.js is a sixth of the app's script: it is loaded on the first code
 * block, not with the app, so it does not delay the first paint. Code shows
 * plain until it is in; then the rendered blocks are dropped and views that
 * read `highlighterVersion` render again, highlighted.
 */
const HIGHLIGHTER_WAIT_MS = 500;
let hljs: HLJSApi | null = null;
let hljsLoading = false;
let version = 0;
const listeners = new Set<() => void>();

function loadHighlighter(): void {
  if (hljsLoading) return;
  hljsLoading = true;
  // Once the frame being rendered is shown: evaluating the highlighter, then rendering the code
  // again highlighted, would otherwise hold back the first paint of the transcript.
  nextPaint(HIGHLIGHTER_WAIT_MS)
    .then(() => import("highlight.js/lib/common"))
    .then(
      (mod) => {
        hljs = mod.default;
        cache.clear();
        version++;
        for (const l of listeners) l();
      },
      () => undefined, // Code stays readable unhighlighted.
    );
}

/** For useSyncExternalStore: changes once, when code highlighting becomes available. */
export function subscribeHighlighter(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export function highlighterVersion(): number {
  return version;
}

/** Resolves once code highlighting is available (tests, and views that want it before they render). */
export function highlighterReady(): Promise<void> {
  if (hljs) return Promise.resolve();
  loadHighlighter();
  return new Promise((resolve) => {
    const off = subscribeHighlighter(() => {
      off();
      resolve();
    });
  });
}

export function highlightCode(code: string, lang: string | undefined): string {
  if (!hljs) {
    if (lang) loadHighlighter();
    return escapeHtml(code);
  }
  const language = lang && hljs.getLanguage(lang) ? lang : null;
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return escapeHtml(code);
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return escapeHtml(code);
  }
}

/**
 * Marks the code blocks this renderer writes, so their Copy button is added after sanitizing (model text
 * has no buttons): random per page load, so text from a model cannot carry it.
 */
const CODE_MARK = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
const MARKED_CODE_BLOCK = `<div class="code-block" data-wb-code="${CODE_MARK}">`;
const COPY_BUTTON = `<button type="button" class="copy-code" aria-label="Copy code">Copy</button>`;

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code(token: Tokens.Code): string {
      const lang = (token.lang ?? "").trim().split(/\s+/)[0] || undefined;
      const label = lang ? `<span class="code-lang">${escapeHtml(lang)}</span>` : "";
      return (
        `${MARKED_CODE_BLOCK}${label}` +
        `<pre><code class="hljs${lang ? ` language-${escapeHtml(lang)}` : ""}">${highlightCode(token.text, lang)}</code></pre></div>`
      );
    },
    // Task lists as text: model text gets no form controls.
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? "☑" : "☐";
    },
  },
});

/**
 * What model text may use: formatting, never layout or the app's own looks.
 * Nothing positions, sizes or styles itself (no `style`, `<style>`, width,
 * height, `<font>`), takes an id, a role or an ARIA label, poses as a control
 * (buttons, inputs, forms, dialogs, meters, frames, media, SVG) or takes the
 * focus; classes only those of code highlighting; links only to the web or mail.
 */
const ALLOWED_TAGS = [
  ...["a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd", "del", "details", "dfn", "div"],
  ...["dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark"],
  ...["ol", "p", "pre", "q", "rp", "rt", "ruby", "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table"],
  ...["tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var", "wbr"],
];
/** Attributes whose value is not a URL (DOMPurify checks any other against ALLOWED_URI_REGEXP). */
const PLAIN_ATTR = ["align", "start", "reversed", "colspan", "rowspan", "scope", "open", "datetime", "data-wb-code"];
const ALLOWED_ATTR = ["href", "src", "alt", "title", "class", ...PLAIN_ATTR];
/** Class names model text may carry: code highlighting (`hljs-title function_`) and the code block's own, none of the app's. */
const ALLOWED_CLASS = /^(?:hljs(?:-[\w-]+)?|language-[\w.+#-]+|code-block|code-lang|[\w-]+_)$/;
const TABLE_ALIGN = /^(?:left|center|right)$/;

let configured = false;
function sanitize(html: string): string {
  if (!configured) {
    configured = true;
    // Set once: a config passed to each sanitize() call is parsed again on every call (a message has several blocks).
    DOMPurify.setConfig({
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOW_ARIA_ATTR: false,
      ALLOW_DATA_ATTR: false,
      ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
      ADD_URI_SAFE_ATTR: PLAIN_ATTR,
    });
    DOMPurify.addHook("uponSanitizeAttribute", (node, data) => {
      if (data.attrName === "class") {
        data.attrValue = data.attrValue
          .split(/\s+/)
          .filter((c) => ALLOWED_CLASS.test(c))
          .join(" ");
        data.keepAttr = data.attrValue !== "";
      } else if (data.attrName === "align") {
        data.keepAttr = (node.tagName === "TD" || node.tagName === "TH") && TABLE_ALIGN.test(data.attrValue);
      } else if (data.attrName === "data-wb-code") {
        data.keepAttr = node.tagName === "DIV" && data.attrValue === CODE_MARK;
      }
    });
    // Links leave the app: new window, no referrer, no opener.
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A" && node.hasAttribute("href")) {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer");
      }
    });
  }
  return DOMPurify.sanitize(html).replaceAll(MARKED_CODE_BLOCK, `<div class="code-block">${COPY_BUTTON}`);
}

const cache = new Map<string, string>();
const CACHE_LIMIT = 4000;

/** Sanitized HTML for one markdown block (cached). */
export function renderBlock(source: string): string {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  const html = sanitize(marked.parse(source, { async: false }));
  if (cache.size >= CACHE_LIMIT) {
    const first = cache.keys().next();
    if (!first.done) cache.delete(first.value);
  }
  cache.set(source, html);
  return html;
}

/** Splits markdown into top-level blocks (paragraphs, lists, fences …) by their source text. */
export function splitBlocks(text: string): string[] {
  const tokens = marked.lexer(text);
  const blocks: string[] = [];
  let pendingSpace = "";
  for (const t of tokens) {
    if (t.type === "space") {
      pendingSpace += t.raw;
      continue;
    }
    blocks.push(t.raw);
    pendingSpace = "";
  }
  if (blocks.length === 0 && pendingSpace.trim()) blocks.push(pendingSpace);
  return blocks;
}

/**
 * Text cut off mid-markdown (a stopped or failed answer, or one still
 * streaming) may leave a code fence or an inline code span open; close them so
 * the rest does not render as code and no stray backtick is left.
 */
export function closeCutMarkdown(text: string): string {
  const lines = text.split("\n");
  let fence: string | null = null;
  let lastOutside = -1;
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(lines[i]);
    if (m) {
      if (fence === null) fence = m[1];
      else if (m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
      continue;
    }
    if (fence === null) lastOutside = i;
  }
  if (fence !== null) return `${text}\n${fence}`;
  if (lastOutside < 0) return text;
  // Inline spans do not cross paragraphs: look at the last paragraph only, outside fences.
  let start = lastOutside;
  while (start > 0 && lines[start - 1].trim() !== "" && !/^\s{0,3}(`{3,}|~{3,})/.test(lines[start - 1])) start--;
  const paragraph = lines.slice(start, lastOutside + 1).join("\n");
  // A span opens with a run of N backticks and closes at the next run of exactly N.
  let open: string | null = null;
  for (const run of paragraph.match(/`+/g) ?? []) {
    if (open === null) open = run;
    else if (run.length === open.length) open = null;
  }
  return open !== null && lastOutside === lines.length - 1 ? `${text}${open}` : text;
}
