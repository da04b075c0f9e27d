/** What a tool implementation gets from the runtime. */
import type { BashSandboxInfo } from "./bash-sandbox";
import type { Sandbox } from "./sandbox";

export interface ToolContext {
  sandbox: Sandbox;
  signal: AbortSignal;
  /** Environment for child processes, secrets already stripped. */
  env: Record<string, string>;
  /** ripgrep binary, or null to use the built-in search. */
  rgPath: string | null;
  /** Folder where bash saves full output that was cut (the session's own, docs/tool-sandbox.md#output-files). */
  outputDir: string;
  /** Called after an output file was kept: bounds all sessions' files together. */
  outputKept?: () => Promise<void>;
  /** How bash commands are confined (docs/tool-sandbox.md). */
  bash: BashSettings;
  /** webfetch's network: the host's environment (proxy variables), the CA file, private addresses allowed. */
  webFetch: WebFetchSettings;
}

export interface WebFetchSettings {
  env: Record<string, string | undefined>;
  caFile: string | null;
  allowPrivate: boolean;
}

export interface BashSettings {
  /** The OS sandbox; kind "none" runs commands unconfined (the approval card says so). */
  sandbox: BashSandboxInfo;
  /** The user turned the sandbox off in Settings: rules still apply to unsandboxed commands (docs/approvals.md#what-decides). */
  off?: boolean;
  /** The settings require the sandbox: with none, bash is refused (SANDBOX_UNAVAILABLE) rather than run unconfined. */
  required: boolean;
  /** Network allowed inside the sandbox for this session. */
  network: boolean;
  /** Folders hidden from sandboxed commands besides the home secrets (the app's data folder). */
  hidden: readonly string[];
  /** The parent's runtime and temp folders ($XDG_RUNTIME_DIR, $TMPDIR …), where services keep sockets: covered in the sandbox. */
  runtimeFolders: readonly string[];
  /** The user chose "Run unsandboxed" for this one call (recorded in the result's details). */
  unsandboxedByUser?: boolean;
}

/** The settings for one bash call the user approved to run outside the sandbox. */
export function unsandboxedByUser(bash: BashSettings): BashSettings {
  return {
    ...bash,
    sandbox: { kind: "none", reason: "the user chose to run this command unsandboxed" },
    required: false,
    unsandboxedByUser: true,
  };
}
