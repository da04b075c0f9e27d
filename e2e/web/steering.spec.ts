/**
 * Steering (docs/sub-agents.md#steering-and-follow-ups): while the agent works through a tool loop,
 * Alt+Enter (or Steer) sends a message that reaches its very next request, right after the
 * current tool results, and shows in the transcript as the user's message. Asserted on the request
 * bodies the faux provider received.
 */
import { newSession, openWorkspace, send, toolCards, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

for (const how of ["Alt+Enter", "the Steer button"] as const) {
  test(`a steering message sent with ${how} during a tool loop reaches the next request`, async ({ page, host }) => {
    await page.goto(host.url);
    await openWorkspace(page, host.workspace);
    await newSession(page);
    await send(page, "Keep reading the README [steer-loop]");
    await expect(toolCards(page, "read").first()).toBeVisible();

    const box = page.getByRole("textbox", { name: "Message" });
    const steer = "Stop reading and say hello";
    await box.fill(steer);
    if (how === "Alt+Enter") await box.press("Alt+Enter");
    else await page.getByRole("button", { name: "Steer", exact: true }).click();
    await expect(box).toHaveValue("");
    await waitIdle(page);

    await expect(transcript(page).getByLabel("Your message").last()).toContainText(steer);
    await expect(transcript(page).getByLabel("Assistant message").last()).toContainText(`Steered: ${steer}`);
    // The request that carried it: the steering message right after the last tool result, and nothing queued it for later.
    const requests = await host.fauxRequests();
    const first = requests.findIndex((r) => r.lastUserText === steer);
    expect(first).toBeGreaterThan(0);
    expect(requests[first].tailRoles).toEqual(["assistant", "toolResult", "user"]);
    expect(requests.slice(first + 1)).toEqual([]);
    await expect(page.getByRole("list", { name: "Steering messages" })).toHaveCount(0);
    await screenshot(page, `steering-${how === "Alt+Enter" ? "key" : "button"}`);
  });
}
