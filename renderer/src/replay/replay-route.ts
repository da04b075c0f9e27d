/**
 * Replay mode in the URL fragment (`#token=…&replay=<session>&step=<n>`), so a
 * reload comes back to the same session and step. The fragment also carries
 * the web mode's WebSocket token: every other parameter is kept as it is.
 */

export interface ReplayRoute {
  sessionId: string;
  /** Timeline index to open at, when the fragment names one. */
  step: number | null;
}

function params(hash: string): URLSearchParams {
  return new URLSearchParams(hash.replace(/^#/, ""));
}

export function parseReplayRoute(hash: string): ReplayRoute | null {
  const p = params(hash);
  const sessionId = p.get("replay");
  if (!sessionId) return null;
  const raw = p.get("step");
  const step = raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  return { sessionId, step };
}

/** The fragment with the replay parameters set (or removed for null), others untouched. */
export function withReplayRoute(hash: string, route: ReplayRoute | null): string {
  const p = params(hash);
  p.delete("replay");
  p.delete("step");
  if (route) {
    p.set("replay", route.sessionId);
    if (route.step !== null) p.set("step", String(route.step));
  }
  const text = p.toString();
  return text ? `#${text}` : "";
}

/** Writes the route without a navigation or a history entry per step. */
export function writeReplayRoute(route: ReplayRoute | null): void {
  if (typeof window === "undefined") return;
  const next = withReplayRoute(window.location.hash, route);
  if (next === window.location.hash || (next === "" && window.location.hash === "")) return;
  const url = `${window.location.pathname}${window.location.search}${next}`;
  window.history.replaceState(window.history.state, "", url);
}

export function readReplayRoute(): ReplayRoute | null {
  if (typeof window === "undefined") return null;
  return parseReplayRoute(window.location.hash);
}
