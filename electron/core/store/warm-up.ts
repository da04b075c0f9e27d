/**
 * The statements of the first reads after start (a session's summary, its
 * head, its last row and a range of its entries), prepared and run once on
 * keys no session has (session number 0 is never assigned). The first real
 * `session.load` then finds them compiled. Reads no session's data.
 */
import type { StoreContext } from "./db";
import { entryRows, lastEntry, sessionHead } from "./entries";
import { getSession } from "./sessions";

export function warmReadPaths(ctx: StoreContext): void {
  getSession(ctx, "");
  sessionHead(ctx, "");
  lastEntry(ctx, 0);
  for (const row of entryRows(ctx, 1, 0)) void row;
}
