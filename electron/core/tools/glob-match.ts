/**
 * Glob matching with gitignore/ripgrep conventions: a pattern without "/"
 * matches the file name at any depth, one with "/" the whole relative path.
 * (picomatch's own `basename` option also applies to patterns with "/", which
 * ripgrep does not do.)
 */
import picomatch from "picomatch";

export function globMatcher(pattern: string): (relPath: string) => boolean {
  const isMatch = picomatch(pattern.replace(/^\/+/, ""), { dot: true });
  if (pattern.includes("/")) return isMatch;
  return (relPath) => isMatch(relPath.slice(relPath.lastIndexOf("/") + 1));
}
