/**
 * "What the model saw": the files and images that reached the request without
 * a tool call (docs/prompt-files.md), each with where it came from, and the
 * instruction files that were left out with the reason.
 */
import type { PromptSource } from "../../../shared/review";

const KIND_LABELS: Record<PromptSource["kind"], string> = {
  instructions: "instructions",
  mention: "@-mention",
  template: "template",
  image: "image",
};

function sizeOf(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

export function PromptSourcesList({ sources, stepOf }: { sources: readonly PromptSource[]; stepOf: (seq: number) => string }) {
  if (sources.length === 0) return <p className="muted small">No file or image reached this request without a tool call.</p>;
  return (
    <ul className="small" aria-label="Files in this request">
      {sources.map((s, i) => (
        <li key={i}>
          <span className={s.skipped ? "badge warn" : "badge"}>{s.skipped ? "left out" : KIND_LABELS[s.kind]}</span>{" "}
          {s.path === null ? "attached by you in the composer" : <code>{s.path}</code>}
          {s.detail ? ` · ${s.detail}` : ""}
          {s.skipped ? `: ${s.skipped}` : ` · ${sizeOf(s.bytes)}${s.truncated ? " (cut)" : ""}`}
          {s.seq !== null ? ` · with the message of ${stepOf(s.seq)}` : s.skipped ? "" : " · system prompt"}
        </li>
      ))}
    </ul>
  );
}
