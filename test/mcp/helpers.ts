/** Real MCP servers from npm (and our flaky fixture), launched with node from their package's bin path: no network. */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

function binOf(pkg: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const bin = (require(manifest) as { bin: Record<string, string> }).bin;
  return join(dirname(manifest), Object.values(bin)[0]);
}

export const EVERYTHING_BIN = binOf("@modelcontextprotocol/server-everything");
export const FILESYSTEM_BIN = binOf("@modelcontextprotocol/server-filesystem");
export const FLAKY_SERVER = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "flaky-server.mjs");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** server-everything in its streamable HTTP mode; resolves once it says it listens. */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_BIN, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let err = "";
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
      if (err.includes("listening on port")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${err}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child, stop: () => child.kill() };
}
