/**
 * `npm run faux` is how a new user tries the app with no key: it must name
 * every base URL it serves, and a port already taken must give one clear line
 * and a non-zero exit, not a stack trace.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const root = join(__dirname, "..", "..");
const tsx = join(root, "node_modules", ".bin", "tsx");

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Runs the script until it exits or its stdout contains `until` (then stops it). */
function runFaux(args: string[], until?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ["scripts/faux.ts", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (until !== undefined && stdout.includes(until)) child.kill("SIGTERM");
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ stdout, stderr, code }));
  });
}

let blocker: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (blocker ? blocker.close(() => r()) : r()));
  blocker = undefined;
});

describe("npm run faux", () => {
  it(
    "prints the base URL of every API it serves",
    async () => {
      const run = await runFaux(["--port", "0"], "Ctrl-C to stop.");
      expect(run.stderr).toBe("");
      const port = /127\.0\.0\.1:(\d+)\/anthropic/.exec(run.stdout)?.[1];
      expect(port).toBeDefined();
      for (const path of ["/anthropic", "/openai/v1", "/mistral/v1", "/gemini", "/bedrock"]) {
        expect(run.stdout).toContain(`http://127.0.0.1:${port}${path}`);
      }
      expect(run.stdout).toMatch(/Gemini/);
      expect(run.stdout).toMatch(/Bedrock/);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "says in one line that a busy port is taken and exits non-zero",
    async () => {
      const server = createServer();
      blocker = server;
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      const run = await runFaux(["--port", String(port)]);
      expect(run.code).toBe(1);
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`port ${port} is already in use`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
