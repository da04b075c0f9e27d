/** A Monaco diff of one file of a rewind preview (current → restored), loaded lazily like the diff panel. */
import { useEffect, useRef, useState } from "react";
import type { DiffHost } from "../diff/monaco-diff";
import { useDarkMode } from "../use-theme";

export function RewindDiff({ path, before, after }: { path: string; before: string; after: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const host = useRef<DiffHost | null>(null);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dark = useDarkMode();

  useEffect(() => {
    let cancelled = false;
    import("../diff/monaco-diff")
      .then(({ createDiffHost }) => {
        if (cancelled || !ref.current) return;
        host.current = createDiffHost(ref.current, { inline: false, dark });
        setReady(true);
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
    return () => {
      cancelled = true;
      host.current?.dispose();
      host.current = null;
    };
    // The editor is created once; theme changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (ready) host.current?.show({ path, before, after });
  }, [ready, path, before, after]);

  useEffect(() => {
    host.current?.setDark(dark);
  }, [dark, ready]);

  if (error) return <p role="alert">Could not load the diff editor: {error}</p>;
  return <div className="rewind-diff" ref={ref} aria-label={`Diff of ${path}: now (left) and after the rewind (right)`} />;
}
