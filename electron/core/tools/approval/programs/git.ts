/**
 * git and the sub-commands a wildcard rule may name. Missing on purpose:
 * sub-commands that run programs or change what later git commands run
 * (config, help (a pager or browser), submodule, bisect, filter-branch,
 * difftool, mergetool, daemon, instaweb, send-email, archive --remote,
 * worktree, hook): exact rules only. The table is not every option git has,
 * so abbreviated options are not expanded: an abbreviation is unknown and
 * asked. Source: git 2.39 reference, https://git-scm.com/docs
 */
import { options, type ProgramSpec } from "../program-spec";

const DOCS = "https://git-scm.com/docs/";

const GLOBAL = `
  # -C and --git-dir point git at another repository, whose own config can run programs.
  -C=path                 -
  -c=code                 exec
  --config-env=code       exec
  --exec-path[=path]      exec
  --html-path             free
  --man-path              free
  --info-path             free
  -p --paginate           exec
  -P --no-pager           free
  --git-dir=path          exec
  --work-tree=path        -
  --namespace=text        free
  --bare                  exec
  --no-replace-objects    free
  --no-lazy-fetch         free
  --no-optional-locks     free
  --no-advice             free
  --literal-pathspecs     free
  --glob-pathspecs        free
  --noglob-pathspecs      free
  --icase-pathspecs       free
  --list-cmds=text        free
  --attr-source=text      free
  --version -v            free
  --help -h               exec
`;

/** Options of the diff machinery (git diff, log, show). */
const DIFF = `
  -p -u --patch           free
  -s --no-patch           free
  -U=number               free
  --unified=number        free
  --output=path           write
  --output-indicator-new=text free
  --output-indicator-old=text free
  --output-indicator-context=text free
  --raw                   free
  --patch-with-raw        free
  --indent-heuristic      free
  --no-indent-heuristic   free
  --minimal               free
  --patience              free
  --histogram             free
  --anchored=text         free
  --diff-algorithm=text   free
  --stat[=text]           free
  --compact-summary       free
  --numstat               free
  --shortstat             free
  -X --dirstat[=text]     free
  --cumulative            free
  --dirstat-by-file[=text] free
  --summary               free
  --patch-with-stat       free
  -z                      free
  --name-only             free
  --name-status           free
  --submodule[=text]      free
  --color[=text]          free
  --no-color              free
  --color-moved[=text]    free
  --no-color-moved        free
  --color-moved-ws=text   free
  --no-color-moved-ws     free
  --word-diff[=text]      free
  --word-diff-regex=text  free
  --color-words[=text]    free
  --no-renames            free
  --rename-empty          free
  --no-rename-empty       free
  --check                 free
  --ws-error-highlight=text free
  --full-index            free
  --binary                free
  --abbrev[=number]       free
  -B --break-rewrites[=text] free
  -M --find-renames[=text] free
  -C --find-copies[=text] free
  --find-copies-harder    free
  -D --irreversible-delete free
  -l[=number]             free
  --diff-filter=text      free
  -S=text                 free
  -G=text                 free
  --find-object=text      free
  --pickaxe-all           free
  --pickaxe-regex         free
  -O=path                 free
  --skip-to=text          free
  --rotate-to=text        free
  -R                      free
  --relative[=text]       free
  --no-relative           free
  -a --text               free
  --ignore-cr-at-eol      free
  --ignore-space-at-eol   free
  -b --ignore-space-change free
  -w --ignore-all-space   free
  --ignore-blank-lines    free
  -I --ignore-matching-lines=text free
  --inter-hunk-context=number free
  -W --function-context   free
  --exit-code             free
  --quiet                 free
  # diff.external and textconv drivers are programs named in the config.
  --ext-diff              exec
  --no-ext-diff           free
  --textconv              exec
  --no-textconv           free
  --ignore-submodules[=text] free
  --src-prefix=text       free
  --dst-prefix=text       free
  --no-prefix             free
  --default-prefix        free
  --line-prefix=text      free
  --ita-invisible-in-index free
  --ita-visible-in-index  free
`;

/** Revision walking and formatting (git log, show, shortlog, rev-list). */
const REVS = `
  -n --max-count=number   free
  --skip=number           free
  --since --after=text    free
  --until --before=text   free
  --author=text           free
  --committer=text        free
  --grep=text             free
  --grep-reflog=text      free
  --all-match             free
  --invert-grep           free
  -i --regexp-ignore-case free
  --basic-regexp          free
  -E --extended-regexp    free
  -F --fixed-strings      free
  -P --perl-regexp        free
  --remove-empty          free
  --merges                free
  --no-merges             free
  --min-parents=number    free
  --max-parents=number    free
  --no-min-parents        free
  --no-max-parents        free
  --first-parent          free
  --exclude-first-parent-only free
  --not                   free
  --all                   free
  --branches[=text]       free
  --tags[=text]           free
  --remotes[=text]        free
  --glob=text             free
  --exclude=text          free
  --reflog                free
  --single-worktree       free
  --ignore-missing        free
  --cherry-mark           free
  --cherry-pick           free
  --left-only             free
  --right-only            free
  --cherry                free
  -g --walk-reflogs       free
  --merge                 free
  --boundary              free
  --simplify-by-decoration free
  --show-pulls            free
  --full-history          free
  --dense                 free
  --sparse                free
  --simplify-merges       free
  --ancestry-path[=text]  free
  --date-order            free
  --author-date-order     free
  --topo-order            free
  --reverse               free
  --no-walk[=text]        free
  --do-walk               free
  --format=text           free
  --pretty[=text]         free
  --abbrev-commit         free
  --no-abbrev-commit      free
  --oneline               free
  --encoding=text         free
  --expand-tabs[=number]  free
  --no-expand-tabs        free
  --notes[=text]          free
  --no-notes              free
  --show-signature        free
  --relative-date         free
  --date=text             free
  --parents               free
  --children              free
  --left-right            free
  --graph                 free
  --show-linear-break[=text] free
  -c                      free
  --cc                    free
  --dd                    free
  --remerge-diff          free
  --no-diff-merges        free
  --diff-merges=text      free
  --combined-all-paths    free
  -t                      free
  -m                      free
  -r                      free
  --follow                free
  --decorate[=text]       free
  --no-decorate           free
  --decorate-refs=text    free
  --decorate-refs-exclude=text free
  --clear-decorations     free
  --source                free
  --mailmap --use-mailmap free
  --no-mailmap --no-use-mailmap free
  --full-diff             free
  --log-size              free
  -L=text                 free
  -q                      free
`;

const sub = (name: string, table: string, operands: ProgramSpec["operands"], extra: Partial<ProgramSpec> = {}): ProgramSpec => ({
  source: `${DOCS}git-${name}`,
  options: options(table),
  operands,
  ...extra,
});
const refsAndPaths = { rest: "name" } as const;
const HOOKS = "runs the repository's git hooks (.git/hooks), which are code";

const SUBCOMMANDS: Record<string, ProgramSpec> = {
  status: sub(
    "status",
    `
    -s --short              free
    -b --branch             free
    --show-stash            free
    --porcelain[=text]      free
    --long                  free
    -v --verbose            free
    -u --untracked-files[=text] free
    --ignore-submodules[=text] free
    --ignored[=text]        free
    -z                      free
    --column[=text]         free
    --no-column             free
    --ahead-behind          free
    --no-ahead-behind       free
    --renames               free
    --no-renames            free
    --find-renames[=text]   free
    `,
    { rest: "path" },
  ),
  diff: sub(
    "diff",
    `${DIFF}
    --cached --staged       free
    --merge-base            free
    # --no-index compares any two files on the disk.
    --no-index              read
    -1 --base               free
    -2 --ours               free
    -3 --theirs             free
    -0                      free
    `,
    refsAndPaths,
  ),
  log: sub("log", DIFF + REVS, refsAndPaths, { dashNumber: "--max-count" }),
  show: sub("show", DIFF + REVS, refsAndPaths),
  shortlog: sub(
    "shortlog",
    `${REVS}
    -n --numbered           free
    -s --summary            free
    -e --email              free
    --group=text            free
    -w[=text]               free
    `,
    refsAndPaths,
  ),
  "rev-list": sub("rev-list", `${REVS}\n--count free\n--objects free\n--header free`, refsAndPaths),
  blame: sub(
    "blame",
    `
    -b                      free
    --root                  free
    --show-stats            free
    -L=text                 free
    -l                      free
    -t                      free
    -S=path                 free
    --reverse=text          free
    --first-parent          free
    -p --porcelain          free
    --line-porcelain        free
    --incremental           free
    --encoding=text         free
    --contents=path         free
    --date=text             free
    --progress --no-progress free
    -M[=number]             free
    -C[=number]             free
    --ignore-rev=text       free
    --ignore-revs-file=path free
    --color-lines           free
    --color-by-age          free
    --abbrev[=number]       free
    -c                      free
    -f --show-name          free
    -n --show-number        free
    -s                      free
    -e --show-email         free
    -w                      free
    `,
    refsAndPaths,
  ),
  grep: sub(
    "grep",
    `
    --cached                free
    --untracked             free
    --no-index              free
    --no-exclude-standard   free
    --exclude-standard      free
    --recurse-submodules    free
    -a --text               free
    --textconv              exec
    --no-textconv           free
    -i --ignore-case        free
    -I                      free
    --max-depth=number      free
    -r --recursive          free
    --no-recursive          free
    -w --word-regexp        free
    -v --invert-match       free
    -h                      free
    -H                      free
    --full-name             free
    -E --extended-regexp    free
    -G --basic-regexp       free
    -P --perl-regexp        free
    -F --fixed-strings      free
    -n --line-number        free
    --column                free
    -l --files-with-matches --name-only free
    -L --files-without-match free
    # --open-files-in-pager runs a program on the matches.
    -O --open-files-in-pager[=command] exec
    -z --null               free
    -o --only-matching      free
    -c --count              free
    --color[=text]          free
    --no-color              free
    --break                 free
    --heading               free
    -p --show-function      free
    -A --after-context=number free
    -B --before-context=number free
    -C --context=number     free
    -W --function-context   free
    -m --max-count=number   free
    --threads=number        free
    -f=path                 free
    -e=text                 free
    --and --or --not        free
    --all-match             free
    -q --quiet              free
    `,
    { leading: ["text"], leadingUnless: ["-e", "-f"], rest: "name" },
  ),
  branch: sub(
    "branch",
    `
    -a --all                free
    -r --remotes            free
    -l --list               free
    -v -vv --verbose        free
    --show-current          free
    --contains=text         free
    --no-contains=text      free
    --merged=text           free
    --no-merged=text        free
    --points-at=text        free
    --sort=text             free
    --format=text           free
    --column[=text]         free
    --no-column             free
    --color[=text]          free
    --no-color              free
    -i --ignore-case        free
    --omit-empty            free
    --abbrev=number         free
    --no-abbrev             free
    -d --delete             -
    -D                      -
    -m --move               -
    -M                      -
    -c --copy               -
    --create-reflog         free
    -f --force              -
    -t --track[=text]       free
    --no-track              free
    -u --set-upstream-to=text -
    --unset-upstream        -
    # --edit-description opens an editor.
    --edit-description      exec
    -q --quiet              free
    `,
    { rest: "name" },
  ),
  add: sub(
    "add",
    `
    -n --dry-run            free
    -v --verbose            free
    -f --force              free
    --sparse                free
    -i --interactive        exec
    -p --patch              exec
    -e --edit               exec
    -u --update             free
    -A --all --no-ignore-removal free
    --no-all --ignore-removal free
    -N --intent-to-add      free
    --refresh               free
    --ignore-errors         free
    --ignore-missing        free
    --no-warn-embedded-repo free
    --renormalize           free
    --chmod=text            free
    --pathspec-from-file=path free
    --pathspec-file-nul     free
    `,
    { rest: "path" },
  ),
  commit: sub(
    "commit",
    `
    -a --all                free
    -p --patch              exec
    -C --reuse-message=text free
    -c --reedit-message=text exec
    --fixup=text            free
    --squash=text           free
    --reset-author          free
    --short                 free
    --branch                free
    --porcelain             free
    --long                  free
    -z --null               free
    -F --file=path          free
    --author=text           free
    --date=text             free
    -m --message=text       free
    -t --template=path      free
    -s --signoff            free
    --no-signoff            free
    --trailer=text          free
    -n --no-verify          free
    --verify                free
    --allow-empty           free
    --allow-empty-message   free
    --cleanup=text          free
    # Without -m, -F or --no-edit git opens the editor.
    -e --edit               exec
    --no-edit               free
    --amend                 free
    --no-post-rewrite       free
    -i --include            free
    -o --only               free
    --pathspec-from-file=path free
    --pathspec-file-nul     free
    -u --untracked-files[=text] free
    -v --verbose            free
    -q --quiet              free
    --dry-run               free
    --status                free
    --no-status             free
    -S --gpg-sign[=text]    free
    --no-gpg-sign           free
    `,
    { rest: "path" },
    { runsWorkspaceCode: HOOKS },
  ),
  restore: sub(
    "restore",
    `
    -s --source=text        free
    -p --patch              exec
    -W --worktree           free
    -S --staged             free
    -q --quiet              free
    --progress --no-progress free
    --ours                  free
    --theirs                free
    -m --merge              free
    --conflict=text         free
    --ignore-unmerged       free
    --ignore-skip-worktree-bits free
    --recurse-submodules    free
    --no-recurse-submodules free
    --overlay --no-overlay  free
    --pathspec-from-file=path free
    --pathspec-file-nul     free
    `,
    { rest: "path" },
  ),
  switch: sub(
    "switch",
    `
    -c --create=text        free
    -C --force-create=text  free
    -d --detach             free
    --guess --no-guess      free
    -f --force --discard-changes free
    -m --merge              free
    --conflict=text         free
    -q --quiet              free
    --progress --no-progress free
    -t --track[=text]       free
    --no-track              free
    --orphan=text           free
    --ignore-other-worktrees free
    --recurse-submodules    free
    --no-recurse-submodules free
    `,
    { rest: "name" },
    { runsWorkspaceCode: HOOKS },
  ),
  checkout: sub(
    "checkout",
    `
    -q --quiet              free
    --progress --no-progress free
    -f --force              free
    --ours                  free
    --theirs                free
    -b=text                 free
    -B=text                 free
    -t --track[=text]       free
    --no-track              free
    --guess --no-guess      free
    -l                      free
    -d --detach             free
    --orphan=text           free
    --ignore-skip-worktree-bits free
    -m --merge              free
    --conflict=text         free
    -p --patch              exec
    --ignore-other-worktrees free
    --overwrite-ignore --no-overwrite-ignore free
    --recurse-submodules    free
    --no-recurse-submodules free
    --overlay --no-overlay  free
    --pathspec-from-file=path free
    --pathspec-file-nul     free
    `,
    refsAndPaths,
    { runsWorkspaceCode: HOOKS },
  ),
  stash: {
    source: `${DOCS}git-stash`,
    options: [],
    operands: { rest: "name" },
    subcommandOptional: true,
    subcommands: {
      list: sub("stash", REVS + DIFF, { rest: "name" }),
      show: sub("stash", `${DIFF}\n-u --include-untracked free\n--only-untracked free`, { rest: "name" }),
      push: sub(
        "stash",
        `
        -p --patch              exec
        -S --staged             free
        -k --keep-index         free
        --no-keep-index         free
        -u --include-untracked  free
        --no-include-untracked  free
        -a --all                free
        -q --quiet              free
        -m --message=text       free
        --pathspec-from-file=path free
        --pathspec-file-nul     free
        `,
        { rest: "path" },
      ),
      pop: sub("stash", `--index free\n-q --quiet free`, { rest: "name" }),
      apply: sub("stash", `--index free\n-q --quiet free`, { rest: "name" }),
      drop: sub("stash", `-q --quiet free`, { rest: "name" }),
      clear: sub("stash", ``, { rest: "name" }),
      branch: sub("stash", ``, { rest: "name" }),
    },
  },
  fetch: sub(
    "fetch",
    `
    --all                   free
    -a --append             free
    --atomic                free
    --depth=number          free
    --deepen=number         free
    --shallow-since=text    free
    --shallow-exclude=text  free
    --unshallow             free
    --update-shallow        free
    --negotiation-tip=text  free
    --negotiate-only        free
    --dry-run               free
    --porcelain             free
    --write-fetch-head --no-write-fetch-head free
    -f --force              free
    -k --keep               free
    --multiple              free
    --auto-maintenance --no-auto-maintenance free
    --auto-gc --no-auto-gc  free
    --write-commit-graph --no-write-commit-graph free
    --prefetch              free
    -p --prune              free
    -P --prune-tags         free
    -n --no-tags            free
    --refetch               free
    --refmap=text           free
    -t --tags               free
    --recurse-submodules[=text] free
    --no-recurse-submodules free
    -j --jobs=number        free
    --set-upstream          free
    # --upload-pack runs a program (on the remote side of the transport, or locally for local paths).
    --upload-pack=command   exec
    -q --quiet              free
    -v --verbose            free
    --progress              free
    --show-forced-updates --no-show-forced-updates free
    -4 --ipv4               free
    -6 --ipv6               free
    `,
    { rest: "url" },
  ),
  pull: sub(
    "pull",
    `
    -q --quiet              free
    -v --verbose            free
    --recurse-submodules[=text] free
    --no-recurse-submodules free
    --commit --no-commit    free
    --edit                  exec
    -e                      exec
    --no-edit               free
    --ff --no-ff --ff-only  free
    --squash --no-squash    free
    --verify --no-verify    free
    -r --rebase[=text]      free
    --no-rebase             free
    --autostash --no-autostash free
    --all                   free
    --depth=number          free
    -t --tags               free
    -n --no-tags            free
    -p --prune              free
    -4 --ipv4               free
    -6 --ipv6               free
    --upload-pack=command   exec
    -s --strategy=text      -
    -X --strategy-option=text -
    `,
    { rest: "url" },
    { runsWorkspaceCode: HOOKS },
  ),
  push: sub(
    "push",
    `
    --all --branches        free
    --prune                 -
    --mirror                -
    -n --dry-run            free
    --porcelain             free
    -d --delete             -
    --tags                  free
    --follow-tags           free
    --signed[=text]         free
    --atomic                free
    -o --push-option=text   free
    # --receive-pack / --exec run a program on the receiving side (locally for local paths).
    --receive-pack --exec=command exec
    -f --force              -
    --force-with-lease[=text] -
    --force-if-includes     -
    --repo=text             free
    -u --set-upstream       free
    --thin --no-thin        free
    -q --quiet              free
    -v --verbose            free
    --progress              free
    --recurse-submodules=text free
    --no-recurse-submodules free
    --verify --no-verify    free
    -4 --ipv4               free
    -6 --ipv6               free
    `,
    { rest: "url" },
    { runsWorkspaceCode: HOOKS },
  ),
  remote: {
    source: `${DOCS}git-remote`,
    options: options(`-v --verbose free`),
    operands: { rest: "name" },
    subcommandOptional: true,
    subcommands: {
      "get-url": sub("remote", `--push free\n--all free`, { rest: "name" }),
      show: sub("remote", `-n free`, { rest: "name" }),
      add: sub("remote", `-t=text free\n-m=text free\n-f free\n--tags --no-tags free\n--mirror[=text] free`, {
        leading: ["name"],
        rest: "url",
      }),
    },
  },
  merge: sub(
    "merge",
    `
    --commit --no-commit    free
    --edit                  exec
    -e                      exec
    --no-edit               free
    --cleanup=text          free
    --ff --no-ff --ff-only  free
    -S --gpg-sign[=text]    free
    --no-gpg-sign           free
    --log[=number]          free
    --no-log                free
    --signoff --no-signoff  free
    --stat -n --no-stat     free
    --squash --no-squash    free
    --verify --no-verify    free
    # A strategy named here is a program (git-merge-<name>) found on PATH.
    -s --strategy=text      -
    -X --strategy-option=text -
    --verify-signatures --no-verify-signatures free
    -q --quiet              free
    -v --verbose            free
    --progress --no-progress free
    --autostash --no-autostash free
    --allow-unrelated-histories free
    -m=text                 free
    -F --file=path          free
    --into-name=text        free
    --rerere-autoupdate --no-rerere-autoupdate free
    --overwrite-ignore --no-overwrite-ignore free
    --abort                 free
    --quit                  free
    --continue              free
    `,
    { rest: "name" },
    { runsWorkspaceCode: HOOKS },
  ),
  rebase: sub(
    "rebase",
    `
    --onto=text             free
    --keep-base             free
    --continue              free
    --abort                 free
    --quit                  free
    --skip                  free
    --apply                 free
    -m --merge              free
    --empty=text            free
    --keep-empty --no-keep-empty free
    --reapply-cherry-picks --no-reapply-cherry-picks free
    --allow-empty-message   free
    -q --quiet              free
    -v --verbose            free
    --stat -n --no-stat     free
    --no-verify --verify    free
    --signoff               free
    --committer-date-is-author-date free
    --ignore-date --reset-author-date free
    -f --force-rebase --no-ff free
    --fork-point --no-fork-point free
    --autostash --no-autostash free
    --update-refs --no-update-refs free
    --root                  free
    --autosquash --no-autosquash free
    --rerere-autoupdate --no-rerere-autoupdate free
    -S --gpg-sign[=text]    free
    --no-gpg-sign           free
    -i --interactive        exec
    --edit-todo             exec
    -x --exec=command       exec
    -s --strategy=text      -
    -X --strategy-option=text -
    -r --rebase-merges[=text] free
    --no-rebase-merges      free
    `,
    { rest: "name" },
    { runsWorkspaceCode: HOOKS },
  ),
  reset: sub(
    "reset",
    `
    --soft                  free
    --mixed                 free
    -N                      free
    --hard                  free
    --merge                 free
    --keep                  free
    --recurse-submodules --no-recurse-submodules free
    -p --patch              exec
    -q --quiet              free
    --refresh --no-refresh  free
    --pathspec-from-file=path free
    --pathspec-file-nul     free
    `,
    refsAndPaths,
  ),
  rm: sub(
    "rm",
    `
    -f --force              free
    -n --dry-run            free
    -r                      free
    --cached                free
    --ignore-unmatch        free
    --sparse                free
    -q --quiet              free
    --pathspec-from-file=path free
    --pathspec-file-nul     free
    `,
    { rest: "path" },
  ),
  mv: sub("mv", `-f --force free\n-k free\n-n --dry-run free\n-v --verbose free\n--sparse free`, { rest: "path" }),
  clean: sub(
    "clean",
    `
    -d                      free
    -f --force              free
    -i --interactive        exec
    -n --dry-run            free
    -q --quiet              free
    -e --exclude=text       free
    -x                      free
    -X                      free
    `,
    { rest: "path" },
  ),
  tag: sub(
    "tag",
    `
    -l --list               free
    -n[=number]             free
    --sort=text             free
    --contains=text         free
    --no-contains=text      free
    --merged=text           free
    --no-merged=text        free
    --points-at=text        free
    --format=text           free
    --color[=text]          free
    --column[=text]         free
    --no-column             free
    -i --ignore-case        free
    --omit-empty            free
    -a --annotate           free
    -s --sign               free
    --no-sign               free
    -u --local-user=text    free
    -m --message=text       free
    -F --file=path          free
    -e --edit               exec
    --cleanup=text          free
    --create-reflog         free
    -d --delete             -
    -f --force              -
    -v --verify             free
    `,
    { rest: "name" },
  ),
  "cherry-pick": sub(
    "cherry-pick",
    `
    -e --edit               exec
    --cleanup=text          free
    -x                      free
    -r                      free
    -m --mainline=number    free
    -n --no-commit          free
    -s --signoff            free
    -S --gpg-sign[=text]    free
    --no-gpg-sign           free
    --ff                    free
    --allow-empty           free
    --allow-empty-message   free
    --empty=text            free
    --keep-redundant-commits free
    --continue --skip --quit --abort free
    --rerere-autoupdate --no-rerere-autoupdate free
    -s --strategy=text      -
    -X --strategy-option=text -
    `,
    { rest: "name" },
    { runsWorkspaceCode: HOOKS },
  ),
  revert: sub(
    "revert",
    `
    -e --edit               exec
    --no-edit               free
    --cleanup=text          free
    -m --mainline=number    free
    -n --no-commit          free
    -S --gpg-sign[=text]    free
    --no-gpg-sign           free
    -s --signoff            free
    --continue --skip --quit --abort free
    --rerere-autoupdate --no-rerere-autoupdate free
    --reference             free
    `,
    { rest: "name" },
    { runsWorkspaceCode: HOOKS },
  ),
  init: sub(
    "init",
    `
    -q --quiet              free
    # A template folder supplies hooks, which run later.
    --template=path         exec
    --bare                  -
    --separate-git-dir=path -
    --object-format=text    free
    -b --initial-branch=text free
    --shared[=text]         free
    `,
    { rest: "path" },
  ),
  clone: sub(
    "clone",
    `
    -l --local              free
    --no-hardlinks          free
    -s --shared             free
    --reference=path        free
    --dissociate            free
    -q --quiet              free
    -v --verbose            free
    --progress              free
    --server-option=text    free
    -n --no-checkout        free
    --reject-shallow --no-reject-shallow free
    --bare                  -
    --sparse                free
    --filter=text           free
    --also-filter-submodules free
    --mirror                -
    -o --origin=text        free
    -b --branch=text        free
    -u --upload-pack=command exec
    --template=path         exec
    -c --config=code        exec
    --depth=number          free
    --shallow-since=text    free
    --shallow-exclude=text  free
    --single-branch --no-single-branch free
    --no-tags --tags        free
    --recurse-submodules[=text] free
    --shallow-submodules --no-shallow-submodules free
    --remote-submodules --no-remote-submodules free
    --separate-git-dir=path -
    -j --jobs=number        free
    --bundle-uri=url        free
    `,
    { leading: ["url"], rest: "path" },
  ),
  apply: sub(
    "apply",
    `
    --stat                  free
    --numstat               free
    --summary               free
    --check                 free
    --index                 free
    --intent-to-add         free
    --cached                free
    -3 --3way               free
    --ours --theirs --union free
    --build-fake-ancestor=path free
    -R --reverse            free
    --reject                free
    -z                      free
    -p=number               free
    -C=number               free
    --unidiff-zero          free
    --apply                 free
    --no-add                free
    --allow-binary-replacement --binary free
    --exclude=text          free
    --include=text          free
    --ignore-space-change --ignore-whitespace free
    --whitespace=text       free
    --inaccurate-eof        free
    -v --verbose            free
    -q --quiet              free
    --recount               free
    # The patch decides which files change: outside the working tree with these.
    --directory=path        write
    --unsafe-paths          write
    --allow-empty           free
    `,
    { rest: "path" },
  ),
  "rev-parse": sub(
    "rev-parse",
    `
    --parseopt --sq-quote   free
    --keep-dashdash --stop-at-non-option --stuck-long free
    --revs-only --no-revs --flags --no-flags free
    --default=text          free
    --prefix=text           free
    --verify                free
    -q --quiet              free
    --sq                    free
    --short[=number]        free
    --not                   free
    --abbrev-ref[=text]     free
    --symbolic --symbolic-full-name free
    --all --branches[=text] --tags[=text] --remotes[=text] free
    --glob=text --exclude=text free
    --disambiguate=text     free
    --local-env-vars        free
    --path-format=text      free
    --git-dir --git-common-dir --resolve-git-dir=path free
    --git-path=text         free
    --show-toplevel --show-superproject-working-tree --shared-index-path free
    --absolute-git-dir --is-inside-git-dir --is-inside-work-tree --is-bare-repository --is-shallow-repository free
    --show-cdup --show-prefix --show-object-format[=text] --show-ref-format free
    --since --after=text    free
    --until --before=text   free
    `,
    { rest: "name" },
  ),
  "ls-files": sub(
    "ls-files",
    `
    -c --cached -d --deleted -m --modified -o --others -i --ignored -s --stage -u --unmerged -k --killed free
    --directory --no-empty-directory --eol --deduplicate -z -t -v -f --full-name --recurse-submodules --error-unmatch --debug --sparse free
    -x --exclude=text       free
    -X --exclude-from=path  free
    --exclude-per-directory=text free
    --exclude-standard      free
    --with-tree=text        free
    --abbrev[=number]       free
    --format=text           free
    `,
    { rest: "path" },
  ),
  "ls-tree": sub(
    "ls-tree",
    `-d -r -t -l --long -z --name-only --name-status --object-only --full-name --full-tree free\n--abbrev[=number] free\n--format=text free`,
    refsAndPaths,
  ),
  "cat-file": sub(
    "cat-file",
    `
    -t -s -e -p             free
    --mailmap --use-mailmap --no-mailmap --no-use-mailmap free
    --allow-unknown-type    free
    # Filters and textconv drivers are programs named in the config.
    --textconv              exec
    --filters               exec
    --path=text             free
    --batch[=text] --batch-check[=text] --batch-command[=text] --batch-all-objects --buffer --unordered --follow-symlinks -Z free
    `,
    { rest: "name" },
  ),
  "show-ref": sub(
    "show-ref",
    `--head --heads --branches --tags -d --dereference -s --hash[=number] --verify --abbrev[=number] -q --quiet --exclude-existing[=text] --exists free`,
    { rest: "name" },
  ),
  "for-each-ref": sub(
    "for-each-ref",
    `--count=number free\n--sort=text free\n--format=text free\n--color[=text] free\n--shell --perl --python --tcl free\n--points-at=text --merged=text --no-merged=text --contains=text --no-contains=text --exclude=text free\n--ignore-case --omit-empty free`,
    { rest: "name" },
  ),
  describe: sub(
    "describe",
    `--dirty[=text] --broken[=text] free\n--all --tags --contains --long --always --first-parent --exact-match --debug free\n--abbrev=number free\n--candidates=number free\n--match=text --exclude=text free`,
    { rest: "name" },
  ),
  "merge-base": sub("merge-base", `-a --all --octopus --independent --is-ancestor --fork-point free`, { rest: "name" }),
  "name-rev": sub("name-rev", `--tags --refs=text --exclude=text --all --annotate-stdin --name-only --no-undefined --always free`, {
    rest: "name",
  }),
  reflog: {
    source: `${DOCS}git-reflog`,
    options: options(REVS),
    operands: { rest: "name" },
    subcommandOptional: true,
    subcommands: { show: sub("reflog", REVS, { rest: "name" }) },
  },
  "count-objects": sub("count-objects", `-v --verbose -H --human-readable free`, { rest: "name" }),
  version: sub("version", `--build-options free`, { rest: "name" }),
  "format-patch": sub(
    "format-patch",
    `${DIFF}
    -o --output-directory=path free
    -n --numbered -N --no-numbered --start-number=number --numbered-files -k --keep-subject -s --signoff --no-signoff --stdout --cover-letter --no-cover-letter free
    --attach[=text] --no-attach --inline[=text] --thread[=text] --no-thread free
    --in-reply-to=text --subject-prefix=text --rfc --filename-max-length=number -v --reroll-count=text free
    --to=text --cc=text --from[=text] --no-to --no-cc --add-header=text --cover-from-description=text free
    --base=text --root --progress --zero-commit --interdiff=text --range-diff=text --creation-factor=number free
    --encode-email-headers --no-encode-email-headers --force-in-body-from --no-force-in-body-from free
    -q --quiet              free
    `,
    { rest: "name" },
  ),
};

/** A few sub-commands take two spellings. */
const ALIASES: Record<string, string> = {};

export const GIT: Record<string, ProgramSpec> = {
  git: {
    source: `${DOCS}git`,
    options: options(GLOBAL),
    operands: { rest: "name" },
    subcommands: SUBCOMMANDS,
    aliases: ALIASES,
  },
};
