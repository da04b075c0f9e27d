/**
 * Request bodies as JSON text without re-encoding the whole history each
 * time. Every request re-sends the history, and encoding it is the largest
 * per-request cost once it grows; the entries the kept transform pass shares
 * between requests keep their content arrays (a merge makes a new array, never
 * writes to one), so the JSON of an entry can be cached by that array.
 *
 * The text produced is byte for byte `JSON.stringify` of the body the pure
 * builder returns (a test checks this for every API).
 */

/** JSON fragments cached by the identity of the object they encode. */
export class FragmentCache {
  private readonly byKey = new WeakMap<object, string>();

  get(key: object, make: () => string): string {
    let json = this.byKey.get(key);
    if (json === undefined) {
      json = make();
      this.byKey.set(key, json);
    }
    return json;
  }
}

/** Items' JSON joined by commas ("" for none): the inside of a JSON array. */
export function itemsJson(items: readonly unknown[]): string {
  let out = "";
  for (let i = 0; i < items.length; i++) out += (i === 0 ? "" : ",") + JSON.stringify(items[i]);
  return out;
}

/** A JSON array from fragments made by `itemsJson` (empty fragments are skipped). */
export function arrayJson(fragments: readonly string[]): string {
  let out = "[";
  let first = true;
  for (const fragment of fragments) {
    if (fragment.length === 0) continue;
    out += first ? fragment : `,${fragment}`;
    first = false;
  }
  return `${out}]`;
}

/**
 * `JSON.stringify(body)` with the value of `field` given as ready JSON text:
 * same key order, same bytes (plain objects only; undefined values are
 * skipped as `JSON.stringify` skips them).
 */
export function stringifyWith(body: Record<string, unknown>, field: string, json: string): string {
  let out = "{";
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (key !== field && (value === undefined || typeof value === "function" || typeof value === "symbol")) continue;
    out += `${out.length > 1 ? "," : ""}${JSON.stringify(key)}:${key === field ? json : JSON.stringify(value)}`;
  }
  return `${out}}`;
}
