/**
 * axe-core (WCAG 2.x A/AA rules) over the main screens, in the light and the
 * dark theme: a session, an approval waiting, the Changes view, Settings and
 * replay. No critical and no serious violation on any of them.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { approvalCard, newSession, openWorkspace, send, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

type Violation = { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] };

/** The critical and serious violations on the page now, one line each with where (so a failure says what to fix). */
async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  // Let transitions and the pulse settle so colours are read as the user sees them.
  await page.waitForTimeout(300);
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return (result.violations as Violation[])
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .flatMap((v) =>
      v.nodes.slice(0, 5).map((n) => `${screen}: ${v.id} (${v.impact}) ${v.help} at ${JSON.stringify(n.target)} ${n.failureSummary ?? ""}`),
    );
}

for (const theme of ["light", "dark"] as const) {
  test(`${theme} theme: session, approval, Changes, Settings and replay have no critical or serious axe violation`, async ({
    page,
    host,
  }) => {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
    await page.goto(host.url);
    const found: string[] = [];
    found.push(...(await seriousViolations(page, "first screen")));
    await openWorkspace(page, host.workspace);
    await newSession(page);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    found.push(...(await seriousViolations(page, "empty session")));

    await send(page, "Please add a review note to README.md.");
    const card = approvalCard(page);
    await expect(card).toBeVisible();
    found.push(...(await seriousViolations(page, "approval")));
    await screenshot(page, `a11y-${theme}-approval`);
    await card.getByRole("button", { name: /^Approve once/ }).click();
    await waitIdle(page);
    found.push(...(await seriousViolations(page, "session after a turn")));

    await page.getByRole("button", { name: "Changes", exact: true }).click();
    await expect(page.getByRole("region", { name: "Changes" })).toBeVisible();
    // It says how to comment on a line.
    await expect(page.getByRole("region", { name: "Changes" }).getByRole("note")).toContainText("click a line number");
    found.push(...(await seriousViolations(page, "Changes")));
    await page.getByRole("button", { name: "Changes", exact: true }).click();

    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
    found.push(...(await seriousViolations(page, "Settings")));
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Settings" })).toHaveCount(0);

    await page
      .getByRole("list", { name: "Session list" })
      .getByRole("button", { name: /^Replay session / })
      .first()
      .click();
    const replay = page.getByRole("main", { name: "Replay" });
    await expect(replay.getByRole("listbox", { name: "Timeline" }).getByRole("option").first()).toBeVisible();
    found.push(...(await seriousViolations(page, "replay")));
    await screenshot(page, `a11y-${theme}-replay`);

    expect(found, "critical and serious axe violations").toEqual([]);
  });
}
