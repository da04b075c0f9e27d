/** Starts e2e/helpers/replay-host-main.ts in a child process with a fresh database and workspace. */
import { spawnHost } from "./host-process";
import { REPLAY_FILES, type ReplayHostInfo } from "./replay-seed";

export interface ReplayHost extends ReplayHostInfo {
  workspace: string;
  /** A scratch folder for downloads, removed with the host. */
  dir: string;
  stop(): Promise<void>;
}

export async function startReplayHost(): Promise<ReplayHost> {
  const host = await spawnHost<ReplayHostInfo>({
    script: "e2e/helpers/replay-host-main.ts",
    readyTag: "E2E_REPLAY_HOST",
    files: REPLAY_FILES,
  });
  return { ...host.info, workspace: host.workspace, dir: host.dir, stop: () => host.stop() };
}
