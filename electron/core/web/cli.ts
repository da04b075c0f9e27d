/**
 * `npm run web -- [--workspace <dir>] [--port <n>] [--db <file>] [--demo]`
 *
 * Runs the whole product without Electron: the core plus the built renderer
 * served on 127.0.0.1, printing the URL with its per-launch token.
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { defaultDataDir } from "../host/data-dir";
import { installProcessGuard } from "../host/process-guard";
import { createFileSecretStore, keyFileFor } from "../host/file-secret-store";
import { startCore } from "../host/start-core";
import { startWebHost } from "./server";

const USAGE = "usage: npm run web -- [--workspace <dir>] [--port <n>] [--db <file>] [--demo] [--static <dir>]";

// First: a missed catch anywhere is logged and reported, never the end of the process (process-guard.ts).
const guard = installProcessGuard((line) => console.error(`web mode: ${line}`));

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        workspace: { type: "string" },
        port: { type: "string" },
        db: { type: "string" },
        demo: { type: "boolean", default: false },
        static: { type: "string" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const port = args.port ? Number(args.port) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a port number\n${USAGE}`);
    process.exit(2);
  }
  const dbPath = resolve(args.db ?? join(defaultDataDir(), "workbench.db"));
  mkdirSync(dirname(dbPath), { recursive: true });
  const staticDir = resolve(args.static ?? join(process.cwd(), "out", "renderer"));

  const keyFile = keyFileFor(dbPath);
  const core = await startCore({
    dbPath,
    host: {
      mode: "web",
      secrets: createFileSecretStore({ filePath: keyFile, onProblem: (message) => console.error(`keys: ${message}`) }),
      secretsWhere: keyFile,
      notices: [],
    },
    version: process.env.npm_package_version ?? "0.0.0",
    demo: args.demo ? true : "auto",
    initialWorkspace: args.workspace ? resolve(args.workspace) : undefined,
  });
  guard.reportTo((message) => core.workbench.notice?.("error", message));
  const host = await startWebHost({ workbench: core.workbench, staticDir, port });
  console.log(`Agent Workbench (web mode) on ${host.url}`);
  if (core.demoBaseUrl) console.log(`Demo model: offline faux provider at ${core.demoBaseUrl} (no API key needed).`);
  console.log(`Sessions: ${dbPath}`);

  const stop = async () => {
    await host.close();
    await core.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((err: unknown) => {
  console.error(`web mode failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
