/** Workspaces: folders the user has opened, newest first. */
import { randomUUID } from "node:crypto";
import { basename } from "node:path";
import type { Workspace } from "../../../shared/api";
import type { StoreContext } from "./db";
import { StoreError } from "./errors";

interface WorkspaceRow {
  id: string;
  path: string;
  name: string;
  last_opened_at: number;
}

const COLUMNS = "id, path, name, last_opened_at";

function toWorkspace(r: WorkspaceRow): Workspace {
  return { id: r.id, path: r.path, name: r.name, lastOpenedAt: r.last_opened_at };
}

/** Upserts by path and bumps lastOpenedAt; `name` defaults to the folder's base name (kept if omitted on re-open). */
export function addWorkspace(ctx: StoreContext, path: string, name?: string): Workspace {
  if (path.length === 0) throw new StoreError("INVALID_ARGUMENT", "workspace path is empty");
  const now = ctx.now();
  const row = ctx
    .stmt(
      `INSERT INTO workspaces (id, path, name, created_at, last_opened_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (path) DO UPDATE SET last_opened_at = excluded.last_opened_at,
         name = CASE WHEN ? IS NULL THEN workspaces.name ELSE excluded.name END
       RETURNING ${COLUMNS}`,
    )
    .get(randomUUID(), path, name ?? (basename(path) || path), now, now, name ?? null) as WorkspaceRow;
  return toWorkspace(row);
}

export function getWorkspace(ctx: StoreContext, id: string): Workspace | undefined {
  const row = ctx.stmt(`SELECT ${COLUMNS} FROM workspaces WHERE id = ?`).get(id) as WorkspaceRow | undefined;
  return row && toWorkspace(row);
}

export function recentWorkspaces(ctx: StoreContext, limit = 10): Workspace[] {
  const rows = ctx
    .stmt(`SELECT ${COLUMNS} FROM workspaces ORDER BY last_opened_at DESC, rowid DESC LIMIT ?`)
    .all(clampLimit(limit, 1000)) as WorkspaceRow[];
  return rows.map(toWorkspace);
}

export function clampLimit(limit: number, max: number): number {
  if (!Number.isFinite(limit)) return max;
  return Math.max(1, Math.min(max, Math.floor(limit)));
}
