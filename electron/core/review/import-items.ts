/**
 * Checks what the envelope reader hands over, item by item: the format and
 * version first seen, each element parsed and held to import-rules.ts, seqs
 * increasing, counts within IMPORT_LIMITS. Every refusal is an ApiFailure
 * naming the item and the field: IMPORT_INVALID (content), IMPORT_TOO_LARGE
 * (counts), UNSUPPORTED (another export version).
 */
import type { SessionEntry } from "../../../shared/protocol";
import { EXPORT_FORMAT, EXPORT_VERSION, type ImportLimits, type SessionExport } from "../../../shared/review";
import { ApiFailure } from "../api/errors";
import { ARRAY_FIELDS, VALUE_FIELDS, type ArrayField, type ReaderItem } from "./envelope-reader";
import { importRules, type Checked, type ImportRules } from "./import-rules";

export type CheckedItem =
  | { kind: "entry"; seq: number; entry: SessionEntry }
  | { kind: "note"; note: SessionExport["notes"][number] }
  | { kind: "toolCall"; call: SessionExport["toolCalls"][number] }
  | { kind: "problem"; problem: SessionExport["problems"][number] };

const NOUN: Record<ArrayField, string> = { entries: "entry", notes: "note", toolCalls: "audit row", problems: "problem" };

export function invalid(message: string): ApiFailure {
  return new ApiFailure("IMPORT_INVALID", message);
}

export class ItemChecker {
  private readonly rules: ImportRules;
  private readonly seen = new Set<string>();
  private lastSeq = 0;
  /** The envelope's session field, once read. */
  session: SessionExport["session"] | null = null;
  redaction: SessionExport["redaction"] | null = null;

  constructor(
    private readonly limits: ImportLimits,
    now: number,
  ) {
    this.rules = importRules(now);
  }

  take(item: ReaderItem): CheckedItem | null {
    if (item.kind === "arrayEnd") {
      this.seen.add(item.field);
      return null;
    }
    if (item.kind === "value") {
      this.seen.add(item.field);
      const v = item.value;
      switch (item.field) {
        case "format":
          if (v !== EXPORT_FORMAT) throw invalid(`not an Agent Workbench session export (format ${JSON.stringify(v)?.slice(0, 80)})`);
          return null;
        case "version":
          if (v !== EXPORT_VERSION)
            throw new ApiFailure(
              "UNSUPPORTED",
              `export version ${JSON.stringify(v)?.slice(0, 40)} is not supported (this app reads version ${EXPORT_VERSION})`,
            );
          return null;
        case "session":
          this.session = this.valid(this.rules.session(v), "session");
          return null;
        case "redaction":
          this.redaction = this.valid(this.rules.redaction(v), "redaction");
          return null;
      }
    }
    const { field, index } = item;
    this.checkCount(field, index);
    let value: unknown;
    try {
      value = JSON.parse(item.text);
    } catch (e) {
      throw invalid(`${NOUN[field]} ${index + 1} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    const label = labelOf(field, index, value);
    switch (field) {
      case "entries": {
        const { seq, entry } = this.valid(this.rules.entry(value), label);
        if (seq <= this.lastSeq) throw invalid(`${label}: seqs must increase (found ${seq} after ${this.lastSeq})`);
        this.lastSeq = seq;
        return { kind: "entry", seq, entry };
      }
      case "notes":
        return { kind: "note", note: this.valid(this.rules.note(value), label) };
      case "toolCalls":
        return { kind: "toolCall", call: this.valid(this.rules.toolCall(value), label) };
      case "problems":
        return { kind: "problem", problem: this.valid(this.rules.problem(value), label) };
    }
  }

  /** The session to create, once the whole file was read. */
  finish(): SessionExport["session"] {
    if (!this.seen.has("format")) throw invalid(`not an Agent Workbench session export (it has no "format" field)`);
    for (const field of [...VALUE_FIELDS, ...ARRAY_FIELDS]) {
      if (!this.seen.has(field)) throw invalid(`the export has no "${field}" field`);
    }
    return this.session as SessionExport["session"];
  }

  private checkCount(field: ArrayField, index: number): void {
    const max = field === "notes" ? this.limits.notes : field === "toolCalls" ? this.limits.toolCalls : this.limits.entries;
    if (index >= max)
      throw new ApiFailure(
        "IMPORT_TOO_LARGE",
        `the export has more than ${max.toLocaleString("en-US")} ${field} (the most an import takes)`,
      );
  }

  private valid<T>(checked: Checked<T>, label: string): T {
    if (!checked.ok) throw invalid(`${label}: ${checked.message}`);
    return checked.value;
  }
}

/** `entry 17`, with its seq when that differs from its place in the file. */
function labelOf(field: ArrayField, index: number, value: unknown): string {
  const base = `${NOUN[field]} ${index + 1}`;
  if (field !== "entries" || value === null || typeof value !== "object") return base;
  const seq = (value as { seq?: unknown }).seq;
  return typeof seq === "number" && Number.isInteger(seq) && seq !== index + 1 && seq > 0 ? `${base} (seq ${seq})` : base;
}
