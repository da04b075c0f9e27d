/**
 * Reads a command's words the way its program does, from its table
 * (program-spec.ts): sub-commands, options (bundled short options split,
 * abbreviated long options expanded where the program accepts that, values
 * attached or not), and operands with what each one is.
 *
 * Contract: pure; an option the table does not know, an ambiguous
 * abbreviation, an unknown sub-command or a missing value is `{ ok: false }`
 * (a wildcard rule then covers nothing). Rules are read by the same function,
 * so `*` words in a rule sit where the command's words would.
 */
import type { OperandShape, OptionSpec, ProgramSpec, WordKind } from "./program-spec";

export interface ParsedOption {
  /** Which level it belongs to: 0 the program, 1 its sub-command, … */
  level: number;
  /** The first long name (or the only name): what a rule's option is compared by. */
  canonical: string;
  spec: OptionSpec;
  /** The option's values: none, one, or two (`jq --rawfile NAME FILE`). */
  values: string[];
}

export interface ParsedOperand {
  word: string;
  kind: WordKind;
}

export interface ParsedCommand {
  /** Sub-command names, aliases resolved (`npm t` → ["test"]). */
  path: string[];
  /** The table that applies after the sub-commands. */
  spec: ProgramSpec;
  options: ParsedOption[];
  operands: ParsedOperand[];
}

export type ParseResult = { ok: true; value: ParsedCommand } | { ok: false; reason: string };

function canonicalOf(spec: OptionSpec): string {
  return spec.names.find((n) => n.startsWith("--")) ?? spec.names[0];
}

function longMatch(spec: ProgramSpec, name: string): OptionSpec | string {
  const exact = spec.options.find((o) => o.names.includes(name));
  if (exact) return exact;
  if (!spec.abbreviations) return `unknown option ${name}`;
  const prefixed = spec.options.filter((o) => o.names.some((n) => n.startsWith("--") && n.startsWith(name)));
  if (prefixed.length === 1) return prefixed[0];
  return prefixed.length === 0 ? `unknown option ${name}` : `ambiguous option ${name}`;
}

/** Parses `words` (the program's name not included). */
export function parseWords(words: readonly string[], spec: ProgramSpec): ParseResult {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  const afterDashDash: string[] = [];
  const path: string[] = [];
  let current = spec;
  let level = 0;
  let dashDash = false;
  let optionsDone = false;
  let i = 0;
  const push = (o: OptionSpec, ...values: string[]) => options.push({ level, canonical: canonicalOf(o), spec: o, values });
  /** The values an option takes from the next words; null when they are missing. */
  const takeNext = (o: OptionSpec): string[] | null => {
    const n = o.arg === "two" ? 2 : 1;
    if (i + n >= words.length) return null;
    const taken = words.slice(i + 1, i + 1 + n);
    i += n;
    return taken;
  };

  if (spec.oldStyleBundle && words.length > 0 && /^[A-Za-z]+$/.test(words[0])) {
    // tar xzf a.tgz: the letters are options, and those that take a value take the next words in order.
    const letters = [...words[0]];
    let next = 1;
    for (const letter of letters) {
      const o = current.options.find((x) => x.names.includes(`-${letter}`));
      if (!o) return { ok: false, reason: `unknown option -${letter}` };
      if (o.arg === "required" || o.arg === "two") {
        const n = o.arg === "two" ? 2 : 1;
        if (next + n > words.length) return { ok: false, reason: `-${letter} needs a value` };
        push(o, ...words.slice(next, next + n));
        next += n;
      } else push(o);
    }
    i = next;
  }

  for (; i < words.length; i++) {
    const w = words[i];
    if (dashDash || optionsDone) {
      (dashDash ? afterDashDash : operands).push(w);
      continue;
    }
    if (w === "--") {
      if (current.subcommands && !current.subcommandOptional) return { ok: false, reason: "-- before the sub-command" };
      dashDash = true;
      continue;
    }
    if (!w.startsWith("-") || w === "-") {
      const name = current.aliases?.[w] ?? w;
      if (current.subcommands && !(current.subcommandOptional && !current.subcommands[name])) {
        const sub = current.subcommands[name];
        if (!sub) return { ok: false, reason: `unknown sub-command ${w}` };
        path.push(name);
        current = sub;
        level++;
        continue;
      }
      operands.push(w);
      if (current.optionsEndAtFirstOperand) optionsDone = true;
      continue;
    }
    if (current.dashNumber && /^-[0-9]+$/.test(w)) {
      const o = current.options.find((x) => x.names.includes(current.dashNumber ?? ""));
      if (!o) return { ok: false, reason: `unknown option ${w}` };
      push(o, w.slice(1));
      continue;
    }
    if (w.startsWith("--") || current.singleDash) {
      const eq = w.indexOf("=");
      const name = eq === -1 ? w : w.slice(0, eq);
      let found = longMatch(current, name);
      // go and other single-dash programs take `--name` as well as `-name`.
      if (typeof found === "string" && current.singleDash && name.startsWith("--")) found = longMatch(current, name.slice(1));
      if (typeof found === "string") return { ok: false, reason: found };
      if (eq !== -1) {
        if (!found.arg) return { ok: false, reason: `${name} takes no value` };
        if (found.arg === "two") {
          const second = takeNext({ ...found, arg: "required" });
          if (!second) return { ok: false, reason: `${name} needs two values` };
          push(found, w.slice(eq + 1), ...second);
        } else push(found, w.slice(eq + 1));
      } else if (found.arg === "required" || found.arg === "two") {
        const taken = takeNext(found);
        if (!taken) return { ok: false, reason: `${name} needs a value` };
        push(found, ...taken);
      } else push(found);
      if (found.endsOptions) optionsDone = true;
      continue;
    }
    // -abc: bundled short options; the first one that takes a value takes the rest of the word (or the next word).
    for (let j = 1; j < w.length; j++) {
      const o = current.options.find((x) => x.names.includes(`-${w[j]}`));
      if (!o) return { ok: false, reason: `unknown option -${w[j]}` };
      if (o.arg) {
        const rest = w.slice(j + 1);
        if (o.arg === "two") {
          const taken = rest !== "" ? takeNext({ ...o, arg: "required" }) : takeNext(o);
          if (!taken) return { ok: false, reason: `-${w[j]} needs two values` };
          push(o, ...(rest !== "" ? [rest] : []), ...taken);
        } else if (rest !== "") push(o, rest);
        else if (o.arg === "required") {
          const taken = takeNext(o);
          if (!taken) return { ok: false, reason: `-${w[j]} needs a value` };
          push(o, ...taken);
        } else push(o);
        if (o.endsOptions) optionsDone = true;
        break;
      }
      push(o);
      if (o.endsOptions) optionsDone = true;
    }
  }
  if (current.subcommands && !current.subcommandOptional) return { ok: false, reason: "no sub-command" };
  return { ok: true, value: { path, spec: current, options, operands: kinds(current.operands, options, operands, afterDashDash) } };
}

function kinds(shape: OperandShape, options: readonly ParsedOption[], before: string[], after: string[]): ParsedOperand[] {
  const leading = shape.leadingUnless?.some((name) => options.some((o) => o.canonical === name)) ? [] : (shape.leading ?? []);
  const all = [...before, ...after];
  return all.map((word, i) => ({
    word,
    kind: i < leading.length ? leading[i] : i >= before.length && shape.afterDashDash ? shape.afterDashDash : shape.rest,
  }));
}
