/**
 * Tool arguments at the boundary: lone surrogates replaced at any depth (keys
 * included), the stored arguments never written to, and a clean object sent
 * as it is (every request re-sends every call's arguments).
 */
import { describe, expect, it } from "vitest";
import { sanitizeArguments } from "../../electron/core/providers/transform/text";

describe("sanitizeArguments", () => {
  it("returns the same object when there is nothing to clean", () => {
    const args = { path: "src/a.ts", lines: [1, 2], nested: { ok: true, note: "héllo 😀" } };
    expect(sanitizeArguments(args)).toBe(args);
  });

  it("replaces lone surrogates in keys and values at any depth, keeps key order, leaves the input untouched", () => {
    const args = { first: "fine", ["k\ud800"]: "v", nested: { list: ["a", "b\udc00"] }, last: 3 };
    const before = JSON.stringify(args);
    const out = sanitizeArguments(args);
    expect(out).not.toBe(args);
    expect(Object.keys(out)).toEqual(["first", "k\ufffd", "nested", "last"]);
    expect(out).toEqual({ first: "fine", ["k\ufffd"]: "v", nested: { list: ["a", "b\ufffd"] }, last: 3 });
    expect(JSON.stringify(args)).toBe(before);
  });

  it("keeps a __proto__ key an own property (JSON.parse makes them) rather than setting the prototype", () => {
    const args = JSON.parse('{"__proto__": "x\\ud800", "a": 1}') as Record<string, unknown>;
    const out = sanitizeArguments(args);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":"x\ufffd","a":1}');
  });
});
