/** The built-in tools' specs for the current bash settings, and finding helper binaries (rg) on PATH. */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { detectBashSandbox } from "./bash-sandbox";
import type { BashSettings } from "./context";
import { bashSandboxNote } from "./descriptions";
import { defaultToolSpecs } from "./registry";
import type { ToolRuntimeOptions } from "./runtime-types";
import type { ToolSpec } from "./types";

export function findOnPath(binary: string, pathVar = process.env.PATH ?? ""): string | null {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export type BashPlacementOptions = Pick<ToolRuntimeOptions, "bashSandbox" | "bashSandboxInfo" | "bashNetwork">;

/** Where bash commands run for these settings: the sandbox (or why none), required or not, network. */
export function bashPlacement(options: BashPlacementOptions): Omit<BashSettings, "hidden" | "runtimeFolders"> {
  return {
    sandbox:
      options.bashSandbox === "off"
        ? { kind: "none", reason: "the sandbox is turned off in the settings" }
        : (options.bashSandboxInfo ?? detectBashSandbox()),
    required: options.bashSandbox === "required",
    ...(options.bashSandbox === "off" ? { off: true } : {}),
    network: options.bashNetwork ?? false,
  };
}

/**
 * The built-in tools as the model gets them for these settings: bash's
 * description says where its commands run (sandbox, network), as the
 * approval card does. The review's "what the model saw" uses it too.
 */
export function builtInToolSpecs(options: BashPlacementOptions): ToolSpec[] {
  const note = bashSandboxNote(bashPlacement(options));
  return defaultToolSpecs().map((s) => (s.name === "bash" ? { ...s, description: `${s.description}\n${note}` } : s));
}
