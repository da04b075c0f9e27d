/**
 * The one definition of what a sandboxed bash command may do
 * (docs/tool-sandbox.md#bash-in-the-os-sandbox), as plain paths; the
 * bubblewrap arguments (`bwrap-args.ts`) and the macOS profile
 * (`seatbelt-profile.ts`) are two renderings of it.
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { GitProtection } from "./git-protect";
import { isInside } from "./sandbox";

export interface SandboxProfile {
  workspace: string;
  cwd: string;
  /** Home folder whose secret sub-folders are hidden. */
  home: string;
  /** Extra folders to hide (the app's data folder). */
  hidden: readonly string[];
  network: boolean;
  /** The parent's runtime and temp folders (BashSettings.runtimeFolders), covered like /run. */
  runtimeFolders?: readonly string[];
  /** The command's PATH: entries under a covered folder are brought back. */
  pathVar?: string;
  /** Git's config and hooks in the workspace (git-protect.ts); none when absent. */
  git?: GitProtection;
  /** Folders inside a hidden one that the command may read (the session's cut bash output, whose path the model is told). */
  readable?: readonly string[];
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

/**
 * What the user's shell, git and desktop run at their next start: read-only
 * when the home folder is (inside) the workspace, so that a command cannot
 * plant code there that runs later outside the sandbox. Only those that
 * exist can be mounted over.
 */
export const HOME_STARTUP_FILES = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".gitconfig",
  ".config/git",
  ".config/fish",
  ".config/autostart",
  ".config/systemd",
];

/** Folders under home where agents and VM managers keep their sockets (1Password's ssh agent, colima, lima, Rancher, OrbStack). */
export const HOME_SOCKET_FOLDERS = [".1password", ".colima", ".lima", ".rd", ".orbstack"];

/** Where host services keep their sockets on Linux, covered by empty folders. `/tmp` (and `/tmp/.X11-unix`) is private already. */
export const SYSTEM_SOCKET_FOLDERS = ["/run", "/var/run"];

export interface SandboxPolicy {
  workspace: string;
  cwd: string;
  network: boolean;
  /** Shown as empty (a folder) or as /dev/null (a file): contents out of reach. */
  hidden: { path: string; dir: boolean }[];
  /** Linux: covered with empty folders before the workspace is bound (so a workspace inside one stays visible). */
  socketFolders: string[];
  /** Linux: bound back read-only over a socket folder (the DNS configuration, PATH entries under /run). */
  keepInSocketFolders: string[];
  git: GitProtection;
  /** Inside the workspace, read-only besides git's paths: the home folder's startup files when home is in the workspace. */
  readOnly: string[];
  /** Brought back read-only inside a hidden folder, after it is hidden (existing folders only). */
  readable: string[];
}

const kindOf = (p: string): "dir" | "file" | null => {
  try {
    return statSync(p).isDirectory() ? "dir" : "file";
  } catch {
    return null;
  }
};

const realOrNull = (p: string): string | null => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

/** Socket folders that exist, by real path, none inside another and none holding "/" itself. */
function socketFolders(profile: SandboxProfile): string[] {
  // A temp folder other than /tmp is where agents put their sockets (and the sandbox's temp files should be private anyway).
  const candidates = [...SYSTEM_SOCKET_FOLDERS, ...(profile.runtimeFolders ?? [])];
  const real = new Set<string>();
  for (const c of candidates) {
    if (!isAbsolute(c)) continue;
    const r = realOrNull(c);
    // Not a folder that holds the home folder: its dotfiles and toolchains must stay readable.
    if (r && r !== "/" && kindOf(r) === "dir" && !isInside(r, profile.home)) real.add(r);
  }
  const sorted = [...real].sort((a, b) => a.length - b.length);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => isInside(q, p)) && !isInside("/tmp", p));
}

/** What the sandbox must bring back inside a covered socket folder: DNS needs /etc/resolv.conf's target, and PATH may run through /run (NixOS). */
function keepInside(folders: readonly string[], pathVar: string): string[] {
  const keep = new Set<string>();
  const want = ["/etc/resolv.conf", ...pathVar.split(":").filter((p) => isAbsolute(p))];
  for (const w of want) {
    for (const spelling of [w, realOrNull(w)]) {
      if (spelling && folders.some((f) => isInside(f, spelling) && f !== spelling) && kindOf(spelling) !== null) keep.add(spelling);
    }
  }
  return [...keep];
}

export function sandboxPolicy(profile: SandboxProfile): SandboxPolicy {
  const hidden = [
    ...HOME_SECRETS.map((s) => join(profile.home, s)),
    ...HOME_SOCKET_FOLDERS.map((s) => join(profile.home, s)),
    ...profile.hidden,
  ]
    .filter((p) => isAbsolute(p) && p !== "/")
    // A secret folder that contains the workspace is left as is.
    .filter((p) => !isInside(p, profile.workspace))
    .flatMap((path) => {
      const kind = kindOf(path);
      return kind === null ? [] : [{ path, dir: kind === "dir" }];
    });
  const folders = socketFolders(profile);
  return {
    workspace: profile.workspace,
    cwd: profile.cwd,
    network: profile.network,
    hidden,
    socketFolders: folders,
    keepInSocketFolders: keepInside(folders, profile.pathVar ?? ""),
    git: profile.git ?? { pin: [], readOnly: [], watch: [] },
    readOnly: HOME_STARTUP_FILES.map((f) => join(profile.home, f)).filter((p) => isInside(profile.workspace, p) && kindOf(p) !== null),
    readable: (profile.readable ?? []).filter(
      (p) => isAbsolute(p) && kindOf(p) === "dir" && hidden.some((h) => h.dir && isInside(h.path, p)),
    ),
  };
}
