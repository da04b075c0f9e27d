/**
 * Export buttons (JSON, Markdown, HTML: the core redacts secrets in each) and
 * import of a JSON export into the open workspace. A download is a Blob link,
 * which works the same in the browser and in the Electron window.
 */
import { useRef, useState } from "react";
import type { ExportFile, ExportFormat } from "../../../shared/review";
import { client } from "../api/current";
import { useAppStore } from "../stores/app-store";
import { useWorkspaceStore } from "../stores/workspace-store";
import { importFile } from "./import-file";
import { openReplay } from "./replay-store";

/** Hands a file to the browser's download machinery. */
export function downloadFile(file: ExportFile): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const a = document.createElement("a");
  a.href = url;
  a.download = file.filename;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled; the download keeps its own copy.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

const FORMATS: { format: ExportFormat; label: string; title: string }[] = [
  { format: "json", label: "JSON", title: "Lossless, re-importable" },
  { format: "markdown", label: "Markdown", title: "Readable transcript" },
  { format: "html", label: "HTML", title: "A single file that replays the session offline" },
];

export function ExportButtons({ sessionId }: { sessionId: string }) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      downloadFile(await client().call("review.export", { sessionId, format }));
    } catch (err) {
      useAppStore.getState().reportError("Could not export the session", err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="segmented" role="group" aria-label="Export">
      {FORMATS.map((f) => (
        <button
          key={f.format}
          type="button"
          title={f.title}
          disabled={busy !== null}
          aria-label={`Export ${f.label}`}
          onClick={() => void run(f.format)}
        >
          {busy === f.format ? "Exporting…" : `Export ${f.label}`}
        </button>
      ))}
    </div>
  );
}

export function ImportButton() {
  const workspace = useWorkspaceStore((s) => s.workspace);
  const inputRef = useRef<HTMLInputElement>(null);
  /** null: idle; else the share of the file sent. */
  const [progress, setProgress] = useState<number | null>(null);
  const busy = progress !== null;

  const onFile = async (file: File | undefined) => {
    if (!file || !workspace) return;
    setProgress(0);
    try {
      const summary = await importFile(client(), file, workspace.id, setProgress);
      useWorkspaceStore.getState().upsertSession(summary);
      useAppStore.getState().notify("info", `Imported “${summary.title}” into ${workspace.name}`);
      openReplay(summary.id);
    } catch (err) {
      useAppStore.getState().reportError("Could not import the session", err);
    } finally {
      setProgress(null);
      if (inputRef.current) inputRef.current.value = "";
    }
  };

  return (
    <>
      <button
        type="button"
        disabled={!workspace || busy}
        title={workspace ? `Import a JSON export into ${workspace.name}` : "Open a workspace first"}
        onClick={() => inputRef.current?.click()}
      >
        {busy ? `Importing… ${Math.floor((progress ?? 0) * 100)}%` : "Import JSON…"}
      </button>
      <input
        ref={inputRef}
        type="file"
        accept="application/json,.json"
        aria-label="Session export to import"
        hidden
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
    </>
  );
}
