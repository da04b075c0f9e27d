/**
 * `npm start`: the desktop app when Electron can run here, web mode otherwise.
 *
 * 1. No Electron binary (its install script is skipped by `allowScripts`)?
 *    Download it with node_modules/electron/install.js. Offline: one line, then
 *    `npm run web`.
 * 2. better-sqlite3 for Electron's ABI (scripts/rebuild-native.ts; a no-op
 *    when already built for these versions). Failure: one line, web mode.
 * 3. Build the bundles and launch Electron on the project; arguments after
 *    `npm start --` are passed on (e.g. a workspace folder).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { electronBinary } from "./electron-binary";
import { ensureElectronNative } from "./rebuild-native";

const root = join(import.meta.dirname, "..");
const passThrough = process.argv.slice(2);

function tryDownloadElectron(): boolean {
  const result = spawnSync(process.execPath, [join(root, "node_modules", "electron", "install.js")], {
    cwd: root,
    stdio: "pipe",
    env: process.env,
  });
  return result.status === 0 && electronBinary(root) !== null;
}

function forward(child: ChildProcess): void {
  const stop = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on("SIGINT", stop("SIGINT"));
  process.on("SIGTERM", stop("SIGTERM"));
  child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
}

function startWebMode(): void {
  // npm_execpath is npm's own CLI when run as `npm start`: works on every OS without a shell.
  const npmCli = process.env.npm_execpath;
  const child =
    npmCli !== undefined && npmCli !== ""
      ? spawn(process.execPath, [npmCli, "run", "web", "--", ...passThrough], { cwd: root, stdio: "inherit" })
      : spawn(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "web", "--", ...passThrough], {
          cwd: root,
          stdio: "inherit",
          shell: process.platform === "win32",
        });
  forward(child);
}

async function main(): Promise<void> {
  let exe = electronBinary(root);
  if (exe === null) {
    if (!tryDownloadElectron()) {
      console.log("Electron binary not installed and could not be downloaded (offline?): starting web mode instead (npm run web).");
      startWebMode();
      return;
    }
    exe = electronBinary(root);
    console.log("Electron binary downloaded.");
  }
  if (exe === null) return;

  const native = await ensureElectronNative({ root, log: (line) => console.log(line) });
  if (!native.ok) {
    console.log(`better-sqlite3 could not be built for Electron (${native.message}): starting web mode instead (npm run web).`);
    startWebMode();
    return;
  }

  const build = spawnSync(process.execPath, [join(root, "node_modules", "electron-vite", "bin", "electron-vite.js"), "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) {
    console.error("npm start: the build failed (see above).");
    process.exit(build.status ?? 1);
  }

  const env = { ...process.env };
  // Set by some tools; it would make the binary behave as plain Node.
  delete env.ELECTRON_RUN_AS_NODE;
  forward(spawn(exe, [root, ...passThrough], { cwd: root, stdio: "inherit", env }));
}

await main();
