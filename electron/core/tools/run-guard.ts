/**
 * Before and after a sandboxed command (docs/tool-sandbox.md#what-a-write-can-still-reach):
 * what no mount can refuse is found out after the run and said, to the user
 * on the tool card and to the model in the result. That is a write through
 * a hard link to a file outside the workspace, a hard-linked file removed or
 * replaced (whether it was written first cannot be told), a git control
 * file that did not exist (or was a link) and appeared or changed, and a
 * repository created during the run.
 *
 * Contract: `prepareRunGuard` and `check` never reject; what could not be
 * checked is said as such.
 */
import { relative } from "node:path";
import { planGitProtection, samePathStamp, stampOf, type GitProtection } from "./git-protect";
import { sameStamp, scanChanges, scanWorkspace, type ScanChanges, type ScanLimits, type WorkspaceScan } from "./workspace-scan";

export interface GuardReport {
  /** Workspace-relative files written through a hard link: their outside names changed too. */
  outsideWrites: string[];
  /** Hard-linked files removed or replaced: whether they were written first cannot be told. */
  outsideUnchecked: string[];
  /** Sentences about git paths the sandbox could not make read-only and that changed. */
  gitWarnings: string[];
  /** Every sentence for the card and the model (the above and what the check did not cover). */
  warnings: string[];
}

export interface RunGuard {
  git: GitProtection;
  check(signal?: AbortSignal): Promise<GuardReport>;
}

/** Names shown in one sentence; the rest are counted. */
const MAX_NAMED = 10;

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_NAMED).join(", ");
  return paths.length > MAX_NAMED ? `${shown} and ${paths.length - MAX_NAMED} more` : shown;
}

function coverageNote(scan: WorkspaceScan | ScanChanges, when: "before" | "after"): string | null {
  if (scan.complete) return null;
  return `The workspace check ${when} the command stopped after ${scan.entries} entries: hard links and git repositories past that point were not checked.`;
}

export async function prepareRunGuard(root: string, signal?: AbortSignal, limits?: ScanLimits): Promise<RunGuard> {
  const before = await scanWorkspace(root, { signal, limits });
  const git = await planGitProtection(root, before.git);
  const linked = [...before.linked.keys()];
  const knownGit = new Set(before.git.map((e) => e.rel));

  const check = async (signal?: AbortSignal): Promise<GuardReport> => {
    const after = await scanChanges(root, before, linked, { signal, limits });
    const outsideWrites: string[] = [];
    const outsideUnchecked: string[] = [];
    if (after.rechecked.length === linked.length) {
      linked.forEach((rel, i) => {
        const was = before.linked.get(rel);
        const now = after.rechecked[i];
        if (!was) return;
        if (!now || now.dev !== was.dev || now.ino !== was.ino) outsideUnchecked.push(rel);
        else if (!sameStamp(now, was)) outsideWrites.push(rel);
      });
    }
    const gitWarnings: string[] = [];
    const reported = new Set<string>();
    for (const w of git.watch) {
      const now = await stampOf(w.path);
      if (samePathStamp(w.before, now)) continue;
      const rel = relative(root, w.path);
      reported.add(rel);
      gitWarnings.push(
        w.newRepository
          ? `The command created a git repository at ${rel}; its config and hooks were not protected, so git commands run there outside the sandbox do what they say. Check ${rel}/config and ${rel}/hooks before running git in the workspace.`
          : `The command ${w.before ? "changed" : "created"} ${rel} (${w.why}), which the sandbox could not make read-only; git run outside the sandbox acts on what it says. Check it before running git here.`,
      );
    }
    // A repository below the root: git there, or git status in a repository that registers it as a submodule, runs its config.
    if (before.complete && after.complete) {
      const created = after.git.map((e) => e.rel).filter((rel) => !knownGit.has(rel) && !reported.has(rel));
      if (created.length > 0)
        gitWarnings.push(
          `The command created git repositories or pointers that were not protected: ${listed(created)}. Git run there (or git status in a repository that lists one as a submodule) outside the sandbox does what their config and hooks say; check them first.`,
        );
    }
    const warnings = [...gitWarnings];
    if (outsideWrites.length > 0)
      warnings.push(
        `Written through a hard link, so the same file outside the workspace changed too (no sandbox can refuse that): ${listed(outsideWrites)}.`,
      );
    if (outsideUnchecked.length > 0)
      warnings.push(
        `Removed or replaced during the run, and hard-linked to a file outside the workspace: ${listed(outsideUnchecked)}. If the command wrote to one first, the outside file changed too; that cannot be checked now.`,
      );
    for (const note of [coverageNote(before, "before"), coverageNote(after, "after")]) if (note) warnings.push(note);
    return { outsideWrites, outsideUnchecked, gitWarnings, warnings };
  };
  return { git, check };
}

/** The note added when a command's output shows it hit a read-only git path. */
export function gitRefusalNote(output: string, git: GitProtection): string | null {
  if (git.readOnly.length === 0 && git.pin.length === 0) return null;
  const hit = output
    .split("\n")
    .some((line) => /\.git/.test(line) && /Read-only file system|Device or resource busy|could not (write|lock) config file/.test(line));
  if (!hit) return null;
  return `[Sandbox: git's config, hooks and other control files (.git/config, .git/hooks, .git/info, .gitmodules …) are read-only inside the sandbox, so that nothing planted there runs later outside it. A command that must change them needs the user's "Run unsandboxed"; do not retry it in another form.]`;
}
