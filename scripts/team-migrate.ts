/**
 * Creates or migrates the team library's schema (docs/team.md#the-admin-sql),
 * run by an admin as the role that owns `wb_team`:
 *   PGPASSWORD=… npx tsx scripts/team-migrate.ts postgresql://wb_team_owner@host:5432/workbench
 */
import pg from "pg";
import { migrateTeamSchema } from "../electron/core/team/schema";

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) {
    console.error("usage: tsx scripts/team-migrate.ts postgresql://owner@host:port/database (password in PGPASSWORD)");
    process.exit(2);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    console.log(`team schema at version ${await migrateTeamSchema(client)}`);
  } finally {
    await client.end();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
