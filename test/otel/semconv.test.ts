import * as incubating from "@opentelemetry/semantic-conventions/incubating";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as ours from "../../electron/core/otel/semconv";

describe("GenAI semantic-convention names", () => {
  it("match the incubating definitions of the pinned @opentelemetry/semantic-conventions", () => {
    const pkg = JSON.parse(readFileSync("node_modules/@opentelemetry/semantic-conventions/package.json", "utf8")) as { version: string };
    expect(pkg.version).toBe(ours.SEMCONV_PACKAGE_VERSION);
    const theirs = incubating as unknown as Record<string, unknown>;
    const names = Object.entries(ours).filter(([k]) => k.startsWith("ATTR_") && k !== "ATTR_COST_USD");
    expect(names.length).toBeGreaterThan(15);
    for (const [k, v] of names) expect([k, theirs[k]]).toEqual([k, v]);
    // Ours, as it is not theirs.
    expect(Object.values(theirs)).not.toContain(ours.ATTR_COST_USD);
  });
});
