/**
 * The OS sandbox bash commands run in (docs/tool-sandbox.md#bash-in-the-os-sandbox):
 * bubblewrap on Linux, sandbox-exec on macOS, both rendering one policy
 * (sandbox-policy.ts): the workspace writable except git's config and hooks,
 * the rest of the file system read-only (a private, empty /tmp), secret
 * folders and the app's own data hidden, no Unix socket outside the
 * workspace (on Linux none at all: a seccomp filter), no network unless the
 * session allows it, and its own process namespace.
 *
 * Why not `@anthropic-ai/sandbox-runtime`: docs/tool-sandbox.md#why-our-own-profile.
 *
 * Contract: `detectBashSandbox` never throws; where no sandbox works it says
 * why, and that reason is what the approval card shows.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { bwrapArgs } from "./bwrap-args";
import { sandboxPolicy, type SandboxProfile } from "./sandbox-policy";
import { seatbeltProfile } from "./seatbelt-profile";
import { seccompSupported, unixSocketFilter } from "./seccomp-filter";

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
    // The trial runs the real profile, so one this macOS cannot parse means no sandbox (and says why), not failing commands.
    const trial = seatbeltProfile(
      sandboxPolicy({ workspace: "/private/tmp", cwd: "/private/tmp", home: homedir(), hidden: [], network: false }),
    );
    const run = spawnSync(bin, ["-p", trial, "/usr/bin/true"], { timeout: 10_000 });
    return run.status === 0
      ? { kind: "sandbox-exec", binary: bin }
      : { kind: "none", reason: `sandbox-exec does not run here: ${String(run.stderr ?? "").trim() || `exit ${run.status}`}` };
  }
  if (process.platform !== "linux") return { kind: "none", reason: `no sandbox is available on ${process.platform}` };
  const bin = findBinary("bwrap", pathVar);
  if (!bin) return { kind: "none", reason: "bubblewrap (bwrap) is not installed; install the bubblewrap package" };
  if (!seccompSupported())
    return { kind: "none", reason: `the sandbox's socket filter knows x86_64 and arm64 only, and this machine is ${process.arch}` };
  // The trial loads the socket filter too (from stdin here; a command gets it on its own descriptor).
  const run = spawnSync(
    bin,
    [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--unshare-net",
      "--unshare-pid",
      "--die-with-parent",
      "--seccomp",
      "0",
      "true",
    ],
    { timeout: 10_000, encoding: "utf8", input: unixSocketFilter() },
  );
  if (run.status === 0) return { kind: "bwrap", binary: bin };
  const why = (run.stderr ?? "").trim().split("\n")[0] || run.error?.message || `exit ${run.status}`;
  if (/seccomp/i.test(why)) return { kind: "none", reason: `bubblewrap cannot load the sandbox's socket filter here (${why})` };
  return { kind: "none", reason: `bubblewrap cannot create its namespaces here (${why}); user namespaces may be disabled` };
}

/** One line for the approval card: what the command can and cannot do. */
export function describeSandbox(info: BashSandboxInfo, network: boolean): string {
  if (info.kind === "none") return `Not sandboxed: ${info.reason ?? "no sandbox"}. The command can read and change anything your user can.`;
  const name = info.kind === "bwrap" ? "bubblewrap" : "sandbox-exec";
  return `Sandboxed (${name}): workspace writable, everything else read-only, git config and hooks read-only, ~/.ssh, ~/.aws and other secret folders hidden, no host sockets, ${network ? "network allowed" : "no network"}.`;
}

export interface SandboxedCommand {
  file: string;
  args: string[];
  /** The seccomp program bubblewrap reads from descriptor SECCOMP_FD (bwrap-args.ts), or null. */
  seccomp: Buffer | null;
}

/** The command line that runs `shell -c command` inside the sandbox. */
export function sandboxedCommand(info: BashSandboxInfo, shell: string, command: string, profile: SandboxProfile): SandboxedCommand {
  if (info.kind === "bwrap" && info.binary) {
    return { file: info.binary, args: bwrapArgs(sandboxPolicy(profile), shell, command, true), seccomp: unixSocketFilter() };
  }
  if (info.kind === "sandbox-exec" && info.binary) {
    return { file: info.binary, args: ["-p", seatbeltProfile(sandboxPolicy(profile)), shell, "-c", command], seccomp: null };
  }
  return { file: shell, args: ["-c", command], seccomp: null };
}

/** Default home for the profile. */
export function defaultHome(env: Record<string, string | undefined>): string {
  return env.HOME || homedir();
}
