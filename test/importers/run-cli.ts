/** Runs a CLI to its end with a private HOME, collecting its output; never through a shell. */
import { spawn } from "node:child_process";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runCli(bin: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 180_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}\n${e.message}`, ms: Date.now() - started });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Sizes and modification times of files, to show an import left them as they were. */
export async function fingerprint(paths: string[]): Promise<string[]> {
  const { stat, readFile } = await import("node:fs/promises");
  const { createHash } = await import("node:crypto");
  return Promise.all(
    paths.map(async (p) => {
      const st = await stat(p);
      return `${p} ${st.size} ${st.mtimeMs} ${createHash("sha256")
        .update(await readFile(p))
        .digest("hex")}`;
    }),
  );
}

/** What the faux provider served a CLI, tallied as its script answers: the importer's totals must equal it. */
export function usageTally() {
  const served = { input: 0, output: 0, replies: 0 };
  const serve = (input: number, output: number) => {
    served.input += input;
    served.output += output;
    served.replies++;
    return { usage: { input, output } };
  };
  return { served, serve };
}
