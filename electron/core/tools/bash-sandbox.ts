/**
 * The OS sandbox bash commands run in (docs/tool-sandbox.md): bubblewrap on
 * Linux, sandbox-exec on macOS. Default profile: the workspace writable, the
 * rest of the file system read-only (a private, empty /tmp), secret folders
 * (~/.ssh, ~/.aws, keychains, the app's own data folder …) hidden, no
 * network unless the session allows it, and its own process namespace (so
 * `/proc/$PPID/environ` shows nothing of the app).
 *
 * `@anthropic-ai/sandbox-runtime` would be the maintained wrapper, but it
 * requires Node >= 22.12 (we run on Node 20 and Electron's), so bwrap and
 * sandbox-exec are called directly with the profile below.
 *
 * Contract: `detectBashSandbox` never throws; where no sandbox works it says
 * why, and that reason is what the approval card shows.
 */
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, sep } from "node:path";

export type BashSandboxKind = "bwrap" | "sandbox-exec" | "none";
/** The user's choice (Settings → Bash sandbox); see ToolRuntimeOptions.bashSandbox. */
export type BashSandboxMode = "auto" | "required" | "off";

export interface BashSandboxInfo {
  kind: BashSandboxKind;
  /** Binary to run the command through (absent for "none"). */
  binary?: string;
  /** Why there is no sandbox, in words for the approval card. */
  reason?: string;
}

export interface SandboxProfile {
  workspace: string;
  cwd: string;
  /** Home folder whose secret sub-folders are hidden. */
  home: string;
  /** Extra folders to hide (the app's data folder). */
  hidden: readonly string[];
  network: boolean;
}

/** Secret folders and files under home, hidden from sandboxed commands. */
export const HOME_SECRETS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".azure",
  ".kube",
  ".docker",
  ".config/gcloud",
  ".config/gh",
  ".password-store",
  ".local/share/keyrings",
  "Library/Keychains",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
];

let cached: BashSandboxInfo | null = null;

/** The sandbox this machine offers, probed once (a trial run, not just a PATH look-up). */
export function detectBashSandbox(pathVar = process.env.PATH ?? ""): BashSandboxInfo {
  cached ??= probeBashSandbox(pathVar);
  return cached;
}

function findBinary(name: string, pathVar: string): string | null {
  for (const dir of pathVar.split(":")) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** A fresh trial run (detectBashSandbox caches it). */
export function probeBashSandbox(pathVar: string): BashSandboxInfo {
  if (process.platform === "darwin") {
    const bin = "/usr/bin/sandbox-exec";
    if (!existsSync(bin)) return { kind: "none", reason: "sandbox-exec is missing from this Mac" };
    const run = spawnSync(bin, ["-p", "(version 1)(allow default)", "/usr/bin/true"], { timeout: 10_000 });
    return run.status === 0
      ? { kind: "sandbox-exec", binary: bin }
      : { kind: "none", reason: `sandbox-exec does not run here: ${String(run.stderr ?? "").trim() || `exit ${run.status}`}` };
  }
  if (process.platform !== "linux") return { kind: "none", reason: `no sandbox is available on ${process.platform}` };
  const bin = findBinary("bwrap", pathVar);
  if (!bin) return { kind: "none", reason: "bubblewrap (bwrap) is not installed; install the bubblewrap package" };
  const run = spawnSync(
    bin,
    ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid", "--die-with-parent", "true"],
    {
      timeout: 10_000,
      encoding: "utf8",
    },
  );
  if (run.status === 0) return { kind: "bwrap", binary: bin };
  const why = (run.stderr ?? "").trim().split("\n")[0] || run.error?.message || `exit ${run.status}`;
  return { kind: "none", reason: `bubblewrap cannot create its namespaces here (${why}); user namespaces may be disabled` };
}

/** One line for the approval card: what the command can and cannot do. */
export function describeSandbox(info: BashSandboxInfo, network: boolean): string {
  if (info.kind === "none") return `Not sandboxed: ${info.reason ?? "no sandbox"}. The command can read and change anything your user can.`;
  const name = info.kind === "bwrap" ? "bubblewrap" : "sandbox-exec";
  return `Sandboxed (${name}): workspace writable, everything else read-only, ~/.ssh, ~/.aws and other secret folders hidden, ${network ? "network allowed" : "no network"}.`;
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return null;
  }
};

/** The command line that runs `shell -c command` inside the sandbox. */
export function sandboxedCommand(
  info: BashSandboxInfo,
  shell: string,
  command: string,
  profile: SandboxProfile,
): { file: string; args: string[] } {
  const hidden = [...HOME_SECRETS.map((s) => join(profile.home, s)), ...profile.hidden].filter((p) => isAbsolute(p) && p !== "/");
  if (info.kind === "bwrap" && info.binary) {
    // The workspace is bound before the secrets are covered: a later bind of a
    // workspace that contains them (the home folder opened as workspace) would
    // show them again. A secret folder that contains the workspace is left as is.
    const args = [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      "--bind",
      profile.workspace,
      profile.workspace,
    ];
    for (const p of hidden) {
      if (profile.workspace === p || profile.workspace.startsWith(p + sep)) continue;
      const dir = isDir(p);
      if (dir === null) continue;
      // A folder is covered by an empty one, a file by an empty file.
      if (dir) args.push("--tmpfs", p);
      else args.push("--ro-bind", "/dev/null", p);
    }
    args.push("--unshare-pid", "--die-with-parent");
    if (!profile.network) args.push("--unshare-net");
    args.push("--chdir", profile.cwd, "--", shell, "-c", command);
    return { file: info.binary, args };
  }
  if (info.kind === "sandbox-exec" && info.binary) {
    const q = (p: string) => JSON.stringify(p);
    const rules = [
      "(version 1)",
      "(allow default)",
      "(deny file-write*)",
      `(allow file-write* (subpath ${q(profile.workspace)}) (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/tty"))`,
      ...hidden.map((p) => `(deny file-read* file-write* (subpath ${q(p)}))`),
      profile.network ? "" : "(deny network*)",
    ];
    return { file: info.binary, args: ["-p", rules.join(""), shell, "-c", command] };
  }
  return { file: shell, args: ["-c", command] };
}

/** Default home for the profile. */
export function defaultHome(env: Record<string, string | undefined>): string {
  return env.HOME || homedir();
}
