/**
 * Writes one session straight into the store before the host's workbench opens
 * it (host-main.ts, env E2E_SEED): entries as a stored session or an imported
 * export may hold them, including what no live turn writes (a timestamp of
 * -1e20, token counts in the quadrillions). Each entry still passes the
 * store's protocol check, as an entry on disk must.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { SessionStore } from "../../electron/core/store";
import { ModelRefSchema, type SessionEntry } from "../../shared/protocol";

export const SeedSchema = z.object({
  workspace: z.string(),
  title: z.string(),
  model: ModelRefSchema,
  entries: z.array(z.unknown()),
  /** More sessions, each in its own workspace: a folder of this name next to the seeded workspace (search-everything.spec.ts). */
  others: z
    .array(z.object({ folder: z.string().regex(/^[\w-]+$/u), title: z.string(), model: ModelRefSchema, entries: z.array(z.unknown()) }))
    .optional(),
});
export type Seed = z.infer<typeof SeedSchema>;

export function seedSession(dbPath: string, seed: Seed): void {
  const store = SessionStore.open(dbPath);
  try {
    // The others first: the seeded workspace stays the most recent one (the app opens it at start).
    for (const other of seed.others ?? []) {
      const folder = join(dirname(realpathSync(seed.workspace)), other.folder);
      mkdirSync(folder, { recursive: true });
      const ws = store.addWorkspace(realpathSync(folder));
      const s = store.createSession({ workspaceId: ws.id, title: other.title, model: other.model });
      for (const entry of other.entries) store.appendEntry(s.id, entry as SessionEntry);
    }
    const workspace = store.addWorkspace(realpathSync(seed.workspace));
    const session = store.createSession({ workspaceId: workspace.id, title: seed.title, model: seed.model });
    // appendEntry validates each entry against the protocol and throws on one that does not match.
    for (const entry of seed.entries) store.appendEntry(session.id, entry as SessionEntry);
  } finally {
    store.close();
  }
}
