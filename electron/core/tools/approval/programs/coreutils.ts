/**
 * GNU coreutils and friends that read, list and move files. Every long
 * option each `--help` lists is here (so abbreviations expand as the program
 * expands them; test/tools/program-tables.test.ts checks that against the
 * installed programs); "free" marks what only changes the output.
 * Source: GNU coreutils 9.1 manual, https://www.gnu.org/software/coreutils/manual/
 */
import { options, type ProgramSpec } from "../program-spec";

const SOURCE = "https://www.gnu.org/software/coreutils/manual/html_node/";
const HELP = `
  --help                  free
  --version               free
`;
const gnu = (name: string, table: string, rest: ProgramSpec["operands"], extra: Partial<ProgramSpec> = {}): ProgramSpec => ({
  source: `${SOURCE}${name}-invocation.html`,
  options: options(table + HELP),
  operands: rest,
  abbreviations: true,
  ...extra,
});
const paths = { rest: "path" } as const;
const text = { rest: "text" } as const;

export const COREUTILS: Record<string, ProgramSpec> = {
  ls: gnu(
    "ls",
    `
    -a --all                free
    -A --almost-all         free
    --author                free
    -b --escape             free
    --block-size=text       free
    -B --ignore-backups     free
    -c                      free
    -C                      free
    --color[=text]          free
    -d --directory          free
    -D --dired              free
    -f                      free
    -F --classify[=text]    free
    --file-type             free
    --format=text           free
    --full-time             free
    -g                      free
    --group-directories-first free
    -G --no-group           free
    -h --human-readable     free
    --si                    free
    # Following links on the command line or everywhere reads outside the named operands.
    -H --dereference-command-line read
    --dereference-command-line-symlink-to-dir read
    --hide=text             free
    --hyperlink[=text]      free
    --indicator-style=text  free
    -i --inode              free
    -I --ignore=text        free
    -k --kibibytes          free
    -l                      free
    -L --dereference        read
    -m                      free
    -n --numeric-uid-gid    free
    -N --literal            free
    -o                      free
    -p                      free
    -q --hide-control-chars free
    --show-control-chars    free
    -Q --quote-name         free
    --quoting-style=text    free
    -r --reverse            free
    -R --recursive          free
    -s --size               free
    -S                      free
    --sort=text             free
    --time=text             free
    --time-style=text       free
    -t                      free
    -T --tabsize=number     free
    -u                      free
    -U                      free
    -v                      free
    -w --width=number       free
    -x                      free
    -X                      free
    -Z --context            free
    --zero                  free
    -1                      free
    `,
    paths,
  ),
  cat: gnu(
    "cat",
    `
    -A --show-all           free
    -b --number-nonblank    free
    -e                      free
    -E --show-ends          free
    -n --number             free
    -s --squeeze-blank      free
    -t                      free
    -T --show-tabs          free
    -u                      free
    -v --show-nonprinting   free
    `,
    paths,
  ),
  head: gnu(
    "head",
    `
    -c --bytes=number       free
    -n --lines=number       free
    -q --quiet --silent     free
    -v --verbose            free
    -z --zero-terminated    free
    `,
    paths,
    { dashNumber: "-n" },
  ),
  tail: gnu(
    "tail",
    `
    -c --bytes=number       free
    -f --follow[=text]      free
    -F                      free
    -n --lines=number       free
    --max-unchanged-stats=number free
    --pid=number            free
    -q --quiet --silent     free
    --retry                 free
    -s --sleep-interval=number free
    -v --verbose            free
    -z --zero-terminated    free
    `,
    paths,
    { dashNumber: "-n" },
  ),
  wc: gnu(
    "wc",
    `
    -c --bytes              free
    -m --chars              free
    -l --lines              free
    # The file names it reads are inside FILE, where no rule can see them.
    --files0-from=code      read
    -L --max-line-length    free
    -w --words              free
    `,
    paths,
  ),
  sort: gnu(
    "sort",
    `
    -b --ignore-leading-blanks free
    -d --dictionary-order   free
    -f --ignore-case        free
    -g --general-numeric-sort free
    -i --ignore-nonprinting free
    -M --month-sort         free
    -h --human-numeric-sort free
    -n --numeric-sort       free
    -R --random-sort        free
    --random-source=path    free
    -r --reverse            free
    --sort=text             free
    -V --version-sort       free
    --batch-size=number     free
    -c --check[=text]       free
    -C                      free
    --compress-program=command exec
    --debug                 free
    --files0-from=code      read
    -k --key=text           free
    -m --merge              free
    -o --output=path        write
    -s --stable             free
    -S --buffer-size=text   free
    -t --field-separator=text free
    -T --temporary-directory=path write
    --parallel=number       free
    -u --unique             free
    -z --zero-terminated    free
    `,
    paths,
  ),
  uniq: gnu(
    "uniq",
    `
    -c --count              free
    -d --repeated           free
    -D                      free
    --all-repeated[=text]   free
    -f --skip-fields=number free
    --group[=text]          free
    -i --ignore-case        free
    -s --skip-chars=number  free
    -u --unique             free
    -z --zero-terminated    free
    -w --check-chars=number free
    `,
    paths,
  ),
  cut: gnu(
    "cut",
    `
    -b --bytes=text         free
    -c --characters=text    free
    -d --delimiter=text     free
    -f --fields=text        free
    -n                      free
    --complement            free
    -s --only-delimited     free
    --output-delimiter=text free
    -z --zero-terminated    free
    `,
    paths,
  ),
  tr: gnu(
    "tr",
    `
    -c -C --complement      free
    -d --delete             free
    -s --squeeze-repeats    free
    -t --truncate-set1      free
    `,
    text,
  ),
  cmp: {
    ...gnu(
      "cmp",
      `
      -b --print-bytes        free
      -i --ignore-initial=text free
      -l --verbose            free
      -n --bytes=number       free
      -s --quiet --silent     free
      -v                      free
      `,
      paths,
    ),
    source: "https://www.gnu.org/software/diffutils/manual/html_node/Invoking-cmp.html",
  },
  comm: gnu(
    "comm",
    `
    -1                      free
    -2                      free
    -3                      free
    --check-order           free
    --nocheck-order         free
    --output-delimiter=text free
    --total                 free
    -z --zero-terminated    free
    `,
    paths,
  ),
  nl: gnu(
    "nl",
    `
    -b --body-numbering=text free
    -d --section-delimiter=text free
    -f --footer-numbering=text free
    -h --header-numbering=text free
    -i --line-increment=number free
    -l --join-blank-lines=number free
    -n --number-format=text free
    -p --no-renumber        free
    -s --number-separator=text free
    -v --starting-line-number=number free
    -w --number-width=number free
    `,
    paths,
  ),
  basename: gnu(
    "basename",
    `
    -a --multiple           free
    -s --suffix=text        free
    -z --zero               free
    `,
    text,
  ),
  dirname: gnu("dirname", `-z --zero free`, text),
  realpath: gnu(
    "realpath",
    `
    -e --canonicalize-existing free
    -m --canonicalize-missing free
    -L --logical            free
    -P --physical           free
    -q --quiet              free
    --relative-to=path      free
    --relative-base=path    free
    -s --strip --no-symlinks free
    -z --zero               free
    `,
    text,
  ),
  readlink: gnu(
    "readlink",
    `
    -f --canonicalize       free
    -e --canonicalize-existing free
    -m --canonicalize-missing free
    -n --no-newline         free
    -q --quiet              free
    -s --silent             free
    -v --verbose            free
    -z --zero               free
    `,
    text,
  ),
  pwd: {
    source: "https://www.gnu.org/software/bash/manual/html_node/Bourne-Shell-Builtins.html",
    options: options(`-L free\n-P free`),
    operands: { rest: "text" },
  },
  echo: {
    // bash's builtin echo: no long options, and `--help` is printed, not read.
    source: "https://www.gnu.org/software/bash/manual/html_node/Bash-Builtins.html",
    options: options(`-n free\n-e free\n-E free`),
    operands: text,
  },
  mkdir: gnu(
    "mkdir",
    `
    -m --mode=text          free
    -p --parents            free
    -v --verbose            free
    -Z                      free
    --context[=text]        free
    `,
    paths,
  ),
  touch: gnu(
    "touch",
    `
    -a                      free
    -c --no-create          free
    -d --date=text          free
    -f                      free
    -h --no-dereference     free
    -m                      free
    -r --reference=path     free
    -t=text                 free
    --time=text             free
    `,
    paths,
  ),
  rm: gnu(
    "rm",
    `
    -f --force              free
    -i                      free
    -I                      free
    --interactive[=text]    free
    --one-file-system       free
    --no-preserve-root      write
    --preserve-root[=text]  free
    -r -R --recursive       free
    -d --dir                free
    -v --verbose            free
    `,
    paths,
  ),
  cp: gnu(
    "cp",
    `
    -a --archive            free
    --attributes-only       free
    --backup[=text]         free
    -b                      free
    --copy-contents         read
    -d                      free
    -f --force              free
    -i --interactive        free
    -H                      read
    -l --link               free
    -L --dereference        read
    -n --no-clobber         free
    -P --no-dereference     free
    -p                      free
    --preserve[=text]       free
    --no-preserve=text      free
    --parents               free
    -R -r --recursive       free
    --reflink[=text]        free
    --remove-destination    free
    --sparse=text           free
    --strip-trailing-slashes free
    -s --symbolic-link      free
    -S --suffix=text        free
    -t --target-directory=path free
    -T --no-target-directory free
    -u --update[=text]      free
    -v --verbose            free
    -x --one-file-system    free
    -Z                      free
    --context[=text]        free
    --debug                 free
    --keep-directory-symlink free
    `,
    paths,
  ),
  mv: gnu(
    "mv",
    `
    --backup[=text]         free
    -b                      free
    -f --force              free
    -i --interactive        free
    -n --no-clobber         free
    --strip-trailing-slashes free
    -S --suffix=text        free
    -t --target-directory=path free
    -T --no-target-directory free
    -u --update[=text]      free
    -v --verbose            free
    -Z --context            free
    --debug                 free
    --no-copy               free
    `,
    paths,
  ),
  ln: gnu(
    "ln",
    `
    --backup[=text]         free
    -b                      free
    -d -F --directory       write
    -f --force              free
    -i --interactive        free
    -L --logical            free
    -n --no-dereference     free
    -P --physical           free
    -r --relative           free
    -s --symbolic           free
    -S --suffix=text        free
    -t --target-directory=path free
    -T --no-target-directory free
    -v --verbose            free
    `,
    paths,
  ),
  chmod: gnu(
    "chmod",
    `
    -c --changes            free
    -f --silent --quiet     free
    -v --verbose            free
    --no-preserve-root      write
    --preserve-root         free
    --reference=path        free
    -R --recursive          free
    `,
    { leading: ["text"], leadingUnless: ["--reference"], rest: "path" },
  ),
  stat: gnu(
    "stat",
    `
    -L --dereference        free
    -f --file-system        free
    --cached=text           free
    -c --format=text        free
    --printf=text           free
    -t --terse              free
    `,
    paths,
  ),
  du: gnu(
    "du",
    `
    -0 --null               free
    -a --all                free
    --apparent-size         free
    -B --block-size=text    free
    -b --bytes              free
    -c --total              free
    -D --dereference-args   free
    -d --max-depth=number   free
    --files0-from=code      read
    -H                      free
    -h --human-readable     free
    --inodes                free
    -k                      free
    -L --dereference        read
    -l --count-links        free
    -m                      free
    -P --no-dereference     free
    -S --separate-dirs      free
    --si                    free
    -s --summarize          free
    -t --threshold=text     free
    --time[=text]           free
    --time-style=text       free
    -X --exclude-from=path  free
    --exclude=text          free
    -x --one-file-system    free
    `,
    paths,
  ),
  base64: gnu(
    "base64",
    `
    -d --decode             free
    -i --ignore-garbage     free
    -w --wrap=number        free
    `,
    paths,
  ),
  sha256sum: gnu(
    "sha2-utilities",
    `
    -b --binary             free
    # --check reads the file names listed inside the checksum file.
    -c --check              read
    --tag                   free
    -t --text               free
    -z --zero               free
    --ignore-missing        free
    --quiet                 free
    --status                free
    --strict                free
    -w --warn               free
    `,
    paths,
  ),
  date: gnu(
    "date",
    `
    -d --date=text          free
    --debug                 free
    -f --file=path          free
    -I --iso-8601[=text]    free
    --resolution            free
    -R --rfc-email          free
    --rfc-3339=text         free
    -r --reference=path     free
    -s --set=text           write
    -u --utc --universal    free
    `,
    text,
  ),
  tee: gnu(
    "tee",
    `
    -a --append             free
    -i --ignore-interrupts  free
    -p                      free
    --output-error[=text]   free
    `,
    paths,
  ),
  // `cd` changes the folder later commands of the line run in: rule-match.ts follows it.
  cd: {
    source: "https://www.gnu.org/software/bash/manual/html_node/Bourne-Shell-Builtins.html",
    options: options(`-L free\n-P free\n-e free\n-@ free`),
    operands: paths,
  },
  true: { source: "https://www.gnu.org/software/bash/manual/html_node/Bash-Builtins.html", options: [], operands: text },
  false: { source: "https://www.gnu.org/software/bash/manual/html_node/Bash-Builtins.html", options: [], operands: text },
  which: {
    source: "https://manpages.debian.org/bookworm/debianutils/which.1.en.html",
    options: options(`-a free\n-s free`),
    operands: { rest: "name" },
  },
};
COREUTILS.sha1sum = { ...COREUTILS.sha256sum };
COREUTILS.sha512sum = { ...COREUTILS.sha256sum };
COREUTILS.md5sum = { ...COREUTILS.sha256sum, source: `${SOURCE}md5sum-invocation.html` };
