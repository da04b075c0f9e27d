/** Replay mode's mount points for the app shell and the session list. */
export { ReplayView } from "./replay-view";
export { ReplayButton } from "./replay-button";
export { openReplay, useReplayActive, useReplayStore } from "./replay-store";
