/** Images in a message: pasted into the composer, shown, removable, sent to the model, kept in the transcript. */
import type { Page } from "@playwright/test";
import { chooseModel, newSession, openWorkspace, transcript, waitIdle } from "../helpers/app";
import { expect, screenshot, test } from "../helpers/fixtures";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** What pasting a screenshot does: a paste event whose clipboard holds an image file. */
async function pasteImage(page: Page, name: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).evaluate(
    (el, [b64, fileName]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], fileName, { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [PNG, name] as const,
  );
}

test("a pasted screenshot is attached, can be removed, and reaches the model with the message", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await chooseModel(page, "Anthropic");
  await newSession(page);

  const attached = page.getByRole("list", { name: "Attached images" });
  await pasteImage(page, "first.png");
  await pasteImage(page, "second.png");
  await expect(attached.getByRole("listitem")).toHaveCount(2);
  await attached.getByRole("button", { name: "Remove image 2" }).click();
  await expect(attached.getByRole("listitem")).toHaveCount(1);
  // Claude reads images: no warning.
  await expect(attached.getByRole("note")).toHaveCount(0);
  await screenshot(page, "composer-image-attached");

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("What is wrong in this screenshot?");
  await box.press("Enter");
  await expect(attached).toHaveCount(0);
  await expect(transcript(page).getByLabel("Your message").getByRole("img", { name: "Attached image" })).toHaveCount(1);
  await expect
    .poll(async () => (await host.fauxRequests()).find((r) => r.images > 0))
    .toMatchObject({ route: "anthropic", images: 1, accepted: true });
  // The demo answers these without an edit to approve: the turn ends by itself.
  await waitIdle(page);
});

test("attaching an image for a model that cannot read images says so", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await chooseModel(page, "Ollama (local)");
  await newSession(page);
  await pasteImage(page, "shot.png");
  await expect(page.getByRole("list", { name: "Attached images" }).getByRole("note")).toContainText("does not read images");
});

test("an image queued behind a running turn comes back with its text on Stop", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Write a long essay [slow]");
  await box.press("Enter");
  await expect(transcript(page).getByLabel("Assistant message (streaming)")).toContainText("Streaming a long answer");

  await pasteImage(page, "later.png");
  await box.fill("And look at this one.");
  await box.press("Enter");
  await expect(page.getByRole("list", { name: "Queued messages" })).toContainText("And look at this one.");
  const attached = page.getByRole("list", { name: "Attached images" });
  await expect(attached).toHaveCount(0);

  await page.getByRole("button", { name: "Stop" }).click();
  await expect(box).toHaveValue("And look at this one.");
  await expect(attached.getByRole("listitem")).toHaveCount(1);
});
