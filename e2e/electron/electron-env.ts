/**
 * Whether the Electron e2e can run on this machine, and why not. Shared by the
 * config's global setup (which prints the reason once) and the spec (which
 * skips with it).
 */
import { join } from "node:path";
import { electronBinary } from "../../scripts/electron-binary";

export const ROOT = join(import.meta.dirname, "..", "..");

export function electronSkipReason(): string | null {
  if (electronBinary(ROOT) === null) {
    return "Electron e2e skipped: no Electron binary in node_modules/electron/dist (its download is skipped offline; run `node node_modules/electron/install.js` where the internet is reachable).";
  }
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return "Electron e2e skipped: no display on this Linux machine (run under `xvfb-run -a npm run e2e:electron`).";
  }
  return null;
}
