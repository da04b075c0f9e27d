// Runs a worker module from the sources (tsx, vitest): registers tsx's loader in this thread, then
// imports the module named last on the command line (worker-file.ts). Node 20 does not apply a
// loader given to a worker through execArgv.
import { register } from "tsx/esm/api";

register();
await import(process.argv[process.argv.length - 1]);
