/**
 * Reads one value from the core when `key` changes (null: nothing to read).
 * A reply that arrives after the key changed or the component unmounted is
 * dropped, so a slow answer for the previous session or workspace never
 * replaces the current one; until the current key's reply is in, `value` and
 * `error` are null.
 */
import { useEffect, useEffectEvent, useState } from "react";

export interface CoreRead<T> {
  value: T | null;
  error: unknown;
}

export function useCoreRead<T>(key: string | null, read: () => Promise<T>): CoreRead<T> {
  const [state, setState] = useState<{ key: string } & CoreRead<T>>();
  // The read for the current key; a new closure each render must not re-run the effect.
  const start = useEffectEvent(read);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    start().then(
      (value) => live && setState({ key, value, error: null }),
      (error: unknown) => live && setState({ key, value: null, error: error ?? new Error("read failed") }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state && state.key === key ? state : { value: null, error: null };
}
