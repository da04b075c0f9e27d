/**
 * The one way the e2e specs start a host: a fresh folder with a workspace of
 * the given files and a database, the host script in a child process, and its
 * ready line `<TAG> {json}` parsed. The scenario scripts (host-main.ts,
 * replay-host-main.ts) serve through host-runtime.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface HostProcess<Info> {
  info: Info;
  /** The scratch folder (database, workspace, downloads), removed by stop(). */
  dir: string;
  workspace: string;
  stop(): Promise<void>;
}

export async function spawnHost<Info>(options: {
  script: string;
  readyTag: string;
  files: Record<string, string>;
  /** Extra environment; E2E_DB, E2E_STATIC and E2E_WORKSPACE are set here (`workspaceEnv: false` leaves E2E_WORKSPACE empty). */
  env?: (paths: { dir: string; workspace: string }) => Record<string, string>;
  workspaceEnv?: boolean;
}): Promise<HostProcess<Info>> {
  const dir = mkdtempSync(join(tmpdir(), "wb-e2e-"));
  const workspace = join(dir, "project");
  for (const [rel, content] of Object.entries(options.files)) {
    const file = join(workspace, rel);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, content);
  }
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", options.script], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      E2E_DB: join(dir, "workbench.db"),
      E2E_STATIC: join(process.cwd(), "out", "renderer"),
      E2E_WORKSPACE: options.workspaceEnv === false ? "" : workspace,
      ...options.env?.({ dir, workspace }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const prefix = `${options.readyTag} `;
  const info = await new Promise<Info>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith(prefix));
      if (line) resolve(JSON.parse(line.slice(prefix.length)) as Info);
    });
    child.on("exit", (code) =>
      reject(new Error(`${options.script} exited with ${code}: ${stderr.trim().split("\n").slice(-8).join(" | ")}`)),
    );
  }).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    info,
    dir,
    workspace,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asks a host process to shut down; one that does not finish within 10 s is killed, so the suite never hangs. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill("SIGTERM");
  const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(force);
}
