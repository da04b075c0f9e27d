/**
 * The header and the approval card fit every window from 800 px wide up: each
 * header control lies inside the window, tabbing through them never slides the
 * app sideways (the sidebar stays at x = 0), and every part of a waiting
 * approval (what is changed, each hunk, the rule and its words, the buttons)
 * can be read whole by scrolling inside the card, never cut off.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { approvalCard, newSession, openWorkspace, send } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

const SIZES = [
  { width: 800, height: 600 },
  { width: 900, height: 700 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not rendered");
  return b;
}

/** Nothing has moved sideways: the page, the app grid and the main column are all at their left edge. */
async function expectNoSideShift(page: Page, what: string) {
  const shift = await page.evaluate(() => ({
    page: document.scrollingElement?.scrollLeft ?? 0,
    window: window.scrollX,
    app: document.querySelector(".app")?.scrollLeft ?? 0,
    main: document.querySelector(".main")?.scrollLeft ?? 0,
    sidebar: document.querySelector(".sidebar")?.getBoundingClientRect().x ?? -1,
  }));
  expect(shift, what).toEqual({ page: 0, window: 0, app: 0, main: 0, sidebar: 0 });
}

/** `inner` lies wholly inside `outer`. */
async function expectInside(inner: Locator, outer: { x: number; y: number; width: number; height: number }, what: string) {
  const i = await box(inner);
  expect(i.x, `${what}: left edge`).toBeGreaterThanOrEqual(outer.x - 0.5);
  expect(i.y, `${what}: top edge`).toBeGreaterThanOrEqual(outer.y - 0.5);
  expect(i.x + i.width, `${what}: right edge`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
  expect(i.y + i.height, `${what}: bottom edge`).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
}

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} every header control and every part of the approval card is in reach, nothing slides`, async ({
    page,
    host,
  }) => {
    writeFileSync(join(host.workspace, "hunks.txt"), lines(20));
    await page.setViewportSize(size);
    await page.goto(host.url);
    await openWorkspace(page, host.workspace);
    await newSession(page);
    await send(page, "Make three changes please [three-hunks]");
    const card = approvalCard(page);
    await expect(card.getByRole("listbox", { name: "Hunks" }).getByRole("option")).toHaveCount(3);
    const window = { x: 0, y: 0, ...size };

    // The header: every control inside the window, and focusing each (as Tab does) moves nothing.
    const header = page.locator(".app-header");
    const controls = [
      header.getByRole("button", { name: /^(Agent|Ask) mode$/ }),
      header.getByRole("button", { name: /^Model: / }),
      header.getByRole("combobox", { name: "Reasoning level" }),
      header.getByLabel(/^Session usage:/),
      header.getByRole("button", { name: "Context details" }),
      header.getByRole("button", { name: "Undo last turn" }),
      header.getByRole("button", { name: "Diff", exact: true }),
      header.getByRole("button", { name: "Changes", exact: true }),
      header.getByRole("button", { name: "Settings", exact: true }),
    ];
    const headerBox = await box(header);
    for (const control of controls) {
      await expect(control).toBeVisible();
      await expectInside(
        control,
        window,
        `header control ${await control.evaluate((el) => el.getAttribute("aria-label") ?? el.textContent)}`,
      );
      await expectInside(control, headerBox, "inside the header");
    }
    await expectNoSideShift(page, "before tabbing");
    await header.getByRole("button", { name: /^(Agent|Ask) mode$/ }).focus();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      await expectNoSideShift(page, `after Tab ${i + 1}`);
    }
    await page.getByRole("button", { name: "Settings", exact: true }).focus();
    await expectNoSideShift(page, "Settings focused");

    // The approval card: its whole box in the window, its buttons always in view, each part readable whole by scrolling in the card.
    await expectInside(card, window, "approval card");
    const cardBox = await box(card);
    for (const name of [/^Approve once\b/, /^Approve for this session/, /^Always allow/, /^Deny/]) {
      await expectInside(card.getByRole("button", { name }), cardBox, `button ${name}`);
    }
    const parts: [string, Locator][] = [
      ["what is changed", card.getByText("Change hunks.txt")],
      ["the hunk list", card.getByRole("listbox", { name: "Hunks" })],
      ...[1, 2, 3].map((n): [string, Locator] => [`hunk ${n}`, card.getByRole("option", { name: new RegExp(`^Hunk ${n} of 3`) })]),
      ["the rule", card.getByRole("textbox", { name: "Approval rule" })],
      ["the rule in words", card.getByTestId("scope-words")],
      ["the key hint", card.getByTestId("key-hint")],
    ];
    for (const [what, part] of parts) {
      await part.scrollIntoViewIfNeeded();
      await expectInside(part, await box(card), what);
      // Nothing inside the part is hidden behind its own edge (one scroller, the card's body, not one per part).
      const hidden = await part.evaluate((el) => el.scrollHeight - el.clientHeight);
      expect(hidden, `${what} hides none of its text`).toBeLessThanOrEqual(1);
    }
    await expectNoSideShift(page, "after scrolling the card");
    await screenshot(page, `header-fit-${size.width}x${size.height}`);
  });
}
