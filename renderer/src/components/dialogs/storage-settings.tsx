/**
 * Settings → Storage: session database files the app kept aside as damaged
 * (it copied what it could read into a fresh one at start), each with "Try to
 * recover", which copies every row still readable into the current database.
 * Sessions already here are left as they are, so trying twice adds nothing.
 */
import { useState } from "react";
import type { RequestResult } from "../../../../shared/api";
import { client, errorText } from "../../api/current";
import { formatTime } from "../../lib/format";
import { useCoreRead } from "../use-core-read";
import { formatBytes } from "./checkpoint-settings";

type KeptFile = RequestResult<"storage.keptFiles">[number];

export function StorageSettingsSection({ headingId }: { headingId: string }) {
  const [generation, setGeneration] = useState(0);
  const read = useCoreRead(`kept-${generation}`, () => client().call("storage.keptFiles", {}));
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Record<string, string>>({});
  const files = read.value ?? [];
  if (files.length === 0 && !read.error) return null;

  const recover = async (file: KeptFile) => {
    setBusy(file.path);
    try {
      const result = await client().call("storage.recover", { path: file.path });
      setOutcome((o) => ({ ...o, [file.path]: result.summary }));
    } catch (err) {
      setOutcome((o) => ({ ...o, [file.path]: `Could not recover: ${errorText(err)}` }));
    } finally {
      setBusy(null);
      setGeneration((g) => g + 1);
    }
  };

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Storage</h3>
      <p className="muted">
        Damaged session databases kept aside. At start the app copied what it could read from each into a fresh database; trying again
        copies any session still missing here.
      </p>
      {read.error !== null && <p role="alert">{errorText(read.error)}</p>}
      <ul className="kept-files" aria-label="Kept damaged databases">
        {files.map((f) => (
          <li key={f.path}>
            <code>{f.path}</code> · {formatBytes(f.bytes)} · kept {formatTime(f.keptAt)}{" "}
            <button type="button" disabled={busy !== null} onClick={() => void recover(f)}>
              {busy === f.path ? "Recovering…" : "Try to recover"}
            </button>
            {outcome[f.path] && (
              <p className="small" role="status">
                {outcome[f.path]}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
