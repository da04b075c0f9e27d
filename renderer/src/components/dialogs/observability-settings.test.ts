import { describe, expect, it } from "vitest";
import { parseHeaderLines } from "./observability-settings";

describe("OTLP header lines", () => {
  it("reads one `Name: value` per line and refuses anything else", () => {
    expect(parseHeaderLines("Authorization: Basic abc:def\n\nx-team: a")).toEqual({ Authorization: "Basic abc:def", "x-team": "a" });
    expect(parseHeaderLines("no colon here")).toBeNull();
    expect(parseHeaderLines(": value")).toBeNull();
  });
});
