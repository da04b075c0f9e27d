/**
 * Starts a worker thread from a worker module of the core, named by its file
 * next to the caller. From the sources (tsx, vitest) that is the `.ts` file,
 * loaded through ts-worker.mjs; in the built app each worker module is its own
 * entry beside the main bundle (electron.vite.config.ts), so the `.js` file.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** `name`: the worker module's file name without extension; `callerUrl`: the caller's `import.meta.url`. */
export function startWorker(name: string, callerUrl: string, options: WorkerOptions = {}): Worker {
  const dir = dirname(fileURLToPath(callerUrl));
  const source = join(dir, `${name}.ts`);
  if (!existsSync(source)) return new Worker(pathToFileURL(join(dir, `${name}.js`)), options);
  const boot = join(dirname(fileURLToPath(import.meta.url)), "ts-worker.mjs");
  return new Worker(pathToFileURL(boot), { ...options, argv: [...((options.argv ?? []) as unknown[]), pathToFileURL(source).href] });
}
