/**
 * Replay mode's mount points for the app shell and the session list. The view
 * itself (replay-view.tsx) is loaded when replay opens, not with the app.
 */
export { ReplayButton } from "./replay-button";
export { openReplay, useReplayActive, useReplayStore } from "./replay-store";
