import { afterEach, describe, expect, it } from "vitest";
import { toolSpanId, traceIdOf, traceparent } from "../../electron/core/otel/ids";
import { approved, makeFixture, text, type Fixture } from "../tools/helpers";

let fx: Fixture | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});

describe("TRACEPARENT for bash children", () => {
  it("a command sees the W3C trace context of its tool call's span", async () => {
    const seen: string[] = [];
    const tp = traceparent(traceIdOf("session-1"), toolSpanId("session-1", "call-1"));
    fx = makeFixture({
      bashSandbox: "off",
      traceparent: (id) => {
        seen.push(id);
        return tp;
      },
    });
    const out = text(fx.runtime, await approved(fx.runtime, "bash", { command: 'printf "tp=%s" "$TRACEPARENT"' }));
    expect(out).toContain(`tp=${tp}`);
    expect(seen).toHaveLength(1);
    expect(tp).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/u);
  });

  it("sets nothing when export is off, and never passes a value that is not a trace context", async () => {
    for (const value of [null, "00-zz-bad\nEVIL=1", `00-${"0".repeat(32)}-${"1".repeat(16)}-01; rm -rf /`]) {
      fx = makeFixture({ bashSandbox: "off", traceparent: () => value });
      const out = text(fx.runtime, await approved(fx.runtime, "bash", { command: 'printf "tp=[%s]" "${TRACEPARENT-unset}"' }));
      expect(out).toContain("tp=[unset]");
      fx.cleanup();
      fx = undefined;
    }
  });
});
