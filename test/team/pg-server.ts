/**
 * A real PostgreSQL for the team tests and bench: Debian's `postgresql`
 * binaries (`initdb`, `pg_ctl`) in a temp folder, on a free loopback port,
 * password (SCRAM) auth only. PostgreSQL refuses to run as root, so as root
 * the cluster belongs to the `postgres` user the Debian package creates and
 * every server command runs through `runuser -u postgres`.
 * `startPg()` answers `{ skip: reason }` instead of throwing when no server can start.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface PgServer {
  port: number;
  dir: string;
  /** The cluster's superuser (the test harness plays the admin; the app never uses it). */
  superuser: { user: string; password: string };
  url(user: string, password: string, database?: string): string;
  admin(): pg.Client;
  stop(): void;
  start(): void;
  destroy(): void;
}

const SUPER_PASSWORD = "harness-super-secret";

export function pgBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], "bin") : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

export async function startPg(): Promise<PgServer | { skip: string }> {
  const bin = pgBinDir();
  if (!bin) return { skip: "PostgreSQL is not installed (apt-get install postgresql; npm test installs it as root)" };
  const asRoot = process.getuid?.() === 0;
  if (asRoot && spawnSync("id", ["-u", "postgres"]).status !== 0)
    return { skip: "running as root and there is no `postgres` user to run the server as (PostgreSQL refuses root)" };
  const run = (cmd: string, args: string[]) => {
    const full = join(bin, cmd);
    return asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", full, ...args], { stdio: "pipe" })
      : execFileSync(full, args, { stdio: "pipe" });
  };
  const dir = mkdtempSync(join(tmpdir(), "wb-pg-"));
  const data = join(dir, "data");
  const pwfile = join(dir, "pw");
  writeFileSync(pwfile, SUPER_PASSWORD);
  if (asRoot) {
    chmodSync(dir, 0o755);
    execFileSync("chown", ["-R", "postgres", dir]);
  }
  const port = await freePort();
  try {
    run("initdb", ["-D", data, "-U", "postgres", "--auth=scram-sha-256", `--pwfile=${pwfile}`, "-E", "UTF8", "--no-sync"]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `initdb failed: ${stderrOf(e)}` };
  }
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = () => run("pg_ctl", ["-D", data, "-o", opts, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
  try {
    start();
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `the PostgreSQL server did not start: ${stderrOf(e)}` };
  }
  const url = (user: string, password: string, database = "postgres") =>
    `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    port,
    dir,
    superuser: { user: "postgres", password: SUPER_PASSWORD },
    url,
    admin: () => new pg.Client({ connectionString: url("postgres", SUPER_PASSWORD) }),
    stop() {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      stopped = true;
    },
    start() {
      start();
      stopped = false;
    },
    destroy() {
      try {
        if (!stopped) run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function stderrOf(e: unknown): string {
  const err = e as { stderr?: Buffer; message?: string };
  return (err.stderr?.toString() || err.message || String(e)).trim().split("\n").slice(-3).join(" ");
}
