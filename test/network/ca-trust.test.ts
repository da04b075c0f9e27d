/**
 * The desktop app's extra-CA check (electron/main/network.ts hands it the
 * chain Chromium could not verify): a chain from the Settings CA file is
 * accepted for its host only; anything else keeps Chromium's verdict.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainTrustedBy } from "../../electron/core/network/ca-trust";
import { makeTestCa, type TestCa } from "./test-ca";

let ca: TestCa;
let other: TestCa;
beforeAll(() => {
  ca = makeTestCa();
  other = makeTestCa();
});
afterAll(() => {
  ca.remove();
  other.remove();
});

describe("a server chain checked against the user's extra CAs", () => {
  it("accepts a certificate the CA signed, for the host it names", () => {
    const caPem = readFileSync(ca.caFile, "utf8");
    expect(chainTrustedBy([ca.cert], [caPem], "127.0.0.1")).toBe(true);
    expect(chainTrustedBy([ca.cert, caPem], [caPem], "localhost")).toBe(true);
  });

  it("refuses another host, another CA, an expired period and an empty CA list", () => {
    const caPem = readFileSync(ca.caFile, "utf8");
    expect(chainTrustedBy([ca.cert], [caPem], "api.anthropic.com")).toBe(false);
    expect(chainTrustedBy([ca.cert], [readFileSync(other.caFile, "utf8")], "127.0.0.1")).toBe(false);
    expect(chainTrustedBy([ca.cert], [caPem], "127.0.0.1", new Date(Date.now() + 30 * 86_400_000))).toBe(false);
    expect(chainTrustedBy([ca.cert], [], "127.0.0.1")).toBe(false);
    expect(chainTrustedBy(["not a certificate"], [caPem], "127.0.0.1")).toBe(false);
  });
});
