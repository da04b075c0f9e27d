/**
 * Build and archive tools: make, cargo, go, python and pytest, tar, sed.
 * make, cargo, go test/run, python and pytest run code from the workspace
 * (recipes, build scripts, tests): a rule for them trusts that code, and the
 * card says so. tar and sed tables list every long option of GNU tar 1.34 and
 * GNU sed 4.9 (abbreviations are expanded as they expand them).
 * Sources: https://www.gnu.org/software/make/manual/html_node/Options-Summary.html,
 * https://doc.rust-lang.org/cargo/commands/, https://pkg.go.dev/cmd/go,
 * https://docs.python.org/3/using/cmdline.html, https://docs.pytest.org/en/stable/reference/reference.html#command-line-flags,
 * https://www.gnu.org/software/tar/manual/html_section/Option-Summary.html,
 * https://www.gnu.org/software/sed/manual/sed.html#Command_002dLine-Options
 */
import { endingOptions, options, type ProgramSpec } from "../program-spec";
import { isPlainSedScript } from "../sed-script";

const MAKE: ProgramSpec = {
  source: "https://www.gnu.org/software/make/manual/html_node/Options-Summary.html",
  abbreviations: true,
  runsWorkspaceCode: "runs the Makefile's recipes, which are commands from the workspace",
  neverSuggestWildcard: true,
  // Targets; VAR=value overrides a variable (a recipe's command) and must be spelled by the rule.
  operands: { rest: "name" },
  options: options(`
    -b -m                   free
    -B --always-make        free
    -C --directory=path     free
    -d                      free
    --debug[=text]          free
    -e --environment-overrides free
    -E --eval=code          exec
    -f --file --makefile=path free
    -h --help               free
    -i --ignore-errors      free
    -I --include-dir=path   free
    -j --jobs[=number]      free
    -k --keep-going         free
    -l --load-average --max-load[=number] free
    -L --check-symlink-times free
    -n --just-print --dry-run --recon free
    -o --old-file --assume-old=path free
    -O --output-sync[=text] free
    -p --print-data-base    free
    -q --question           free
    -r --no-builtin-rules   free
    -R --no-builtin-variables free
    -s --silent --quiet     free
    --no-silent             free
    -S --no-keep-going --stop free
    -t --touch              free
    --trace                 free
    -v --version            free
    -w --print-directory    free
    --no-print-directory    free
    -W --what-if --new-file --assume-new=path free
    --warn-undefined-variables free
  `),
};

const CARGO_FLAGS = `
  -p --package=name       free
  --workspace --all       free
  --exclude=name          free
  --lib --bins --examples --tests --benches --all-targets free
  --bin=name              free
  --example=name          free
  --test=name             free
  --bench=name            free
  -F --features=text      free
  --all-features          free
  --no-default-features   free
  -r --release            free
  --profile=name          free
  -j --jobs=number        free
  --keep-going            free
  --target=text           free
  --target-dir=path       free
  --timings[=text]        free
  --manifest-path=path    free
  --ignore-rust-version   free
  --locked --offline --frozen free
  --message-format=text   free
  --future-incompat-report free
  --no-run                free
  --no-fail-fast          free
  --doc                   free
  --all-features          free
  --check                 free
  --open                  exec
  --no-deps               free
  --document-private-items free
  -v --verbose            free
  -q --quiet              free
  --color=text            free
  -h --help               free
  # --config can set build.rustc-wrapper (a program); -Z changes cargo itself.
  --config=code           exec
  -Z=code                 exec
`;
const cargoSub = (name: string, runs: string | undefined, operands: ProgramSpec["operands"] = { rest: "name", afterDashDash: "text" }) => ({
  source: `https://doc.rust-lang.org/cargo/commands/cargo-${name}.html`,
  options: options(CARGO_FLAGS),
  operands,
  ...(runs ? { runsWorkspaceCode: runs } : {}),
});
const BUILD_RS = "runs the crates' build scripts and procedural macros, which are code";
const CARGO: ProgramSpec = {
  source: "https://doc.rust-lang.org/cargo/commands/cargo.html",
  options: options(
    `-V --version free\n-v --verbose free\n-q --quiet free\n--color=text free\n--locked --offline --frozen free\n--list free\n-h --help free\n--config=code exec\n-Z=code exec\n-C=path -`,
  ),
  operands: { rest: "name" },
  subcommands: {
    build: cargoSub("build", BUILD_RS),
    check: cargoSub("check", BUILD_RS),
    test: cargoSub("test", "builds and runs the workspace's tests, which are code"),
    bench: cargoSub("bench", "builds and runs the workspace's benchmarks, which are code"),
    run: cargoSub("run", "builds and runs the workspace's program"),
    clippy: cargoSub("clippy", BUILD_RS),
    doc: cargoSub("doc", BUILD_RS),
    fmt: cargoSub("fmt", undefined),
    clean: cargoSub("clean", undefined),
    tree: cargoSub("tree", undefined),
    metadata: cargoSub("metadata", undefined),
    fetch: cargoSub("fetch", undefined),
    update: cargoSub("update", undefined),
  },
  aliases: { b: "build", c: "check", t: "test", r: "run", d: "doc" },
};

const GO_BUILD = `
  -C=path                 -
  -a                      free
  -n                      free
  -p=number               free
  -race -msan -asan -cover free
  -covermode=text         free
  -coverpkg=text          free
  -v                      free
  -work                   free
  -x                      free
  -asmflags=text          -
  -buildmode=text         free
  -buildvcs=text          free
  -compiler=text          free
  -gccgoflags=text        -
  -gcflags=text           -
  # -ldflags can name the external linker (-extld), a program.
  -ldflags=text           -
  -linkshared             free
  -mod=text               free
  -modcacherw             free
  -modfile=path           free
  -overlay=path           free
  -pgo=text               free
  -pkgdir=path            free
  -tags=text              free
  -trimpath               free
  -toolexec=command       exec
  -o=path                 free
  -json                   free
  -exec=command           exec
`;
const GO_TEST = `${GO_BUILD}
  -args                   free
  -c                      free
  -bench=text             free
  -benchmem               free
  -benchtime=text         free
  -count=number           free
  -coverprofile=path      free
  -cpu=text               free
  -failfast               free
  -fullpath               free
  -list=text              free
  -parallel=number        free
  -run=text               free
  -short                  free
  -shuffle=text           free
  -skip=text              free
  -timeout=text           free
  -vet=text               free
  -cpuprofile=path        free
  -memprofile=path        free
  -outputdir=path         free
`;
const goSub = (name: string, table: string, runs?: string, endOn?: string): ProgramSpec => ({
  source: `https://pkg.go.dev/cmd/go#hdr-${name}`,
  singleDash: true,
  options: endOn ? endingOptions(options(table), endOn) : options(table),
  operands: { rest: "name" },
  ...(runs ? { runsWorkspaceCode: runs } : {}),
});
const GO: ProgramSpec = {
  source: "https://pkg.go.dev/cmd/go",
  options: [],
  operands: { rest: "name" },
  subcommands: {
    build: goSub("Compile_packages_and_dependencies", GO_BUILD, "may run cgo and go:embed tooling of the workspace"),
    test: goSub("Test_packages", GO_TEST, "builds and runs the workspace's tests, which are code", "-args"),
    vet: goSub("Report_likely_mistakes_in_packages", GO_BUILD),
    run: { ...goSub("Compile_and_run_Go_program", GO_BUILD, "builds and runs the workspace's program"), optionsEndAtFirstOperand: true },
    fmt: goSub("Gofmt__reformat__package_sources", `-n free\n-x free\n-mod=text free`),
    list: goSub(
      "List_packages_or_modules",
      `${GO_BUILD}\n-m free\n-u free\n-versions free\n-deps free\n-e free\n-f=text free\n-find free\n-test free\n-export free\n-compiled free\n-retracted free\n-reuse=path free`,
    ),
    version: goSub("Print_Go_version", `-m free\n-v free\n-json free`),
    env: goSub("Print_Go_environment_information", `-json free\n-changed free\n-u -\n-w -`),
    doc: goSub("Show_documentation_for_package_or_symbol", `-all -c -cmd -short -src -u free`),
    mod: {
      source: "https://pkg.go.dev/cmd/go#hdr-Module_maintenance",
      options: [],
      operands: { rest: "name" },
      subcommands: {
        tidy: goSub("Add_missing_and_remove_unused_modules", `-e free\n-v free\n-x free\n-diff free\n-go=text free\n-compat=text free`),
        download: goSub("Download_modules_to_local_cache", `-json free\n-x free\n-reuse=path free`),
        verify: goSub("Verify_dependencies_have_expected_content", ``),
        graph: goSub("Print_module_requirement_graph", `-go=text free\n-x free`),
        why: goSub("Explain_why_packages_or_modules_are_needed", `-m free\n-vendor free`),
      },
    },
  },
};

const PYTHON: ProgramSpec = {
  source: "https://docs.python.org/3/using/cmdline.html",
  optionsEndAtFirstOperand: true,
  runsWorkspaceCode: "runs a Python file from the workspace",
  operands: { leading: ["path"], rest: "text" },
  options: endingOptions(
    options(`
      -b -bb                  free
      -B                      free
      -d                      free
      -E                      free
      -h -? --help            free
      --help-env --help-xoptions --help-all free
      -i                      free
      -I                      free
      -O -OO                  free
      -P                      free
      -q                      free
      -s                      free
      -S                      free
      -u                      free
      -v                      free
      -V --version            free
      -W=text                 free
      -x                      free
      -X=text                 free
      --check-hash-based-pycs=text free
      -c=code                 exec
      -m=code                 exec
    `),
    "-c",
    "-m",
  ),
};

const PYTEST: ProgramSpec = {
  source: "https://docs.pytest.org/en/stable/reference/reference.html#command-line-flags",
  runsWorkspaceCode: "runs the workspace's tests and conftest.py files, which are code",
  operands: { rest: "path" },
  options: options(`
    -q --quiet              free
    -v --verbose            free
    -x --exitfirst          free
    --maxfail=number        free
    -s                      free
    --capture=text          free
    -l --showlocals         free
    --tb=text               free
    -r=text                 free
    --lf --last-failed      free
    --ff --failed-first     free
    --nf --new-first        free
    --sw --stepwise         free
    --sw-skip --stepwise-skip free
    --cache-clear           free
    -k=text                 free
    -m=text                 free
    --co --collect-only     free
    --durations=number      free
    --durations-min=text    free
    --no-header             free
    --no-summary            free
    --disable-warnings --disable-pytest-warnings free
    -W --pythonwarnings=text free
    --color=text            free
    --code-highlight=text   free
    --strict-markers        free
    --strict-config         free
    --runxfail              free
    --ignore=path           free
    --ignore-glob=text      free
    --deselect=text         free
    --rootdir=path          free
    -c --config-file=path   free
    --confcutdir=path       free
    --basetemp=path         free
    --junitxml --junit-xml=path free
    --doctest-modules       free
    --import-mode=text      free
    -n --numprocesses=text  free
    --cov[=text]            free
    --cov-report=text       free
    --pdb                   free
    --setup-show --setup-only --setup-plan free
    --fixtures --fixtures-per-test --markers free
    -o --override-ini=text  -
    -p=text                 exec
    --debug[=path]          free
    -h --help               free
    -V --version            free
  `),
};

const TAR: ProgramSpec = {
  source: "https://www.gnu.org/software/tar/manual/html_section/Option-Summary.html",
  abbreviations: true,
  oldStyleBundle: true,
  neverSuggestWildcard: true,
  operands: { rest: "path" },
  options: options(`
    -A --catenate --concatenate free
    -c --create             free
    --delete                free
    -d --diff --compare     free
    -r --append             free
    --test-label            free
    -t --list               free
    -u --update             free
    -x --extract --get      free
    --check-device          free
    -g --listed-incremental=path free
    -G --incremental        free
    --hole-detection=text   free
    --ignore-failed-read    free
    --level=number          free
    --no-check-device       free
    --no-seek               free
    -n --seek               free
    --occurrence[=number]   free
    --sparse-version=text   free
    -S --sparse             free
    --add-file=path         free
    -C --directory=path     free
    --exclude=text          free
    --exclude-backups       free
    --exclude-caches        free
    --exclude-caches-all    free
    --exclude-caches-under  free
    --exclude-ignore=text   free
    --exclude-ignore-recursive=text free
    --exclude-tag=text      free
    --exclude-tag-all=text  free
    --exclude-tag-under=text free
    --exclude-vcs           free
    --exclude-vcs-ignores   free
    --no-null               free
    --no-recursion          free
    --no-unquote            free
    --no-verbatim-files-from free
    --null                  free
    --recursion             free
    # The names it archives or extracts are inside FILE, where no rule can see them.
    -T --files-from=code    read
    --unquote               free
    --verbatim-files-from   free
    -X --exclude-from=path  free
    --anchored              free
    --ignore-case           free
    --no-anchored           free
    --no-ignore-case        free
    --no-wildcards          free
    --no-wildcards-match-slash free
    --wildcards             free
    --wildcards-match-slash free
    --keep-directory-symlink free
    --keep-newer-files      free
    -k --keep-old-files     free
    --no-overwrite-dir      free
    --one-top-level[=path]  free
    --overwrite             free
    --overwrite-dir         free
    --recursive-unlink      free
    --remove-files          free
    --skip-old-files        free
    -U --unlink-first       free
    -W --verify             free
    --ignore-command-error  free
    --no-ignore-command-error free
    -O --to-stdout          free
    --to-command=command    exec
    --atime-preserve[=text] free
    --clamp-mtime           free
    --delay-directory-restore free
    --group=text            free
    --group-map=path        free
    --mode=text             free
    --mtime=text            free
    -m --touch              free
    --no-delay-directory-restore free
    --no-same-owner         free
    --no-same-permissions   free
    --numeric-owner         free
    --owner=text            free
    --owner-map=path        free
    -p --preserve-permissions --same-permissions free
    --same-owner            free
    --sort=text             free
    -s --preserve-order --same-order free
    --acls                  free
    --no-acls               free
    --no-selinux            free
    --no-xattrs             free
    --selinux               free
    --xattrs                free
    --xattrs-exclude=text   free
    --xattrs-include=text   free
    --force-local           free
    # An archive name with a colon is on another host, reached through rsh.
    -f --file=path          free
    -F --info-script --new-volume-script=command exec
    -L --tape-length=number free
    -M --multi-volume       exec
    --rmt-command=command   exec
    --rsh-command=command   exec
    --volno-file=path       free
    -b --blocking-factor=number free
    -B --read-full-records  free
    -i --ignore-zeros       free
    --record-size=number    free
    -H --format=text        free
    --old-archive --portability free
    --pax-option=text       free
    --posix                 free
    -V --label=text         free
    -a --auto-compress      free
    -I --use-compress-program=command exec
    -j --bzip2              free
    -J --xz                 free
    --lzip                  free
    --lzma                  free
    --lzop                  free
    --no-auto-compress      free
    --zstd                  free
    -z --gzip --gunzip --ungzip free
    -Z --compress --uncompress free
    --backup[=text]         free
    --hard-dereference      read
    -h --dereference        read
    -K --starting-file=text free
    --newer-mtime=text      free
    -N --newer --after-date=text free
    --one-file-system       free
    # Keeps leading '/' and '..': extraction writes anywhere.
    -P --absolute-names     write
    --suffix=text           free
    --strip-components=number free
    --transform --xform=text free
    --checkpoint[=number]   free
    --checkpoint-action=command exec
    --full-time             free
    --index-file=path       free
    -l --check-links        free
    --no-quote-chars=text   free
    --quote-chars=text      free
    --quoting-style=text    free
    -R --block-number       free
    --show-defaults         free
    --show-omitted-dirs     free
    --show-snapshot-field-ranges free
    --show-transformed-names --show-stored-names free
    --totals[=text]         free
    --utc                   free
    -v --verbose            free
    --warning=text          free
    -w --interactive --confirmation free
    -o                      free
    -? --help               free
    --restrict              free
    --usage                 free
    --version               free
  `),
};

const SED: ProgramSpec = {
  source: "https://www.gnu.org/software/sed/manual/sed.html#Command_002dLine-Options",
  abbreviations: true,
  neverSuggestWildcard: true,
  operands: { leading: ["code"], leadingUnless: ["--expression", "--file"], rest: "path" },
  codeCheck: isPlainSedScript,
  options: options(`
    -n --quiet --silent     free
    --debug                 free
    -e --expression=code    -
    # A script file can hold commands that run programs or write files; no rule can see inside it.
    -f --file=code          exec
    --follow-symlinks       write
    -i --in-place[=text]    write
    -l --line-length=number free
    --posix                 free
    -E -r --regexp-extended free
    -s --separate           free
    --sandbox               free
    -u --unbuffered         free
    -z --null-data          free
    --help                  free
    --version               free
  `),
};

export const BUILD: Record<string, ProgramSpec> = {
  make: MAKE,
  cargo: CARGO,
  go: GO,
  python: PYTHON,
  python3: PYTHON,
  pytest: PYTEST,
  tar: TAR,
  sed: SED,
};
