/**
 * Settings → Observability: an OTLP endpoint typed in and saved (on a host
 * without a key store the headers field is off), then "Send trace of the open
 * session" delivers the seeded session's GenAI spans to a receiver that
 * decodes them with the opentelemetry-proto classes.
 */
import { startHost, type E2EHost } from "../helpers/host";
import { expect, test } from "../helpers/fixtures";
import { startReceiver } from "../../test/otel/receiver";

const SONNET = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" } as const;
const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 },
};
const t0 = Date.UTC(2026, 10, 2, 9, 0, 0);

test("a trace configured in Settings is sent for the open session, with no content", async ({ page }) => {
  const receiver = await startReceiver();
  const host: E2EHost = await startHost({
    seed: {
      title: "Traced session",
      model: SONNET,
      entries: [
        { type: "message", message: { role: "user", content: [{ type: "text", text: "private question" }], timestamp: t0 } },
        {
          type: "message",
          message: {
            role: "assistant",
            content: [{ type: "text", text: "private answer" }],
            stopReason: "stop",
            model: SONNET,
            usage,
            timestamp: t0 + 1000,
          },
        },
      ],
    },
  });
  try {
    await page.goto(host.url);
    await page.getByRole("list", { name: "Session list" }).getByText("Traced session").click();
    await page.getByRole("button", { name: "Settings" }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    const section = settings.getByRole("region", { name: "Observability" });
    await section.getByLabel("OTLP endpoint").fill(receiver.url);
    // This host has no key store: headers cannot be typed in (they would have nowhere safe to go).
    await expect(section.getByLabel(/^Headers/)).toBeDisabled();
    await expect(section.getByLabel(/^Headers/)).toHaveAttribute("placeholder", /OTEL_EXPORTER_OTLP_HEADERS/);
    await section.getByRole("button", { name: "Save" }).click();
    // Saved: the form reloads from the core, the endpoint kept and sending possible.
    await expect(section.getByRole("button", { name: "Send trace of the open session" })).toBeEnabled();
    await expect(section.getByLabel("OTLP endpoint")).toHaveValue(receiver.url);
    await section.getByRole("button", { name: "Send trace of the open session" }).click();
    await expect(section.getByRole("status")).toHaveText("Sent 2 spans.");
    const ops = receiver.spans().map((s) => s.attributes["gen_ai.operation.name"]);
    expect(ops.sort()).toEqual(["chat", "invoke_agent"]);
    expect(JSON.stringify(receiver.spans())).not.toContain("private");
  } finally {
    await page.close();
    await host.stop();
    await receiver.close();
  }
});
