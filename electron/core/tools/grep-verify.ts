/**
 * ripgrep opens files by path on its own, so what it printed may come from a
 * file that was swapped for a link to outside the workspace mid-search. None
 * of it is shown as is: every reported path is resolved again through the
 * sandbox, the file is re-read through a verified descriptor, and a file is
 * kept only when each reported line equals the verified line at that number;
 * the text shown is the verified one (docs/tool-sandbox.md).
 */
import type { GrepFile, GrepRaw } from "./grep-format";
import type { Sandbox } from "./sandbox";
import { decodeText } from "./text-file";

const SLICE_MS = 8;

export async function verifyRgResults(sandbox: Sandbox, raw: GrepRaw, signal: AbortSignal): Promise<GrepRaw> {
  const files: GrepFile[] = [];
  let sliceStart = performance.now();
  for (const f of raw.files) {
    if (signal.aborted) break;
    const kept = verifyFile(sandbox, f);
    if (kept) files.push(kept);
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return { files, incomplete: raw.incomplete };
}

function verifyFile(sandbox: Sandbox, f: GrepFile): GrepFile | null {
  if (f.lines.length === 0) return null;
  const resolved = sandbox.resolveSync(f.path);
  // A link anywhere in the path now (rg never follows one) or not a file: not what rg read.
  if (!resolved.ok || resolved.value.kind !== "file" || resolved.value.rel !== f.path) return null;
  const lastLine = f.lines.reduce((m, l) => Math.max(m, l.line), 0);
  const prefix = sandbox.readLinesPrefixSync(resolved.value, lastLine);
  if (!prefix.ok) return null;
  const lines = decodeText(prefix.value).text.split("\n");
  const verified = [];
  for (const l of f.lines) {
    const actual = lines[l.line - 1];
    if (actual === undefined) return null;
    const text = actual.endsWith("\r") ? actual.slice(0, -1) : actual;
    if (text !== l.text) return null;
    verified.push({ line: l.line, text, match: l.match });
  }
  return { path: resolved.value.rel, lines: verified };
}
