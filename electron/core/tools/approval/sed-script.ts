/**
 * Which sed scripts a wildcard rule may stand for: those that can only
 * select, print, delete and substitute lines. GNU sed also runs commands
 * (`e`, `s///e`), writes files (`w`, `W`, `s///w`) and reads them (`r`, `R`);
 * rather than listing those, this accepts a small grammar and refuses the
 * rest (labels, branches, a/i/c text, `{}` blocks included). From the GNU sed
 * manual, "sed scripts" (https://www.gnu.org/software/sed/manual/sed.html).
 */

/** True when the script holds only addresses and the commands p P d D n N g G h H x l = z q Q s y. */
export function isPlainSedScript(script: string): boolean {
  let i = 0;
  const s = script;
  const blank = () => {
    while (i < s.length && (s[i] === " " || s[i] === "\t")) i++;
  };
  const number = () => {
    const start = i;
    while (i < s.length && s[i] >= "0" && s[i] <= "9") i++;
    return i > start;
  };
  /** A delimited part (`/re/`, the parts of s and y) that ends at an unescaped `delim`. */
  const delimited = (delim: string): boolean => {
    while (i < s.length && s[i] !== delim) {
      if (s[i] === "\n") return false;
      if (s[i] === "\\") i++;
      i++;
    }
    if (i >= s.length) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    if (s[i] === "$") {
      i++;
      return true;
    }
    if (s[i] === "/") {
      i++;
      if (!delimited("/")) return false;
      while (s[i] === "I" || s[i] === "M") i++;
      return true;
    }
    if (!number()) return false;
    if (s[i] === "~") {
      i++;
      return number();
    }
    return true;
  };

  while (i < s.length) {
    blank();
    if (s[i] === ";" || s[i] === "\n") {
      i++;
      continue;
    }
    if (i >= s.length) break;
    if (/[0-9$/]/.test(s[i])) {
      if (!address()) return false;
      if (s[i] === ",") {
        i++;
        if (s[i] === "+" || s[i] === "~") {
          i++;
          if (!number()) return false;
        } else if (!address()) return false;
      }
      blank();
    }
    if (s[i] === "!") {
      i++;
      blank();
    }
    const c = s[i++];
    if (c === undefined) return false;
    if ("pPdDnNgGhHxlz=".includes(c)) {
      // nothing more
    } else if (c === "q" || c === "Q") {
      blank();
      number();
    } else if (c === "s") {
      const delim = s[i++];
      if (delim === undefined || delim === "\\" || delim === "\n" || delim === " ") return false;
      if (!delimited(delim) || !delimited(delim)) return false;
      // Flags: g p i I m M and a count; e (run the pattern space) and w (write a file) are refused.
      while (i < s.length && /[gpiImM0-9]/.test(s[i])) i++;
    } else if (c === "y") {
      const delim = s[i++];
      if (delim === undefined || delim === "\\" || delim === "\n") return false;
      if (!delimited(delim) || !delimited(delim)) return false;
    } else {
      return false;
    }
    blank();
    if (i < s.length && s[i] !== ";" && s[i] !== "\n") return false;
  }
  return true;
}
