/**
 * Web mode's folder browser: a new user picks the workspace by clicking
 * through folders (the core lists sub-folders only), with Up, a typed path,
 * hidden folders on request, and a clear error for a path that is not there.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "../helpers/fixtures";

test("a workspace is opened by browsing folders, not only by typing its path", async ({ page, host }) => {
  const base = join(host.dir, "browse-root");
  mkdirSync(join(base, "clients", "acme-app", "src"), { recursive: true });
  mkdirSync(join(base, "clients", ".cache"), { recursive: true });
  mkdirSync(join(base, "notes"), { recursive: true });
  writeFileSync(join(base, "clients", "README.md"), "not a folder\n");

  await page.goto(host.url);
  await page.getByRole("button", { name: "Browse…" }).click();
  const dialog = page.getByRole("dialog", { name: "Choose a workspace folder" });
  await expect(dialog).toBeVisible();

  // Type where to start, then walk down by clicking.
  await dialog.getByLabel("Folder path").fill("/no/such/folder");
  await dialog.getByRole("button", { name: "Go" }).click();
  await expect(dialog.getByRole("alert")).toContainText("no folder /no/such/folder");
  await dialog.getByLabel("Folder path").fill(base);
  await dialog.getByLabel("Folder path").press("Enter");
  const list = () => dialog.getByRole("list", { name: /^Folders in / });
  await expect(list()).toHaveAccessibleName(`Folders in ${base}`);
  await expect(list().getByRole("button")).toHaveText(["clients", "notes"]);
  await list().getByRole("button", { name: "clients" }).click();
  // Folders only (no README.md), hidden ones only on request.
  await expect(list().getByRole("button")).toHaveText(["acme-app"]);
  await dialog.getByLabel("Show hidden folders").check();
  await expect(list().getByRole("button")).toHaveText([".cache", "acme-app"]);
  await list().getByRole("button", { name: "acme-app" }).click();
  await expect(list().getByRole("button")).toHaveText(["src"]);
  await dialog.getByRole("button", { name: "Up" }).click();
  await expect(list()).toHaveAccessibleName(`Folders in ${join(base, "clients")}`);
  await list().getByRole("button", { name: "acme-app" }).click();

  await dialog.getByRole("button", { name: "Open acme-app" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Sessions" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Workspace" })).toContainText("acme-app");
});
