/**
 * JSON Lines as the agents write them: one object a line, the last line
 * possibly cut short by a process that was killed. A line that is not a JSON
 * object is counted and left out (the header says how many), never a crash.
 */
import { FOREIGN_LIMITS, ForeignImportError } from "./types";

export interface JsonlRead {
  /** Each parsed object with its 1-based line number. */
  records: Array<{ line: number; value: Record<string, unknown> }>;
  /** Lines that were not a JSON object. */
  skipped: number[];
}

export function readJsonl(text: string, limits = FOREIGN_LIMITS): JsonlRead {
  const records: JsonlRead["records"] = [];
  const skipped: number[] = [];
  let line = 0;
  let at = 0;
  while (at <= text.length) {
    let end = text.indexOf("\n", at);
    if (end === -1) end = text.length;
    line++;
    if (end - at > limits.lineChars)
      throw new ForeignImportError("IMPORT_TOO_LARGE", `line ${line} has ${end - at} characters (at most ${limits.lineChars})`);
    const raw = text.slice(at, end).trim();
    at = end + 1;
    if (raw === "") continue;
    try {
      const value: unknown = JSON.parse(raw);
      if (value !== null && typeof value === "object" && !Array.isArray(value))
        records.push({ line, value: value as Record<string, unknown> });
      else skipped.push(line);
    } catch {
      skipped.push(line);
    }
  }
  return { records, skipped };
}

/** Small typed readers for untrusted objects. */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
export const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
export const arr = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);

/** A whole count of tokens, or 0 for anything else (negative, fractional, huge values are refused later by the import rules). */
export const count = (v: unknown): number => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : 0);

/** An ISO time or Unix milliseconds → ms; undefined when neither. */
export function timeOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v !== "string") return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

export function lineWord(lines: number[]): string {
  const shown = lines.slice(0, 5).join(", ");
  return `${lines.length} line${lines.length === 1 ? "" : "s"} (${shown}${lines.length > 5 ? ", …" : ""}) ${lines.length === 1 ? "was" : "were"} not JSON and ${lines.length === 1 ? "was" : "were"} left out`;
}
