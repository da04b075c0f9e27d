/**
 * Every program a wildcard rule can name, by the name bash runs it by. A
 * program that is not here gets exact rules only (docs/approvals.md#what-a-rule-covers).
 */
import type { ProgramSpec } from "../program-spec";
import { BUILD } from "./build";
import { COREUTILS } from "./coreutils";
import { GIT } from "./git";
import { JAVASCRIPT } from "./javascript";
import { SEARCH } from "./search";

const PROGRAMS: ReadonlyMap<string, ProgramSpec> = new Map(Object.entries({ ...COREUTILS, ...SEARCH, ...GIT, ...JAVASCRIPT, ...BUILD }));

export function programSpec(name: string): ProgramSpec | undefined {
  return PROGRAMS.get(name);
}

/** The names of the programs that have a table, sorted. */
export function programNames(): string[] {
  return [...PROGRAMS.keys()].sort();
}
