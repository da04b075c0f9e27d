/**
 * The single-file HTML replay: inline CSS, one inline script allowed by its
 * SHA-256 hash in a CSP meta tag, and the export envelope (plus timeline and
 * statistics) embedded as a JSON data block. No network access: the CSP
 * forbids every fetch except inline styles, that script and data: images.
 */
import { createHash } from "node:crypto";
import type { ReplayData } from "../../../shared/review";
// Bundled from renderer/src/html-replay/replay-page.ts by scripts/build-html-replay.ts.
import { REPLAY_SCRIPT } from "./html-replay.generated";

export type { ReplayData } from "../../../shared/review";

/** JSON safe inside a <script> element: no `<` (so no `</script>` or `<!--`), no line separators. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function scriptHash(script: string): string {
  return `sha256-${createHash("sha256").update(script, "utf8").digest("base64")}`;
}

export function renderHtml(data: ReplayData): string {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src '${scriptHash(REPLAY_SCRIPT)}'`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Agent Workbench session export">
<title>${escapeHtml(data.envelope.session.title)} · Agent Workbench replay</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <ul id="facts"></ul>
  <p class="notice">Offline replay exported from Agent Workbench. Secrets are redacted. Keys: ← → (or j k) step, Home/End, Space plays.</p>
</header>
<nav id="controls" aria-label="Replay controls">
  <button id="first" type="button" title="First step (Home)" aria-label="First step"><svg width="14" height="14" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true"><path d="M3 3h2v10H3zM13 3v10L6 8z"/></svg></button>
  <button id="prev" type="button" title="Previous step (←)" aria-label="Previous step">◀</button>
  <button id="play" type="button" title="Play or pause (Space)">Play</button>
  <button id="next" type="button" title="Next step (→)" aria-label="Next step">▶</button>
  <button id="last" type="button" title="Last step (End)" aria-label="Last step"><svg width="14" height="14" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true"><path d="M11 3h2v10h-2zM3 3v10l7-5z"/></svg></button>
  <label>Speed <select id="speed"><option value="1">1×</option><option value="2">2×</option><option value="4">4×</option><option value="8">8×</option></select></label>
  <span id="step" aria-live="polite"></span>
  <label><input type="checkbox" id="filter-errors"> Errors only</label>
  <label><input type="checkbox" id="filter-side"> Side effects only</label>
  <label><input type="checkbox" id="filter-notes"> With notes</label>
  <label>Tool <select id="filter-tool"><option value="">all</option></select></label>
  <label>Model <select id="filter-model"><option value="">all</option></select></label>
  <span id="count"></span>
</nav>
<main>
  <ol id="timeline" aria-label="Timeline"></ol>
  <section id="transcript" aria-label="Transcript"></section>
</main>
<script type="application/json" id="session-data">${embedJson(data)}</script>
<script>${REPLAY_SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1f24; --muted: #656d76; --line: #d0d7de; --card: #f6f8fa;
  --accent: #0969da; --err: #cf222e; --add: #dafbe1; --del: #ffebe9; --note: #fff8c5; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --card: #161b22;
  --accent: #4493f8; --err: #f85149; --add: #12361f; --del: #3c1618; --note: #3b2e00; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--fg); display: flex; flex-direction: column; height: 100vh; }
header { padding: 8px 16px; border-bottom: 1px solid var(--line); }
h1 { font-size: 18px; margin: 0 0 4px; }
#facts { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 0; padding: 0; list-style: none; color: var(--muted); }
.notice { margin: 4px 0 0; color: var(--muted); font-size: 12px; }
#controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 6px 16px; border-bottom: 1px solid var(--line); }
#controls button { min-width: 36px; }
#step { font-weight: 600; min-width: 220px; }
#count { color: var(--muted); }
main { flex: 1; display: flex; min-height: 0; }
#timeline { width: 34%; max-width: 460px; overflow: auto; margin: 0; padding: 0; list-style: none; border-right: 1px solid var(--line); }
.item { display: flex; gap: 6px; padding: 3px 8px; cursor: pointer; white-space: nowrap; border-left: 3px solid transparent; }
.item:hover { background: var(--card); }
.item.active { background: var(--card); border-left-color: var(--accent); }
.item .seq { color: var(--muted); flex: 0 0 40px; }
.item .kind { flex: 0 0 104px; font-weight: 600; overflow: hidden; text-overflow: ellipsis; }
.item .summary { overflow: hidden; text-overflow: ellipsis; }
.item.is-error .kind { color: var(--err); }
#transcript { flex: 1; overflow: auto; padding: 12px 16px; }
.entry { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin: 0 0 10px; background: var(--bg); }
.entry.current { outline: 2px solid var(--accent); }
.entry.user { background: var(--card); }
.entry.error { border-color: var(--err); }
.head { display: flex; gap: 8px; align-items: baseline; margin-bottom: 4px; }
.head .seq, .meta { color: var(--muted); font-size: 12px; }
.head .kind { font-weight: 600; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.error-text { color: var(--err); white-space: pre-wrap; }
pre { background: var(--card); padding: 6px 8px; border-radius: 4px; overflow: auto; max-height: 420px; margin: 4px 0; }
.diff span { display: block; }
.diff .add { background: var(--add); }
.diff .del { background: var(--del); }
.diff .hunk { color: var(--accent); }
.call { border-left: 3px solid var(--accent); padding-left: 8px; margin: 6px 0; }
.call-head { font-weight: 600; }
.thinking summary { cursor: pointer; color: var(--muted); }
.note { background: var(--note); border-radius: 4px; padding: 6px 8px; margin-top: 6px; }
.note.problem { border-left: 3px solid var(--err); }
.image { max-width: 100%; max-height: 320px; }
`;
