/** What a tool implementation gets from the runtime. */
import type { Sandbox } from "./sandbox";

export interface ToolContext {
  sandbox: Sandbox;
  signal: AbortSignal;
  /** Environment for child processes, secrets already stripped. */
  env: Record<string, string>;
  /** ripgrep binary, or null to use the built-in search. */
  rgPath: string | null;
  /** Folder where bash saves full output that was cut. */
  outputDir: string;
}
