/**
 * Start-up: a reload shows the open session from the requests the entry script
 * sends at once (each asked once), and the transcript's markdown stays
 * sanitized with its sanitizer configured once for all blocks.
 */
import { newSession, openWorkspace, send, transcript, waitIdle } from "../helpers/app";
import { expect, test } from "../helpers/fixtures";

test("a reload shows the open session, asking for it and for app.info once each", async ({ page, host }) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "What is in this project? [quiet]");
  await waitIdle(page);
  await expect(transcript(page).getByText("Quiet answer")).toBeVisible();

  const asked: string[] = [];
  page.on("websocket", (ws) =>
    ws.on("framesent", (f) => {
      const m = /"method":"([^"]+)"/.exec(String(f.payload));
      if (m) asked.push(m[1]);
    }),
  );
  await page.reload();
  await expect(transcript(page).getByText("Quiet answer")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeEnabled();
  await expect.poll(() => asked.includes("session.list")).toBe(true);
  // The session open last time and app.info go out first (from the entry script), and nothing asks for them again.
  expect(asked.slice(0, 2)).toEqual(["session.load", "app.info"]);
  expect(asked.filter((m) => m === "session.load")).toHaveLength(1);
  expect(asked.filter((m) => m === "app.info")).toHaveLength(1);
  // The app's chunk and its imports are named in the page itself, so they download while it is parsed.
  const preloaded = await page.locator('link[rel="modulepreload"]').evaluateAll((links) => links.map((l) => l.getAttribute("href")));
  expect(preloaded.some((href) => /\/start-[\w-]+\.js$/.test(href ?? ""))).toBe(true);
  const loadedScripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((r) => r.name.endsWith(".js"))
      .map((r) => new URL(r.name).pathname),
  );
  for (const href of preloaded) expect(loadedScripts).toContain(new URL(href ?? "", page.url()).pathname);
});

test("HTML in an answer is defused: no handlers, scripts, styles or forms; links open outside the app", async ({
  page,
  host,
  browserErrors,
}) => {
  await page.goto(host.url);
  await openWorkspace(page, host.workspace);
  await newSession(page);
  await send(page, "Show me some HTML [unsafe-html]");
  await waitIdle(page);
  const answer = transcript(page).locator(".markdown").last();
  await expect(answer.getByText("bold")).toBeVisible();
  const found = await answer.evaluate((el) => ({
    handlers: [...el.querySelectorAll("*")].filter((n) => [...n.attributes].some((a) => a.name.startsWith("on"))).length,
    forbidden: el.querySelectorAll("script, style, form, input").length,
    jsLinks: [...el.querySelectorAll("a")].filter((a) => (a.getAttribute("href") ?? "").startsWith("javascript:")).length,
    links: [...el.querySelectorAll("a[href^='https:']")].map((a) => `${a.getAttribute("target")} ${a.getAttribute("rel")}`),
    xss: (window as unknown as { __xss?: number }).__xss ?? null,
  }));
  expect(found).toEqual({ handlers: 0, forbidden: 0, jsLinks: 0, links: ["_blank noopener noreferrer"], xss: null });
  // Chromium reports the page's CSP blocking the handler while the sanitizer parses the answer (in an inert
  // document, before removing it): expected here, and the only errors allowed.
  const blocked = (e: string) => e.includes("Executing inline event handler violates the following Content Security Policy");
  expect(browserErrors.filter(blocked).length).toBeGreaterThan(0);
  browserErrors.splice(0, browserErrors.length, ...browserErrors.filter((e) => !blocked(e)));
});
