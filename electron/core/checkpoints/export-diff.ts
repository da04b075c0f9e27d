/** Adds a session's workspace diff (already redacted) to an export file, in the export's own format. */
import type { ExportFile, ExportFormat } from "../../../shared/review";

export function withWorkspaceDiff(file: ExportFile, format: ExportFormat, diff: string): ExportFile {
  const note = diff === "" ? "No file changes were recorded for this session (no checkpoints, or nothing changed)." : null;
  if (format === "json") {
    const parsed = JSON.parse(file.content) as Record<string, unknown>;
    return { ...file, content: JSON.stringify({ ...parsed, workspaceDiff: diff }, null, 2) };
  }
  if (format === "markdown") {
    const fence = "`".repeat(Math.max(3, longestRun(diff, "`") + 1));
    const body = note ?? `${fence}diff\n${diff.endsWith("\n") ? diff : diff + "\n"}${fence}`;
    return { ...file, content: `${file.content.trimEnd()}\n\n## Workspace diff\n\n${body}\n` };
  }
  const section = `<section class="workspace-diff"><h2>Workspace diff</h2>${note ? `<p>${escapeHtml(note)}</p>` : `<pre>${escapeHtml(diff)}</pre>`}</section>`;
  const at = file.content.lastIndexOf("</body>");
  const content = at < 0 ? file.content + section : file.content.slice(0, at) + section + file.content.slice(at);
  return { ...file, content };
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
