/** Starts e2e/helpers/host-main.ts in a child process with a fresh database and workspace. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface E2EHost {
  url: string;
  controlUrl: string;
  workspace: string;
  dir: string;
  /** Requests the faux provider received (route, model, strict-validation verdict). */
  /** `images`: image blocks in the request body (any API's shape). */
  /** `reasoning`: the body's reasoning fields (thinking, output_config, reasoning, reasoning_effort, include). */
  /** `lastUserText` / `lastToolResult`: the text of the request's last user turn / tool result. */
  fauxRequests(): Promise<
    Array<{
      route: string;
      model: string | null;
      accepted: boolean;
      outcome: string;
      rejection: string | null;
      images: number;
      reasoning: Record<string, unknown>;
      lastUserText: string | null;
      lastToolResult: string | null;
    }>
  >;
  stop(): Promise<void>;
}

export const WORKSPACE_FILES: Record<string, string> = {
  "README.md": "# Demo project\n\nA tiny project used by the end-to-end tests.\n",
  "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
};

/**
 * `notices`: what the host says at start (app.info notices, shown as toasts).
 * `files`: the workspace's files instead of WORKSPACE_FILES. `demo`: the offline
 * demo provider is on (as with `--demo`), played by the same faux server.
 */
export async function startHost(options: { notices?: string[]; files?: Record<string, string>; demo?: boolean } = {}): Promise<E2EHost> {
  const dir = mkdtempSync(join(tmpdir(), "wb-e2e-"));
  const workspace = join(dir, "project");
  for (const [rel, content] of Object.entries(options.files ?? WORKSPACE_FILES)) {
    const file = join(workspace, rel);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, content);
  }
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "e2e/helpers/host-main.ts"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      E2E_DB: join(dir, "workbench.db"),
      E2E_STATIC: join(process.cwd(), "out", "renderer"),
      E2E_WORKSPACE: "",
      E2E_CONFIG_DIR: join(dir, "user-config"),
      E2E_NOTICES: JSON.stringify(options.notices ?? []),
      E2E_DEMO: options.demo ? "1" : "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const ready = await new Promise<{ url: string; controlUrl: string }>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("E2E_HOST "));
      if (line) resolve(JSON.parse(line.slice("E2E_HOST ".length)) as { url: string; controlUrl: string });
    });
    child.on("exit", (code) => reject(new Error(`e2e host exited with ${code}: ${stderr.trim().split("\n").slice(-5).join(" | ")}`)));
  });
  return {
    ...ready,
    workspace,
    dir,
    async fauxRequests() {
      const res = await fetch(`${ready.controlUrl}/requests`);
      return (await res.json()) as Awaited<ReturnType<E2EHost["fauxRequests"]>>;
    },
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
