/**
 * The contract's request and event tables build each schema on first use
 * (shared/lazy-table.ts): the same schema object on every read, all names
 * listed, and validation unchanged.
 */
import { describe, expect, it } from "vitest";
import { events, requests } from "../shared/api";
import { lazyTable } from "../shared/lazy-table";

describe("lazyTable", () => {
  it("builds an entry on its first read only, and returns that same value after", () => {
    const built: string[] = [];
    const table = lazyTable({
      a: () => (built.push("a"), { n: 1 }),
      b: () => (built.push("b"), { n: 2 }),
    });
    expect(Object.keys(table)).toEqual(["a", "b"]);
    expect(Object.prototype.hasOwnProperty.call(table, "b")).toBe(true);
    expect(built).toEqual([]);
    const first = table.a;
    expect(table.a).toBe(first);
    expect(first).toEqual({ n: 1 });
    expect(built).toEqual(["a"]);
  });

  it("keeps the contract whole: every method and event, each validating as before", () => {
    expect(Object.keys(requests)).toContain("session.load");
    expect(Object.keys(events)).toContain("session.entry");
    expect(requests["session.load"]).toBe(requests["session.load"]);
    expect(requests["session.load"].params.safeParse({ sessionId: "s1", tail: 80 }).success).toBe(true);
    expect(requests["session.load"].params.safeParse({ sessionId: "s1", tail: 0 }).success).toBe(false);
    expect(requests["session.load"].params.safeParse({ sessionId: "s1", extra: 1 }).success).toBe(false);
    expect(events["turn.error"].safeParse({ sessionId: "s1", message: "boom" }).success).toBe(true);
    expect(events["turn.error"].safeParse({ sessionId: "s1" }).success).toBe(false);
    for (const method of Object.keys(requests) as Array<keyof typeof requests>) {
      expect(typeof requests[method].params.safeParse).toBe("function");
      expect(typeof requests[method].result.safeParse).toBe("function");
    }
  });
});
