/**
 * A team library on a real PostgreSQL (pg-server.ts), set up with the admin
 * SQL docs/team.md gives (read from the page, so the doc cannot drift from
 * what works), migrated by the owner role as an admin would.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { TeamConnection } from "../../shared/team";
import { migrateTeamSchema } from "../../electron/core/team/schema";
import { startPg, type PgServer } from "./pg-server";

export const PASSWORDS: Record<string, string> = {
  wb_team_owner: "owner-pw-7f3a",
  alice: "alice-pw-91c2",
  bob: "bob-pw-44d1",
  carol: "carol-pw-0e5b",
};

export interface TeamEnv {
  pg: PgServer;
  connection(user: string, project?: string): TeamConnection;
  /** Runs SQL as the schema's owner (the admin's grants). */
  asOwner(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  destroy(): void;
}

/** The ```sql blocks of docs/team.md, in order. */
export function adminSqlBlocks(): string[] {
  const doc = readFileSync(fileURLToPath(new URL("../../docs/team.md", import.meta.url)), "utf8");
  return [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** One statement at a time, as psql sends them (CREATE DATABASE cannot run in the implicit transaction of a multi-statement query). */
async function runStatements(client: pg.Client, sql: string): Promise<void> {
  const statements = sql
    .split("\n")
    .filter((l) => !l.trim().startsWith("--"))
    .join("\n")
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of statements) await client.query(s);
}

export async function startTeamEnv(): Promise<TeamEnv | { skip: string }> {
  const server = await startPg();
  if ("skip" in server) return server;
  const [setup, grants] = adminSqlBlocks();
  // Each role's own password in place of the doc's placeholder.
  const withPasswords = setup.replace(
    /CREATE ROLE (\w+) LOGIN PASSWORD 'change-me'/g,
    (_, role: string) => `CREATE ROLE ${role} LOGIN PASSWORD '${PASSWORDS[role]}'`,
  );
  const [before, after] = withPasswords.split(/^\\connect workbench$/m);
  const admin = server.admin();
  await admin.connect();
  await runStatements(admin, before);
  await admin.end();
  const adminDb = new pg.Client({ connectionString: server.url("postgres", server.superuser.password, "workbench") });
  await adminDb.connect();
  await runStatements(adminDb, after);
  await adminDb.end();
  const ownerUrl = server.url("wb_team_owner", PASSWORDS.wb_team_owner, "workbench");
  const asOwner = async (sql: string, params?: unknown[]) => {
    const c = new pg.Client({ connectionString: ownerUrl });
    await c.connect();
    try {
      return await c.query(sql, params);
    } finally {
      await c.end();
    }
  };
  const owner = new pg.Client({ connectionString: ownerUrl });
  await owner.connect();
  await migrateTeamSchema(owner);
  await owner.query(grants);
  await owner.end();
  return {
    pg: server,
    connection: (user, project = "alpha") => ({
      host: "127.0.0.1",
      port: server.port,
      database: "workbench",
      user,
      tls: "off",
      caFile: null,
      defaultProject: project,
    }),
    asOwner,
    destroy: () => server.destroy(),
  };
}
