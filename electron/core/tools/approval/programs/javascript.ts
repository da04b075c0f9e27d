/**
 * JavaScript tooling: npm, pnpm, yarn, node, tsc, eslint, prettier, vitest,
 * jest. These run code from the workspace (package.json scripts, configs
 * that are JavaScript, test files): a rule for them trusts that code, which
 * the card says. Options that load other code (`--node-options`,
 * `--script-shell`, `--require`, plugins, reporters) must be spelled by the
 * rule. npm expands abbreviated config names, and these tables are not every
 * option, so an abbreviation is unknown here and asked.
 * Sources: https://docs.npmjs.com/cli/v10/using-npm/config, https://nodejs.org/api/cli.html,
 * https://www.typescriptlang.org/docs/handbook/compiler-options.html,
 * https://eslint.org/docs/latest/use/command-line-interface, https://prettier.io/docs/cli,
 * https://vitest.dev/guide/cli, https://jestjs.io/docs/cli
 */
import { options, type ProgramSpec } from "../program-spec";

/** npm config flags, which npm takes before or after the sub-command. */
const NPM_FLAGS = `
  -s --silent             free
  -q --quiet              free
  -d                      free
  --loglevel=text         free
  --json                  free
  --parseable -p          free
  --color[=text]          free
  --no-color              free
  --progress --no-progress free
  -w --workspace=name     free
  -ws --workspaces        free
  --include-workspace-root free
  --if-present            free
  --ignore-scripts        free
  --foreground-scripts    free
  --no-fund --fund        free
  --no-audit --audit      free
  --offline --prefer-offline --prefer-online free
  --dry-run               free
  --omit=text             free
  --include=text          free
  -D --save-dev           free
  -P --save-prod          free
  -O --save-optional      free
  -E --save-exact         free
  -S --save               free
  --no-save               free
  --legacy-peer-deps      free
  --strict-peer-deps      free
  -f --force              free
  --yes -y                free
  --no-yes                free
  --depth=number          free
  -a --all                free
  --long -l               free
  --production            free
  --package-lock-only     free
  --no-package-lock       free
  # These change where npm works or what it runs.
  -C --prefix=path        -
  -g --global             write
  --registry=url          network
  --script-shell=command  exec
  --node-options=code     exec
  --userconfig=path       exec
  --globalconfig=path     exec
  --cache=path            write
  --before=text           free
`;
const npmSub = (name: string, operands: ProgramSpec["operands"], runs?: string): ProgramSpec => ({
  source: `https://docs.npmjs.com/cli/v10/commands/npm-${name}`,
  options: options(NPM_FLAGS),
  operands,
  ...(runs ? { runsWorkspaceCode: runs } : {}),
});
const SCRIPT = "runs a script from package.json, which is code from the workspace";
const INSTALL = "runs the install scripts of the packages it installs";
const scriptArgs = { rest: "text" } as const;

const NPM: ProgramSpec = {
  source: "https://docs.npmjs.com/cli/v10/commands/npm",
  options: options(NPM_FLAGS),
  operands: { rest: "name" },
  subcommands: {
    test: npmSub("test", scriptArgs, SCRIPT),
    start: npmSub("start", scriptArgs, SCRIPT),
    stop: npmSub("stop", scriptArgs, SCRIPT),
    restart: npmSub("restart", scriptArgs, SCRIPT),
    "run-script": npmSub("run-script", { leading: ["name"], rest: "text" }, SCRIPT),
    ci: npmSub("ci", { rest: "name" }, INSTALL),
    install: npmSub("install", { rest: "url" }, INSTALL),
    uninstall: npmSub("uninstall", { rest: "name" }),
    ls: npmSub("ls", { rest: "name" }),
    outdated: npmSub("outdated", { rest: "name" }),
    view: npmSub("view", { rest: "name" }),
    explain: npmSub("explain", { rest: "name" }),
    audit: npmSub("audit", { rest: "name" }),
    pack: npmSub("pack", { rest: "path" }, SCRIPT),
    prefix: npmSub("prefix", { rest: "name" }),
    root: npmSub("root", { rest: "name" }),
    version: npmSub("version", { rest: "name" }, SCRIPT),
  },
  aliases: {
    t: "test",
    tst: "test",
    run: "run-script",
    rum: "run-script",
    urn: "run-script",
    i: "install",
    add: "install",
    in: "install",
    ins: "install",
    inst: "install",
    insta: "install",
    instal: "install",
    isnt: "install",
    isnta: "install",
    isntal: "install",
    isntall: "install",
    "clean-install": "ci",
    ic: "ci",
    "install-clean": "ci",
    isntall_clean: "ci",
    un: "uninstall",
    unlink: "uninstall",
    remove: "uninstall",
    rm: "uninstall",
    r: "uninstall",
    list: "ls",
    la: "ls",
    ll: "ls",
    info: "view",
    show: "view",
    v: "view",
    why: "explain",
  },
};

/** pnpm and yarn: the same sub-commands people run, with their own flags. */
const PNPM_FLAGS = `
  -s --silent             free
  --reporter=text         free
  --color --no-color      free
  -r --recursive          free
  -F --filter=text        free
  -w --workspace-root     free
  --if-present            free
  --frozen-lockfile --no-frozen-lockfile free
  --prefer-offline --offline free
  --ignore-scripts        free
  -D --save-dev           free
  -P --save-prod          free
  -E --save-exact         free
  --depth=number          free
  --json                  free
  --parallel              free
  --stream                free
  -C --dir=path           -
  -g --global             write
  --registry=url          network
  --shell-emulator        free
`;
const pkgSub = (source: string, flags: string, operands: ProgramSpec["operands"], runs?: string): ProgramSpec => ({
  source,
  options: options(flags),
  operands,
  ...(runs ? { runsWorkspaceCode: runs } : {}),
});
const PNPM: ProgramSpec = {
  source: "https://pnpm.io/pnpm-cli",
  options: options(PNPM_FLAGS),
  operands: { rest: "name" },
  subcommands: {
    test: pkgSub("https://pnpm.io/cli/test", PNPM_FLAGS, scriptArgs, SCRIPT),
    run: pkgSub("https://pnpm.io/cli/run", PNPM_FLAGS, { leading: ["name"], rest: "text" }, SCRIPT),
    install: pkgSub("https://pnpm.io/cli/install", PNPM_FLAGS, { rest: "name" }, INSTALL),
    add: pkgSub("https://pnpm.io/cli/add", PNPM_FLAGS, { rest: "url" }, INSTALL),
    remove: pkgSub("https://pnpm.io/cli/remove", PNPM_FLAGS, { rest: "name" }),
    list: pkgSub("https://pnpm.io/cli/list", PNPM_FLAGS, { rest: "name" }),
    why: pkgSub("https://pnpm.io/cli/why", PNPM_FLAGS, { rest: "name" }),
    outdated: pkgSub("https://pnpm.io/cli/outdated", PNPM_FLAGS, { rest: "name" }),
  },
  aliases: { t: "test", "run-script": "run", i: "install", rm: "remove", ls: "list" },
};
const YARN_FLAGS = `
  -s --silent             free
  --json                  free
  --frozen-lockfile --immutable free
  --prefer-offline --offline free
  --ignore-scripts        free
  -D --dev                free
  -E --exact              free
  --cwd=path              -
  --registry=url          network
`;
const YARN: ProgramSpec = {
  source: "https://classic.yarnpkg.com/en/docs/cli/",
  options: options(YARN_FLAGS),
  operands: { rest: "name" },
  subcommands: {
    test: pkgSub("https://classic.yarnpkg.com/en/docs/cli/test", YARN_FLAGS, scriptArgs, SCRIPT),
    run: pkgSub("https://classic.yarnpkg.com/en/docs/cli/run", YARN_FLAGS, { leading: ["name"], rest: "text" }, SCRIPT),
    install: pkgSub("https://classic.yarnpkg.com/en/docs/cli/install", YARN_FLAGS, { rest: "name" }, INSTALL),
    add: pkgSub("https://classic.yarnpkg.com/en/docs/cli/add", YARN_FLAGS, { rest: "url" }, INSTALL),
    remove: pkgSub("https://classic.yarnpkg.com/en/docs/cli/remove", YARN_FLAGS, { rest: "name" }),
    list: pkgSub("https://classic.yarnpkg.com/en/docs/cli/list", YARN_FLAGS, { rest: "name" }),
    why: pkgSub("https://classic.yarnpkg.com/en/docs/cli/why", YARN_FLAGS, { rest: "name" }),
  },
};

export const JAVASCRIPT: Record<string, ProgramSpec> = {
  npm: NPM,
  pnpm: PNPM,
  yarn: YARN,
  node: {
    source: "https://nodejs.org/api/cli.html",
    // `node x.js --flag`: the flag is the script's.
    optionsEndAtFirstOperand: true,
    operands: { leading: ["path"], rest: "text" },
    runsWorkspaceCode: "runs a JavaScript file from the workspace",
    options: options(`
      -v --version            free
      -h --help               free
      -c --check              free
      --test                  free
      --test-only             free
      --test-name-pattern=text free
      --test-skip-pattern=text free
      --test-concurrency=number free
      --test-timeout=number   free
      --test-force-exit       free
      --watch                 free
      --watch-path=path       free
      --no-warnings           free
      --trace-warnings        free
      --trace-uncaught        free
      --trace-deprecation     free
      --no-deprecation        free
      --throw-deprecation     free
      --pending-deprecation   free
      --enable-source-maps    free
      --experimental-strip-types free
      --experimental-transform-types free
      --experimental-vm-modules free
      --experimental-detect-module free
      --no-experimental-detect-module free
      --experimental-require-module free
      --input-type=text       free
      --max-old-space-size=number free
      --stack-size=number     free
      --expose-gc             free
      --unhandled-rejections=text free
      --conditions -C=text    free
      --preserve-symlinks     free
      --title=text            free
      --abort-on-uncaught-exception free
      --cpu-prof              free
      --heap-prof             free
      -e --eval=code          exec
      -p --print=code         exec
      -r --require=path       exec
      --import=path           exec
      --loader --experimental-loader=path exec
      --env-file=path         exec
      --env-file-if-exists=path exec
      --run=name              exec
      --inspect --inspect-brk --inspect-wait[=text] network
      --test-reporter=text    exec
      --test-reporter-destination=path write
    `),
  },
  tsc: {
    source: "https://www.typescriptlang.org/docs/handbook/compiler-options.html",
    operands: { rest: "path" },
    options: options(`
      --noEmit                free
      -p --project=path       free
      -b --build              free
      -w --watch              free
      --pretty                free
      --listFiles             free
      --listEmittedFiles      free
      --explainFiles          free
      --outDir=path           free
      --outFile=path          free
      -d --declaration        free
      --emitDeclarationOnly   free
      --declarationDir=path   free
      --sourceMap             free
      --strict                free
      -t --target=text        free
      -m --module=text        free
      --moduleResolution=text free
      --lib=text              free
      --jsx=text              free
      --incremental           free
      --tsBuildInfoFile=path  free
      --skipLibCheck          free
      --noUnusedLocals --noUnusedParameters --noImplicitAny --noImplicitReturns free
      --allowJs --checkJs --esModuleInterop --resolveJsonModule --isolatedModules free
      --rootDir=path          free
      --baseUrl=path          free
      --types=text            free
      -v --version            free
      -h --help               free
      --all                   free
      --showConfig            free
      --traceResolution       free
      --extendedDiagnostics   free
      --diagnostics           free
      --generateTrace=path    free
      --verbose               free
      --force                 free
      --clean                 free
      --dry                   free
      --locale=text           free
    `),
  },
  eslint: {
    source: "https://eslint.org/docs/latest/use/command-line-interface",
    operands: { rest: "path" },
    runsWorkspaceCode: "loads the workspace's ESLint config, which is JavaScript",
    options: options(`
      --fix                   free
      --fix-dry-run           free
      --fix-type=text         free
      -c --config=path        free
      --no-config-lookup      free
      --inspect-config        free
      --ext=text              free
      --global=text           free
      --parser=text           exec
      --parser-options=text   free
      --plugin=text           exec
      --rulesdir=path         exec
      --rule=text             free
      --ignore-pattern=text   free
      --no-ignore             free
      --ignore-path=path      free
      --stdin                 free
      --stdin-filename=path   free
      --quiet                 free
      --max-warnings=number   free
      -o --output-file=path   free
      # A formatter named here may be a module path.
      -f --format=text        exec
      --color --no-color      free
      --no-inline-config      free
      --report-unused-disable-directives free
      --report-unused-disable-directives-severity=text free
      --no-warn-ignored       free
      --pass-on-no-patterns   free
      --no-error-on-unmatched-pattern free
      --exit-on-fatal-error   free
      --cache                 free
      --cache-file --cache-location=path free
      --cache-strategy=text   free
      --debug                 free
      --print-config=path     free
      --env-info              free
      --flag=text             free
      --stats                 free
      -h --help               free
      -v --version            free
    `),
  },
  prettier: {
    source: "https://prettier.io/docs/cli",
    operands: { rest: "path" },
    runsWorkspaceCode: "loads the workspace's Prettier config, which may be JavaScript",
    options: options(`
      -c --check              free
      -l --list-different     free
      -w --write              free
      -u --ignore-unknown     free
      --config=path           free
      --no-config             free
      --find-config-path=path free
      --config-precedence=text free
      --ignore-path=path      free
      --no-editorconfig       free
      --with-node-modules     free
      --no-error-on-unmatched-pattern free
      --log-level=text        free
      --cache                 free
      --cache-location=path   free
      --cache-strategy=text   free
      --stdin-filepath=path   free
      --parser=text           free
      --plugin=text           exec
      --print-width=number    free
      --tab-width=number      free
      --use-tabs              free
      --no-semi --semi        free
      --single-quote          free
      --jsx-single-quote      free
      --quote-props=text      free
      --trailing-comma=text   free
      --no-bracket-spacing    free
      --bracket-same-line     free
      --arrow-parens=text     free
      --prose-wrap=text       free
      --end-of-line=text      free
      --embedded-language-formatting=text free
      --color --no-color      free
      -h --help               free
      -v --version            free
    `),
  },
  vitest: {
    source: "https://vitest.dev/guide/cli",
    operands: { rest: "text" },
    subcommandOptional: true,
    runsWorkspaceCode: "runs the workspace's tests and its Vitest config, which are code",
    options: options(VITEST_FLAGS()),
    subcommands: {
      run: { source: "https://vitest.dev/guide/cli", options: options(VITEST_FLAGS()), operands: { rest: "text" } },
      related: { source: "https://vitest.dev/guide/cli", options: options(VITEST_FLAGS()), operands: { rest: "path" } },
      list: { source: "https://vitest.dev/guide/cli", options: options(VITEST_FLAGS()), operands: { rest: "text" } },
    },
  },
  jest: {
    source: "https://jestjs.io/docs/cli",
    operands: { rest: "text" },
    runsWorkspaceCode: "runs the workspace's tests and its Jest config, which are code",
    options: options(`
      -t --testNamePattern=text free
      --testPathPattern=text  free
      -u --updateSnapshot     free
      --ci                    free
      --coverage              free
      --collectCoverage       free
      --watch --watchAll      free
      -i --runInBand          free
      -c --config=path        free
      --selectProjects=text   free
      --silent                free
      --verbose               free
      -b --bail[=number]      free
      --passWithNoTests       free
      -w --maxWorkers=text    free
      --detectOpenHandles     free
      --forceExit             free
      --json                  free
      --outputFile=path       free
      --listTests             free
      -o --onlyChanged        free
      --changedSince=text     free
      --clearCache            free
      --no-cache --cache      free
      --colors                free
      --reporters=text        exec
      --testEnvironment --env=text exec
      --setupFiles --setupFilesAfterEnv=path exec
      --testTimeout=number    free
      -h --help               free
      -v --version            free
    `),
  },
};

function VITEST_FLAGS(): string {
  return `
    --run                   free
    -t --testNamePattern=text free
    -u --update             free
    -w --watch              free
    --coverage              free
    --coverage.enabled      free
    -c --config=path        free
    -r --root=path          free
    --dir=path              free
    --project=text          free
    --bail=number           free
    --silent[=text]         free
    --passWithNoTests       free
    --changed[=text]        free
    --shard=text            free
    --pool=text             free
    --globals               free
    --retry=number          free
    --exclude=text          free
    --allowOnly             free
    --no-color --color      free
    --hideSkippedTests      free
    --clearScreen           free
    --mode=text             free
    --typecheck             free
    --logHeapUsage          free
    --reporter=text         exec
    --environment=text      exec
    --ui                    network
    --api[=text]            network
    --inspect --inspect-brk[=text] network
    -h --help               free
    -v --version            free
  `;
}
