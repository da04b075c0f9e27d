/** Starts e2e/helpers/replay-host-main.ts in a child process with a fresh database and workspace. */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stopChild } from "./host";
import { REPLAY_FILES, type ReplayHostInfo } from "./replay-seed";

export interface ReplayHost extends ReplayHostInfo {
  workspace: string;
  /** A scratch folder for downloads, removed with the host. */
  dir: string;
  stop(): Promise<void>;
}

export async function startReplayHost(): Promise<ReplayHost> {
  const dir = mkdtempSync(join(tmpdir(), "wb-e2e-replay-"));
  const workspace = join(dir, "project");
  for (const [rel, content] of Object.entries(REPLAY_FILES)) {
    const file = join(workspace, rel);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, content);
  }
  const child = spawn(process.execPath, ["--import", "tsx", "e2e/helpers/replay-host-main.ts"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      E2E_DB: join(dir, "workbench.db"),
      E2E_STATIC: join(process.cwd(), "out", "renderer"),
      E2E_WORKSPACE: workspace,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const info = await new Promise<ReplayHostInfo>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("E2E_REPLAY_HOST "));
      if (line) resolve(JSON.parse(line.slice("E2E_REPLAY_HOST ".length)) as ReplayHostInfo);
    });
    child.on("exit", (code) =>
      reject(new Error(`e2e replay host exited with ${code}: ${stderr.trim().split("\n").slice(-8).join(" | ")}`)),
    );
  });
  return {
    ...info,
    workspace,
    dir,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
