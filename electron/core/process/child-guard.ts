/**
 * Child processes that do not outlive the core (git, bash). See
 * docs/checkpoints.md#child-processes-die-with-the-core.
 *
 * Contract:
 * - Callers spawn each child `detached` (its own process group, so a group
 *   kill reaches whatever it started) and `guardGroup(pid)` it at once; the
 *   returned release is called once the group is gone.
 * - One watchdog per core process, started with the first guarded child: a
 *   POSIX shell reading "+<pgid>" / "-<pgid>" lines on its stdin, in its own
 *   session. Node gives no PR_SET_PDEATHSIG, but the kernel closes the core's
 *   end of that pipe however the core ends (SIGKILL included), and on EOF the
 *   watchdog SIGKILLs every group still registered, then exits.
 * - A dead watchdog is replaced at the next guard call, with every live group
 *   registered again. No shell (Windows): guarding is a no-op.
 * - Never throws.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

const SHELL = "/bin/sh";

// Groups are kept as " 12 34 " and matched whole; only the core writes to it, one numeric id per line.
const WATCHDOG_SCRIPT = `
live=" "
while IFS= read -r line; do
  id=\${line#?}
  case $line in
    +*) live="$live$id " ;;
    -*) rest=" "; for g in $live; do [ "$g" = "$id" ] || rest="$rest$g "; done; live=$rest ;;
  esac
done
for g in $live; do kill -s KILL -- "-$g" 2>/dev/null; done
`;

let watchdog: ChildProcess | null = null;
const live = new Set<number>();

function startWatchdog(): ChildProcess | null {
  if (process.platform === "win32" || !existsSync(SHELL)) return null;
  let child: ChildProcess;
  try {
    child = spawn(SHELL, ["-c", WATCHDOG_SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"], windowsHide: true });
  } catch {
    // Cannot start it (fd limit, no shell): children are still killed by our own timeouts and on a group kill.
    return null;
  }
  const stdin = child.stdin;
  if (!stdin) return null;
  const forget = () => {
    if (watchdog === child) watchdog = null;
  };
  child.on("error", forget);
  child.on("exit", forget);
  // EPIPE once the watchdog is gone: the next guard call starts another.
  stdin.on("error", forget);
  // The watchdog must not keep the core alive, nor be waited for.
  child.unref();
  (stdin as { unref?: () => void }).unref?.();
  for (const pgid of live) stdin.write(`+${pgid}\n`);
  return child;
}

function send(line: string): void {
  try {
    watchdog?.stdin?.write(line);
  } catch {
    // A write after the pipe closed: the watchdog is gone and is replaced at the next guard call.
    watchdog = null;
  }
}

/**
 * Registers a child's process group with the watchdog; returns the release
 * to call once the group is gone (after the child exited and, for bash, its
 * group was reaped). Releasing twice is harmless.
 */
export function guardGroup(pgid: number | undefined): () => void {
  if (pgid === undefined || !Number.isInteger(pgid) || pgid <= 1) return () => undefined;
  live.add(pgid);
  if (watchdog === null || watchdog.exitCode !== null || watchdog.signalCode !== null) watchdog = startWatchdog();
  else send(`+${pgid}\n`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    live.delete(pgid);
    send(`-${pgid}\n`);
  };
}

/** The watchdog's pid, for tests that check it is there to kill children. */
export function watchdogPid(): number | null {
  return watchdog?.pid ?? null;
}
