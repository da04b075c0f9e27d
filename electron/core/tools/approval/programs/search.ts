/**
 * Programs that search and compare: grep, ripgrep, find, diff, jq, file, od.
 * Each table follows the program's manual (source); "free" marks what only
 * changes the output or narrows what is searched.
 */
import { options, type ProgramSpec } from "../program-spec";

const GNU_HELP = `
  --help                  free
  -V --version            free
`;

export const SEARCH: Record<string, ProgramSpec> = {
  grep: {
    source: "https://www.gnu.org/software/grep/manual/grep.html#Invoking",
    abbreviations: true,
    dashNumber: "--context",
    operands: { leading: ["text"], leadingUnless: ["--regexp", "--file"], rest: "path" },
    options: options(`
      -E --extended-regexp    free
      -F --fixed-strings      free
      -G --basic-regexp       free
      -P --perl-regexp        free
      -e --regexp=text        free
      -f --file=path          free
      -i -y --ignore-case     free
      --no-ignore-case        free
      -w --word-regexp        free
      -x --line-regexp        free
      -z --null-data          free
      -s --no-messages        free
      -v --invert-match       free
      -m --max-count=number   free
      -b --byte-offset        free
      -n --line-number        free
      --line-buffered         free
      -H --with-filename      free
      -h --no-filename        free
      --label=text            free
      -o --only-matching      free
      -q --quiet --silent     free
      --binary-files=text     free
      -a --text               free
      -I                      free
      -d --directories=text   free
      -D --devices=text       free
      # -r reads the folders it is given and does not follow links inside them; -R follows every link.
      -r --recursive          free
      -R --dereference-recursive read
      --include=text          free
      --exclude=text          free
      --exclude-from=path     free
      --exclude-dir=text      free
      -L --files-without-match free
      -l --files-with-matches free
      -c --count              free
      -T --initial-tab        free
      -Z --null               free
      -B --before-context=number free
      -A --after-context=number free
      -C --context=number     free
      --group-separator=text  free
      --no-group-separator    free
      --color --colour[=text] free
      -U --binary             free
      ${GNU_HELP}
    `),
  },
  rg: {
    // ripgrep's parser takes no abbreviations.
    source: "https://github.com/BurntSushi/ripgrep/blob/master/doc/rg.1.txt.tpl",
    operands: { leading: ["text"], leadingUnless: ["--regexp", "--file", "--files", "--type-list"], rest: "path" },
    options: options(`
      -A --after-context=number free
      --auto-hybrid-regex     free
      -B --before-context=number free
      --binary                free
      --block-buffered        free
      -b --byte-offset        free
      -s --case-sensitive     free
      --color=text            free
      --colors=text           free
      --column                free
      -C --context=number     free
      --context-separator=text free
      --no-context-separator  free
      -c --count              free
      --count-matches         free
      --crlf                  free
      --debug                 free
      --trace                 free
      --dfa-size-limit=text   free
      -E --encoding=text      free
      --engine=text           free
      --field-context-separator=text free
      --field-match-separator=text free
      -f --file=path          free
      --files                 free
      -l --files-with-matches free
      --files-without-match   free
      -F --fixed-strings      free
      -L --follow             read
      -g --glob=text          free
      --glob-case-insensitive free
      -h --help               free
      --heading               free
      --no-heading            free
      -. --hidden             free
      --iglob=text            free
      -i --ignore-case        free
      --ignore-file=path      free
      --ignore-file-case-insensitive free
      --include-zero          free
      -v --invert-match       free
      --json                  free
      --line-buffered         free
      -n --line-number        free
      -N --no-line-number     free
      -x --line-regexp        free
      -M --max-columns=number free
      --max-columns-preview   free
      -m --max-count=number   free
      -d --max-depth=number   free
      --max-filesize=text     free
      --mmap                  free
      --no-mmap               free
      -U --multiline          free
      --multiline-dotall      free
      --no-config             free
      -I --no-filename        free
      -H --with-filename      free
      --no-ignore             free
      --no-ignore-dot         free
      --no-ignore-exclude     free
      --no-ignore-files       free
      --no-ignore-global      free
      --no-ignore-messages    free
      --no-ignore-parent      free
      --no-ignore-vcs         free
      --no-messages           free
      --no-pcre2-unicode      free
      --no-require-git        free
      --no-unicode            free
      -0 --null               free
      --null-data             free
      --one-file-system       free
      -o --only-matching      free
      --passthru              free
      --path-separator=text   free
      -P --pcre2              free
      --pcre2-version         free
      # --pre runs a program on every file searched.
      --pre=command           exec
      --pre-glob=text         free
      --hostname-bin=command  exec
      --hyperlink-format=text free
      -p --pretty             free
      -q --quiet              free
      --regex-size-limit=text free
      -e --regexp=text        free
      -r --replace=text       free
      # -z runs the system's decompression programs (gzip, xz…) on compressed files.
      -z --search-zip         free
      -S --smart-case         free
      --sort=text             free
      --sortr=text            free
      --stats                 free
      -a --text               free
      -j --threads=number     free
      --trim                  free
      -t --type=text          free
      --type-add=text         free
      --type-clear=text       free
      --type-list             free
      -T --type-not=text      free
      -u --unrestricted       free
      -V --version            free
      --vimgrep               free
      -w --word-regexp        free
    `),
  },
  find: {
    // find's "options" are its expression: tests and actions; -exec and -delete must be spelled by the rule.
    source: "https://www.gnu.org/software/findutils/manual/html_mono/find.html",
    singleDash: true,
    operands: { rest: "path" },
    options: options(`
      -H                      read
      -L -follow              read
      -P                      free
      -maxdepth=number        free
      -mindepth=number        free
      -depth -d               free
      -mount -xdev            free
      -daystart               free
      -ignore_readdir_race -noignore_readdir_race free
      -noleaf                 free
      -regextype=text         free
      -warn -nowarn           free
      -name=text              free
      -iname=text             free
      -path -wholename=text   free
      -ipath -iwholename=text free
      -regex=text             free
      -iregex=text            free
      -lname=text             free
      -ilname=text            free
      -type=text              free
      -xtype=text             free
      -size=text              free
      -empty                  free
      -newer=path             free
      -anewer=path            free
      -cnewer=path            free
      -samefile=path          free
      -newermt=text           free
      -newerct=text           free
      -newerat=text           free
      -mtime=text             free
      -mmin=text              free
      -atime=text             free
      -amin=text              free
      -ctime=text             free
      -cmin=text              free
      -used=text              free
      -perm=text              free
      -user=text              free
      -group=text             free
      -uid=text               free
      -gid=text               free
      -nouser                 free
      -nogroup                free
      -links=text             free
      -inum=text              free
      -fstype=text            free
      -executable             free
      -readable               free
      -writable               free
      -true                   free
      -false                  free
      -not                    free
      -a -and                 free
      -o -or                  free
      -print                  free
      -print0                 free
      -printf=text            free
      -ls                     free
      -prune                  free
      -quit                   free
      -fprint=path            write
      -fprint0=path           write
      -fprintf=path           write
      -fls=path               write
      -delete                 write
      -exec=command           exec
      -execdir=command        exec
      -ok=command             exec
      -okdir=command          exec
      -help --help            free
      -version --version      free
    `),
    neverSuggestWildcard: true,
  },
  diff: {
    source: "https://www.gnu.org/software/diffutils/manual/html_node/Invoking-diff.html",
    abbreviations: true,
    operands: { rest: "path" },
    options: options(`
      --normal                free
      -q --brief              free
      -s --report-identical-files free
      -c                      free
      -C=number               free
      --context[=number]      free
      -u                      free
      -U=number               free
      --unified[=number]      free
      -e --ed                 free
      -n --rcs                free
      -y --side-by-side       free
      -W --width=number       free
      --left-column           free
      --suppress-common-lines free
      -p --show-c-function    free
      -F --show-function-line=text free
      --label=text            free
      -t --expand-tabs        free
      -T --initial-tab        free
      --tabsize=number        free
      --suppress-blank-empty  free
      # --paginate runs pr.
      -l --paginate           free
      # Comparing folders follows the links found inside them.
      -r --recursive          read
      --no-dereference        free
      -N --new-file           free
      --unidirectional-new-file free
      --ignore-file-name-case free
      --no-ignore-file-name-case free
      -x --exclude=text       free
      -X --exclude-from=path  free
      -S --starting-file=text free
      --from-file=path        free
      --to-file=path          free
      -i --ignore-case        free
      -E --ignore-tab-expansion free
      -Z --ignore-trailing-space free
      -b --ignore-space-change free
      -w --ignore-all-space   free
      -B --ignore-blank-lines free
      -I --ignore-matching-lines=text free
      -a --text               free
      --strip-trailing-cr     free
      -D --ifdef=text         free
      --old-group-format=text free
      --new-group-format=text free
      --unchanged-group-format=text free
      --changed-group-format=text free
      --line-format=text      free
      --old-line-format=text  free
      --new-line-format=text  free
      --unchanged-line-format=text free
      -d --minimal            free
      --horizon-lines=number  free
      --speed-large-files     free
      --color[=text]          free
      --palette=text          free
      --help                  free
      -v --version            free
    `),
  },
  jq: {
    // jq programs cannot run commands or open files; files come only from operands and the options below.
    source: "https://jqlang.org/manual/v1.7/#invoking-jq",
    operands: { leading: ["text"], leadingUnless: ["--from-file"], rest: "path" },
    options: options(`
      -n --null-input         free
      -R --raw-input          free
      -s --slurp              free
      -r --raw-output         free
      --raw-output0           free
      -j --join-output        free
      -a --ascii-output       free
      -c --compact-output     free
      -C --color-output       free
      -M --monochrome-output  free
      -S --sort-keys          free
      -e --exit-status        free
      --tab                   free
      --indent=number         free
      --unbuffered            free
      --stream                free
      --stream-errors         free
      --seq                   free
      -f --from-file=path     free
      -L=path                 free
      --arg=text+text         free
      --argjson=text+text     free
      --slurpfile=text+path   free
      --rawfile=text+path     free
      --args                  free
      --jsonargs              free
      -h --help               free
      -V --version            free
      --build-configuration   free
    `),
  },
  file: {
    source: "https://manpages.debian.org/bookworm/file/file.1.en.html",
    operands: { rest: "path" },
    options: options(`
      -b --brief              free
      -i --mime               free
      --mime-type             free
      --mime-encoding         free
      -L --dereference        free
      -h --no-dereference     free
      -N --no-pad             free
      -0 --print0             free
      -k --keep-going         free
      -r --raw                free
      -s --special-files      free
      -z --uncompress         free
      -Z --uncompress-noreport free
      -e --exclude=text       free
      -E                      free
      -S --no-sandbox         free
      --extension             free
      --apple                 free
      -p --preserve-date      free
      -F --separator=text     free
      -P --parameter=text     free
      -m --magic-file=path    free
      # The file names it reads are inside FILE.
      -f --files-from=code    read
      --help                  free
      -v --version            free
    `),
  },
  od: {
    source: "https://www.gnu.org/software/coreutils/manual/html_node/od-invocation.html",
    abbreviations: true,
    operands: { rest: "path" },
    options: options(`
      -A --address-radix=text free
      --endian=text           free
      -j --skip-bytes=text    free
      -N --read-bytes=text    free
      -S --strings[=text]     free
      -t --format=text        free
      -v --output-duplicates  free
      -w --width[=text]       free
      --traditional           free
      -a                      free
      -b                      free
      -c                      free
      -d                      free
      -f                      free
      -i                      free
      -l                      free
      -o                      free
      -s                      free
      -x                      free
      --help                  free
      --version               free
    `),
  },
};
