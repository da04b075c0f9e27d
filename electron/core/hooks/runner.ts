/**
 * Runs one hook command as bash commands run: inside the OS sandbox when the
 * machine has one (workspace writable, secrets hidden, no network), with the
 * secret-stripped environment, the hook's JSON input on stdin, a timeout
 * that kills the whole process group, and output capped.
 * See docs/conventions.md#hooks.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardGroup } from "../process/child-guard";
import { defaultHome, sandboxedCommand, type BashSandboxInfo } from "../tools/bash-sandbox";
import { SECCOMP_FD } from "../tools/bwrap-args";

const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
export const HOOK_OUTPUT_MAX_CHARS = 16_000;

export interface HookRunContext {
  workspaceRoot: string;
  env: Record<string, string>;
  sandbox: BashSandboxInfo;
  /** Folders hidden from the command besides the home secrets (the app's data folder). */
  hidden: readonly string[];
}

export interface HookRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  sandboxed: boolean;
}

const cap = (s: string) => (s.length > HOOK_OUTPUT_MAX_CHARS ? `${s.slice(0, HOOK_OUTPUT_MAX_CHARS)}\n[cut]` : s);

export function runHookCommand(command: string, input: unknown, timeoutS: number, ctx: HookRunContext): Promise<HookRun> {
  const started = Date.now();
  const sandboxed = sandboxedCommand(ctx.sandbox, SHELL, command, {
    workspace: ctx.workspaceRoot,
    cwd: ctx.workspaceRoot,
    home: defaultHome(ctx.env),
    hidden: ctx.hidden,
    network: false,
    pathVar: ctx.env.PATH,
  });
  // stdin is a file, not a pipe: bash reads ~/.bashrc when its stdin is a socket (it takes it for rshd), and Node's pipes are sockets.
  let inputDir: string;
  let inputFd: number;
  try {
    inputDir = mkdtempSync(join(tmpdir(), "awb-hook-"));
    const inputPath = join(inputDir, "input.json");
    writeFileSync(inputPath, JSON.stringify(input), { mode: 0o600 });
    inputFd = openSync(inputPath, "r");
  } catch (err) {
    const message = `could not pass the hook its input: ${err instanceof Error ? err.message : String(err)}`;
    return Promise.resolve({ exitCode: null, stdout: "", stderr: message, timedOut: false, durationMs: 0, sandboxed: false });
  }
  const cleanup = () => {
    try {
      closeSync(inputFd);
    } catch {
      // Already closed.
    }
    rmSync(inputDir, { recursive: true, force: true });
  };
  return new Promise((resolve) => {
    const stdio: (number | "pipe" | "ignore")[] = [inputFd, "pipe", "pipe"];
    if (sandboxed.seccomp) stdio[SECCOMP_FD] = "pipe";
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const env = { ...ctx.env, CLAUDE_PROJECT_DIR: ctx.workspaceRoot };
    const child = spawn(sandboxed.file, sandboxed.args, { cwd: ctx.workspaceRoot, env, detached: true, stdio });
    const release = guardGroup(child.pid);
    const seccompPipe = sandboxed.seccomp ? child.stdio[SECCOMP_FD] : null;
    if (sandboxed.seccomp && seccompPipe && "end" in seccompPipe) {
      seccompPipe.on("error", () => undefined);
      seccompPipe.end(sandboxed.seccomp);
    }
    const kill = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutS * 1000);
    child.stdout?.on("data", (c: Buffer) => {
      if (stdout.length <= HOOK_OUTPUT_MAX_CHARS) stdout += c.toString("utf8");
    });
    child.stderr?.on("data", (c: Buffer) => {
      if (stderr.length <= HOOK_OUTPUT_MAX_CHARS) stderr += c.toString("utf8");
    });
    let settled = false;
    const done = (exitCode: number | null, extra = "") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      cleanup();
      release();
      resolve({
        exitCode,
        stdout: cap(stdout),
        stderr: cap(stderr + extra),
        timedOut,
        durationMs: Date.now() - started,
        sandboxed: ctx.sandbox.kind !== "none",
      });
    };
    child.on("error", (err) => done(null, `could not start the hook: ${err.message}`));
    child.on("close", (code) => done(code));
  });
}
