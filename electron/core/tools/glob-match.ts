/**
 * Glob matching with gitignore/ripgrep conventions: a pattern without "/"
 * matches the file name at any depth, one with "/" the whole relative path.
 * (picomatch's own `basename` option also applies to patterns with "/", which
 * ripgrep does not do.)
 *
 * picomatch compiles a glob to a backtracking regex, and a glob with many
 * wildcards (`*a*a*a*a*a*a*b`) against a long name backtracks for hours, so
 * the tools match in the regex worker, under its deadline (regex-worker.ts).
 */
import picomatch from "picomatch";
import { errors } from "./errors";
import { REGEX_JOB_TIMEOUT_MS } from "./limits";
import { runRegexJob } from "./regex-worker";
import type { Result } from "./types";

/** Paths matched per worker job. */
const GLOB_BATCH = 20_000;

function compileGlob(pattern: string): RegExp {
  return picomatch.makeRe(pattern.replace(/^\/+/, ""), { dot: true });
}

/**
 * Synchronous matcher, for patterns the user wrote in their own settings
 * (policy). Tools use `filterByGlob`.
 */
export function globMatcher(pattern: string): (relPath: string) => boolean {
  const isMatch = picomatch(pattern.replace(/^\/+/, ""), { dot: true });
  if (pattern.includes("/")) return isMatch;
  return (relPath) => isMatch(relPath.slice(relPath.lastIndexOf("/") + 1));
}

/** Which of `relPaths` the glob matches, computed off the main thread with a deadline. */
export async function filterByGlob(pattern: string, relPaths: readonly string[], signal?: AbortSignal): Promise<Result<boolean[]>> {
  const re = compileGlob(pattern);
  const glob = pattern.replace(/^\/+/, "");
  const subject = pattern.includes("/") ? (p: string) => p : (p: string) => p.slice(p.lastIndexOf("/") + 1);
  const out: boolean[] = [];
  for (let i = 0; i < relPaths.length; i += GLOB_BATCH) {
    const inputs = relPaths.slice(i, i + GLOB_BATCH).map(subject);
    const job = await runRegexJob({ op: "test", source: re.source, flags: re.flags, inputs }, { signal });
    if (!job.ok) {
      if (job.reason === "aborted") return { ok: false, error: errors.aborted() };
      if (job.reason === "timeout") return { ok: false, error: errors.regexTooSlow(pattern, "paths", REGEX_JOB_TIMEOUT_MS) };
      return { ok: false, error: errors.io("glob", job.message) };
    }
    // picomatch also takes a path equal to the glob itself (a name with [ or { in it).
    job.value.forEach((m, k) => out.push(m || inputs[k] === glob));
  }
  return { ok: true, value: out };
}
