/**
 * bash: one command in its own process group. The tail of the output goes to
 * the model; the whole output is kept in a file when it was cut.
 *
 * Contract: `runBash` never rejects. Timeout and abort kill the whole process
 * group (SIGTERM, then SIGKILL after a grace period); when the shell exits,
 * what is left of its group (background jobs) is killed the same way, so no
 * command outlives its call unless it leaves the group itself (setsid).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { guardGroup } from "../process/child-guard";
import { defaultHome, describeSandbox, sandboxedCommand } from "./bash-sandbox";
import { SECCOMP_FD } from "./bwrap-args";
import type { ToolContext } from "./context";
import { errors, failure, formatSeconds, toolError } from "./errors";
import { BASH_DEFAULT_TIMEOUT_MS, BASH_KILL_GRACE_MS, BASH_MAX_LINES, BASH_OUTPUT_FILE_MAX_BYTES, OUTPUT_MAX_BYTES } from "./limits";
import { OutputFile } from "./output-files";
import { gitRefusalNote, prepareRunGuard, type GuardReport, type RunGuard } from "./run-guard";
import type { ResolvedPath } from "./sandbox";
import type { BashArgs } from "./schemas";
import { plainTerminalText } from "./terminal-text";
import { truncateTail, type Truncated } from "./truncate";
import type { Result, ToolOutcome } from "./types";

export function bashTimeoutMs(args: BashArgs): number {
  return args.timeout !== undefined ? args.timeout * 1000 : BASH_DEFAULT_TIMEOUT_MS;
}

/** The approval card's line about where the command runs. */
export function sandboxLine(ctx: Pick<ToolContext, "bash">): string {
  return describeSandbox(ctx.bash.sandbox, ctx.bash.network);
}

export async function resolveWorkdir(args: BashArgs, ctx: Pick<ToolContext, "sandbox">): Promise<Result<ResolvedPath>> {
  const resolved = await ctx.sandbox.resolve(args.workdir ?? ".");
  if (!resolved.ok) return resolved;
  if (resolved.value.kind === "missing") return { ok: false, error: errors.dirNotFound(args.workdir ?? ".") };
  if (resolved.value.kind !== "directory") return { ok: false, error: errors.notADirectory(resolved.value.rel) };
  return resolved;
}

const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
/** Bytes of output kept in memory; the model gets at most OUTPUT_MAX_BYTES of it. */
const TAIL_KEEP_CHARS = 4 * OUTPUT_MAX_BYTES;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * True while a member of the group is alive. Zombies do not count: they are
 * dead, only waiting for PID 1 to reap them (which some container inits do
 * slowly).
 */
async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch {
    // ESRCH: no process left in the group.
    return false;
  }
  if (process.platform !== "linux") return true;
  try {
    const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
    const states = await Promise.all(
      pids.map(async (p) => {
        try {
          const stat = await readFile(`/proc/${p}/stat`, "utf8");
          // Fields after the command name: state ppid pgrp …
          const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
          return Number(pgrp) === pgid && state !== "Z";
        } catch {
          // The process exited between listing and reading: not alive.
          return false;
        }
      }),
    );
    return states.some(Boolean);
  } catch {
    // /proc unreadable: assume alive, so the caller keeps waiting for the group rather than lose output.
    return true;
  }
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

/**
 * After SIGTERM: waits for the group to go away, SIGKILLs what is left after
 * the grace period. The pipes closing is not enough: a member may have closed
 * or redirected its output and ignore SIGTERM. Bounded, never hangs.
 */
async function reapGroup(pid: number): Promise<void> {
  let deadline = Date.now() + BASH_KILL_GRACE_MS;
  while ((await groupAlive(pid)) && Date.now() < deadline) await tick();
  if (!(await groupAlive(pid))) return;
  killGroup(pid, "SIGKILL");
  deadline = Date.now() + 1000;
  while ((await groupAlive(pid)) && Date.now() < deadline) await tick();
}

export async function runBash(args: BashArgs, ctx: ToolContext): Promise<ToolOutcome> {
  const workdir = await resolveWorkdir(args, ctx);
  if (!workdir.ok) return failure(workdir.error);
  // Also checked at proposal time; here so that no path runs it unconfined when the sandbox is required.
  if (ctx.bash.required && ctx.bash.sandbox.kind === "none")
    return failure(errors.sandboxUnavailable(ctx.bash.sandbox.reason ?? "no sandbox"));
  const timeoutMs = bashTimeoutMs(args);
  const started = Date.now();
  if (ctx.signal.aborted) return failure(errors.aborted());
  // What the sandbox protects by mounts, and what it can only check afterwards (run-guard.ts); nothing to guard unconfined.
  let guard: RunGuard | null = null;
  try {
    guard = ctx.bash.sandbox.kind === "none" ? null : await prepareRunGuard(ctx.sandbox.root, ctx.signal);
  } catch (err) {
    // Not run with less protection than the card promised.
    return failure(errors.io("bash", `could not prepare the sandbox: ${err instanceof Error ? err.message : String(err)}`));
  }
  if (ctx.signal.aborted) return failure(errors.aborted());

  // Without a file (it cannot be made) the command runs all the same; only the spill file is missing.
  const file = await OutputFile.open(ctx.outputDir, started);

  return new Promise<ToolOutcome>((resolve) => {
    let tail = "";
    let dropped = false;
    let bytes = 0;
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    const timers: NodeJS.Timeout[] = [];

    const sandboxed = sandboxedCommand(ctx.bash.sandbox, SHELL, args.command, {
      workspace: ctx.sandbox.root,
      cwd: workdir.value.real,
      home: defaultHome(ctx.env),
      hidden: ctx.bash.hidden,
      network: ctx.bash.network,
      runtimeFolders: ctx.bash.runtimeFolders,
      pathVar: ctx.env.PATH,
      git: guard?.git,
      readable: [ctx.outputDir],
    });
    // bwrap reads the seccomp program from its descriptor SECCOMP_FD (the fourth stdio entry) and closes it before the command starts.
    const stdio: ("ignore" | "pipe")[] = ["ignore", "pipe", "pipe"];
    if (sandboxed.seccomp) stdio[SECCOMP_FD] = "pipe";
    const child = spawn(sandboxed.file, sandboxed.args, { cwd: workdir.value.real, env: ctx.env, detached: true, stdio });
    const pid = child.pid;
    const seccompPipe = sandboxed.seccomp ? child.stdio[SECCOMP_FD] : null;
    if (sandboxed.seccomp && seccompPipe && "end" in seccompPipe) {
      // bwrap exiting early (EPIPE) shows as its own error on stderr; nothing to do here.
      seccompPipe.on("error", () => undefined);
      seccompPipe.end(sandboxed.seccomp);
    }
    // Killed with the core if the core dies first (docs/checkpoints.md#child-processes-die-with-the-core).
    const release = guardGroup(pid);

    const terminate = () => {
      if (pid === undefined) return;
      killGroup(pid, "SIGTERM");
      timers.push(setTimeout(() => killGroup(pid, "SIGKILL"), BASH_KILL_GRACE_MS));
      // A process that left the group may hold our pipes: stop waiting for it.
      timers.push(
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, BASH_KILL_GRACE_MS + 1000),
      );
    };
    const onAbort = () => {
      aborted = true;
      terminate();
    };
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        timedOut = true;
        terminate();
      }, timeoutMs),
    );

    const decoders = [new StringDecoder("utf8"), new StringDecoder("utf8")];
    const onData = (which: 0 | 1) => (chunk: Buffer) => {
      bytes += chunk.length;
      file.write(chunk);
      tail += decoders[which].write(chunk);
      if (tail.length > TAIL_KEEP_CHARS) {
        tail = tail.slice(tail.length - TAIL_KEEP_CHARS / 2);
        dropped = true;
      }
    };
    child.stdout?.on("data", onData(0));
    child.stderr?.on("data", onData(1));

    child.on("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // Background jobs left in the group are not allowed to outlive the command.
      if (!timedOut && !aborted) terminate();
    });

    let settled = false;
    const finish = async (spawnError?: Error) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      ctx.signal.removeEventListener("abort", onAbort);
      if (pid !== undefined) await reapGroup(pid);
      release();
      tail += decoders[0].end() + decoders[1].end();
      const report: GuardReport | null = guard && !spawnError ? await guard.check().catch(() => null) : null;
      const durationMs = Date.now() - started;
      const cut = truncateTail(plainTerminalText(tail), BASH_MAX_LINES, OUTPUT_MAX_BYTES);
      const truncated = cut.truncated || dropped;
      // Kept only where the model is told the path: cut output of a call that was not stopped (docs/tool-sandbox.md#output-files).
      const kept = truncated && !aborted && !spawnError ? await file.keep(ctx.outputKept) : await file.discard().then(() => null);
      const details: Record<string, unknown> = {
        command: args.command,
        cwd: workdir.value.real,
        exitCode,
        signal: exitSignal,
        durationMs,
        bytes,
        truncated,
        fullOutputPath: kept,
        timedOut,
        aborted,
        sandbox: ctx.bash.sandbox.kind,
        ...(ctx.bash.unsandboxedByUser ? { unsandboxedByUser: true } : {}),
        ...(report && report.warnings.length > 0
          ? {
              outsideWrites: report.outsideWrites,
              outsideUnchecked: report.outsideUnchecked,
              gitWarnings: report.gitWarnings,
              sandboxWarnings: report.warnings,
            }
          : {}),
      };
      if (spawnError) return resolve(failure(errors.io("bash", spawnError.message), details));
      const output = cut.text === "" ? "(no output)" : cut.text;
      const cutNote = truncated
        ? `[Output cut: showing ${keptText(cut)} (${bytes} bytes in total).${kept ? savedNote(kept, file.capped) : ""}]\n`
        : "";
      const notes = [
        guard ? gitRefusalNote(tail, guard.git) : null,
        ...(report?.warnings ?? []).map((w) => `[Sandbox check: ${w}]`),
      ].filter((n): n is string => n !== null);
      const noteText = notes.length > 0 ? `\n\n${notes.join("\n")}` : "";
      if (aborted) return resolve(failure(errors.aborted(), details));
      if (timedOut) {
        return resolve(
          failure(
            toolError(
              "TIMEOUT",
              `The command timed out after ${formatSeconds(timeoutMs)} and was killed with its child processes. Output so far:\n${cutNote}${output}${noteText}`,
              "Run something shorter, or pass a larger timeout (in seconds) if it really needs longer.",
            ),
            details,
          ),
        );
      }
      const status = exitSignal ? `Killed by signal ${exitSignal}.` : `Exit code: ${exitCode ?? "unknown"}`;
      resolve({ ok: true, content: [{ type: "text", text: `${cutNote}${output}\n\n${status}${noteText}` }], details });
    };
    child.on("error", (err) => void finish(err));
    child.on("close", () => void finish());
  });
}

function savedNote(path: string, capped: boolean): string {
  return capped ? ` Its first ${BASH_OUTPUT_FILE_MAX_BYTES / (1024 * 1024)} MB saved to ${path}.` : ` Full output saved to ${path}.`;
}

/** What a cut output still shows, in words: "the last 2000 lines", "the end of the last line" (a line is cut only when it alone is over the cap). */
function keptText(cut: Truncated): string {
  if (cut.firstLineCut) return "the end of the last line";
  return cut.keptLines === 1 ? "the last line" : `the last ${cut.keptLines} lines`;
}
