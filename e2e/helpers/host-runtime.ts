/**
 * What every e2e host script does once its scenario is set up: serve the
 * built renderer over the real web host, print its ready line for
 * host-process.ts, and shut everything down on SIGTERM/SIGINT.
 */
import type { Workbench } from "../../electron/core/api/workbench";
import { startWebHost } from "../../electron/core/web/server";

export async function serveUntilStopped(options: {
  workbench: Workbench;
  staticDir: string;
  readyTag: string;
  /** The ready line's JSON beside the host's URL. */
  info?: Record<string, unknown>;
  /** Closed before the workbench (the faux provider after it). */
  closeFirst?: () => void;
  closeLast: () => Promise<void>;
}): Promise<void> {
  const host = await startWebHost({ workbench: options.workbench, staticDir: options.staticDir });
  const stop = async () => {
    options.closeFirst?.();
    await host.close();
    await options.workbench.close();
    await options.closeLast();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  console.log(`${options.readyTag} ${JSON.stringify({ url: host.url, ...options.info })}`);
}

/** Runs a host script's main; a failure is printed (host-process.ts shows its tail) and exits 1. */
export function runHostMain(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  });
}
