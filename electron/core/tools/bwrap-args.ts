/**
 * The sandbox policy (sandbox-policy.ts) as bubblewrap arguments. Order
 * matters, later mounts cover earlier ones: the read-only root, private /tmp
 * and empty socket folders first; then the writable workspace (so a
 * workspace inside a socket folder or /tmp stays visible); then the pins and
 * the read-only git paths inside it; the hidden secrets last (so a home
 * folder opened as the workspace still hides ~/.ssh), and what may be read
 * inside a hidden folder after them (the session's cut output).
 */
import type { SandboxPolicy } from "./sandbox-policy";

/** The descriptor bubblewrap reads the seccomp program from (the spawn's fourth stdio entry). */
export const SECCOMP_FD = 3;

export function bwrapArgs(policy: SandboxPolicy, shell: string, command: string, seccomp: boolean): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  for (const folder of policy.socketFolders) args.push("--tmpfs", folder);
  for (const keep of policy.keepInSocketFolders) args.push("--ro-bind", keep, keep);
  args.push("--bind", policy.workspace, policy.workspace);
  for (const dir of policy.git.pin) args.push("--bind", dir, dir);
  for (const path of [...policy.git.readOnly, ...policy.readOnly]) args.push("--ro-bind", path, path);
  for (const { path, dir } of policy.hidden) {
    // A folder is covered by an empty one (made read-only below, once what may be read inside is bound back), a file by /dev/null.
    if (dir) args.push("--tmpfs", path);
    else args.push("--ro-bind", "/dev/null", path);
  }
  for (const path of policy.readable) args.push("--ro-bind", path, path);
  for (const { path, dir } of policy.hidden) if (dir) args.push("--remount-ro", path);
  args.push("--unshare-pid", "--die-with-parent");
  if (!policy.network) args.push("--unshare-net");
  if (seccomp) args.push("--seccomp", String(SECCOMP_FD));
  args.push("--chdir", policy.cwd, "--", shell, "-c", command);
  return args;
}
