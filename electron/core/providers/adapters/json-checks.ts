/**
 * Structural checks for provider payloads, written by hand: they run on every
 * SSE event, where a schema library's cost per parse shows. Each wire's
 * checks accept exactly what the zod schemas they replaced accepted
 * (test/providers/adapters-event-checks.test.ts compares the two on generated
 * payloads). They return the payload itself, never a copy.
 */

/** A JSON object (zod's object: not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** As zod's `z.number()`: finite numbers only (JSON.parse turns 1e999 into Infinity). */
export function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

export function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === "string";
}

export function isNullishString(value: unknown): value is string | null | undefined {
  return value === undefined || value === null || typeof value === "string";
}

export function isNullishNumber(value: unknown): value is number | null | undefined {
  return value === undefined || value === null || isNumber(value);
}

/** An object whose `type` is a string (the first step of reading a tagged union). */
export function isTyped(value: unknown): value is { type: string } {
  return isRecord(value) && typeof value.type === "string";
}

export function isArrayOf(value: unknown, check: (item: unknown) => boolean): value is unknown[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
  return true;
}
