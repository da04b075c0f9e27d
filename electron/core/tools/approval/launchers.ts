/**
 * Programs that run another command, in one list for both kinds of rule:
 * no allow rule covers them (what they run is not in their own words), and
 * deny rules look through them at the command they run (shell-parse.ts).
 */

/** They run the rest of their words as a command (`env rm x`, `timeout 5 rm x`). */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "env",
  "command",
  "builtin",
  "exec",
  "nohup",
  "nice",
  "ionice",
  "time",
  "timeout",
  "sudo",
  "doas",
  "xargs",
  "stdbuf",
  "setsid",
  "chrt",
  "taskset",
  "unbuffer",
  "chroot",
  "flock",
  "caffeinate",
  "strace",
  "ltrace",
  "busybox",
  "npx",
  "pnpx",
  "bunx",
]);

/** They run a string as a command line (`sh -c 'rm x'`, `eval 'rm x'`). */
export const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "eval", "su"]);

/** Everything that runs a command it was given: never covered by an allow rule. */
export const LAUNCHERS: ReadonlySet<string> = new Set([
  ...WRAPPERS,
  ...SHELLS,
  "source",
  ".",
  "script",
  "trap",
  "alias",
  "watch",
  "parallel",
  "valgrind",
  "gdb",
  "screen",
  "tmux",
  "ssh",
  "hash",
  "enable",
]);
