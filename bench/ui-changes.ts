/**
 * The Changes view and per-hunk review, for `npm run bench:ui`.
 *
 * - changesViewMs: a session that changed 500 files (4 hunks each, 2,000
 *   hunks) is open; from the click on "Changes" to the painted frame showing
 *   the file list (review.changes over the whole session, the list's first
 *   render). Median of 5 openings. Target <= 300.
 * - hunkToggleMs: a proposed edit with 40 hunks waits for approval with the
 *   diff panel showing it; from a key press in the hunk list (R / A
 *   alternately) to the painted frame with the hunk rejected/accepted in the
 *   card and in Monaco. Median of 20 presses. Target <= 50.
 */
import type { Page } from "@playwright/test";
import type { SessionEntry } from "../shared/protocol";
import { emptyUsage } from "../shared/protocol";
import { reply, text, toolCall, type FauxReply, type FauxRequest } from "../electron/core/faux";

export const CHANGES_FILES = 500;
export const HUNKS_PER_FILE = 4;
export const HUNK_MARK = "[bench-hunks]";
export const HUNK_FILE = "hunks-bench.txt";
const PROPOSED_HUNKS = 40;

const fileLines = (i: number) => Array.from({ length: 40 }, (_, l) => `export const v${l} = ${i} * ${l};`);

/** A session whose edit results changed CHANGES_FILES files, HUNKS_PER_FILE hunks each. */
export function changesEntries(start = 1_700_000_000_000): SessionEntry[] {
  const out: SessionEntry[] = [];
  let t = start;
  const model = { provider: "anthropic", api: "anthropic-messages" as const, id: "claude-sonnet-4-6" };
  out.push({ type: "message", message: { role: "user", content: [{ type: "text", text: "Refactor every module." }], timestamp: t } });
  for (let i = 0; i < CHANGES_FILES; i++) {
    t += 100;
    const path = `src/pkg-${i % 20}/module-${i}.ts`;
    const before = fileLines(i);
    const after = before.slice();
    for (let h = 0; h < HUNKS_PER_FILE; h++) after[2 + h * 10] = `export const v${2 + h * 10} = ${i} * ${2 + h * 10} + 1; // changed`;
    const id = `toolu_c${i}`;
    out.push({
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id, name: "write", arguments: { path, content: after.join("\n") + "\n" } }],
        stopReason: "toolUse",
        model,
        usage: emptyUsage(),
        timestamp: t,
      },
    });
    out.push({
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: id,
        toolName: "write",
        isError: false,
        content: [{ type: "text", text: `Wrote ${path}.` }],
        details: {
          path,
          created: false,
          bytes: 1200,
          diff: { unifiedDiff: "", added: HUNKS_PER_FILE, removed: HUNKS_PER_FILE },
          before: before.join("\n") + "\n",
          after: after.join("\n") + "\n",
        },
        timestamp: t + 10,
      },
    });
  }
  return out;
}

export function hunkFileText(): string {
  return Array.from({ length: PROPOSED_HUNKS * 5 }, (_, l) => `line ${l + 1}\n`).join("");
}

/** The faux reply for a message with HUNK_MARK: an edit of HUNK_FILE with PROPOSED_HUNKS hunks. */
export function hunkReply(request: FauxRequest): FauxReply | null {
  const last = request.lastTurn;
  if (last?.role !== "user" || !last.text.includes(HUNK_MARK)) return null;
  const edits = Array.from({ length: PROPOSED_HUNKS }, (_, h) => ({ oldText: `line ${h * 5 + 3}\n`, newText: `LINE ${h * 5 + 3}\n` }));
  return reply([text("Proposing many small changes."), toolCall("edit", { path: HUNK_FILE, edits })]);
}

const CHANGES_SCRIPT = `(async () => {
  const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(0);
  }));
  const button = () => [...document.querySelectorAll("header button")].find((b) => b.textContent.trim() === "Changes");
  const rowsShown = () => document.querySelector('[aria-label="Changed files"] [role="listitem"]') !== null;
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    if (button().getAttribute("aria-pressed") === "true") { button().click(); await afterPaint(); }
    await new Promise((r) => setTimeout(r, 200));
    const t0 = performance.now();
    button().click();
    while (!rowsShown()) await new Promise((r) => setTimeout(r, 0));
    await afterPaint();
    times.push(performance.now() - t0);
  }
  button().click();
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], rows: 0 };
})()`;

const TOGGLE_SCRIPT = `(async () => {
  const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(0);
  }));
  const list = document.querySelector('[role="listbox"][aria-label="Hunks"]');
  list.focus();
  await afterPaint();
  const times = [];
  for (let i = 0; i < PRESSES; i++) {
    const key = ["r", "k", "a", "k"][i % 4];
    const t0 = performance.now();
    list.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
    await Promise.resolve();
    await afterPaint();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const rejected = document.querySelectorAll('.hunk-item.rejected').length;
  return { median: times[Math.floor(times.length / 2)], rejected };
})()`;

export async function measureChangesView(page: Page, sessionTitle: string): Promise<{ changesViewMs: number }> {
  await page.getByRole("list", { name: "Session list" }).getByText(sessionTitle).click();
  await page.getByRole("log", { name: "Transcript" }).waitFor();
  await page.getByRole("button", { name: "Changes", exact: true }).waitFor();
  const r = await page.evaluate<{ median: number }>(CHANGES_SCRIPT.replace("RUNS", "5"));
  return { changesViewMs: Math.round(r.median) };
}

/** Sends HUNK_MARK in the open session and times hunk decisions in the approval card. */
export async function measureHunkToggle(page: Page): Promise<{ hunkToggleMs: number; rejected: number }> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(`Change the file ${HUNK_MARK}`);
  await box.press("Enter");
  await page.getByRole("listbox", { name: "Hunks" }).waitFor({ timeout: 60_000 });
  await page.locator(".diff-panel .editor.modified").waitFor({ timeout: 60_000 });
  const r = await page.evaluate<{ median: number; rejected: number }>(TOGGLE_SCRIPT.replace("PRESSES", "20"));
  return { hunkToggleMs: Math.round(r.median * 10) / 10, rejected: r.rejected };
}
