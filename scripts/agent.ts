/**
 * The headless agent: one turn in the same core and database as the app.
 *
 *   npm run agent -- run --workspace <dir> [--model <provider>/<model>] [--reasoning <level>]
 *                        [--session <id> | --continue] [--approve all|read-only|none] [--json] [--db <file>] "<prompt>"
 *
 * Prints the answer (or, with --json, one JSON event per line: {"event","payload"}) on stdout and
 * progress on stderr. Exit code: 0 answered, 1 the turn failed, 2 bad usage.
 * Keys come from environment variables (ANTHROPIC_API_KEY, OPENAI_API_KEY, …), base URLs from the
 * app's settings in that database, as in web mode.
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ReasoningLevelSchema } from "../shared/protocol";
import { runHeadless, type ApproveMode } from "../electron/core/host/headless-run";
import { startCore } from "../electron/core/host/start-core";
import { defaultDataDir } from "../electron/core/host/data-dir";

const USAGE =
  'usage: npm run agent -- run --workspace <dir> [--model <provider>/<model>] [--reasoning default|off|low|medium|high] [--session <id> | --continue] [--approve all|read-only|none] [--json] [--db <file>] "<prompt>"';

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        workspace: { type: "string" },
        model: { type: "string" },
        reasoning: { type: "string" },
        session: { type: "string" },
        continue: { type: "boolean", default: false },
        approve: { type: "string", default: "none" },
        json: { type: "boolean", default: false },
        db: { type: "string" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    });
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const [command, ...words] = positionals;
  if (command !== "run") usage(command === undefined ? "missing command" : `unknown command ${command}`);
  const prompt = words.join(" ").trim();
  if (!prompt) usage("missing prompt");
  if (!values.workspace) usage("--workspace is required");
  if (values.session !== undefined && values.continue) usage("--session and --continue exclude each other");
  const approve = values.approve;
  if (approve !== "all" && approve !== "read-only" && approve !== "none") usage(`--approve must be all, read-only or none (got ${approve})`);
  const reasoning = values.reasoning === undefined ? undefined : ReasoningLevelSchema.safeParse(values.reasoning);
  if (reasoning && !reasoning.success) usage(`--reasoning must be one of ${ReasoningLevelSchema.options.join(", ")}`);

  const dbPath = resolve(values.db ?? join(defaultDataDir(), "workbench.db"));
  mkdirSync(dirname(dbPath), { recursive: true });
  const core = await startCore({
    dbPath,
    host: { mode: "web", notices: [] },
    version: process.env.npm_package_version ?? "0.0.0",
    demo: "auto",
    // Every side effect the saved policy would allow asks instead, so --approve decides it (and the decision is
    // stored as the user's); what the saved policy denies stays denied ("deny wins").
    approvalPolicy: (saved) => ({
      write: saved.write === "deny" ? "deny" : "ask",
      edit: saved.edit === "deny" ? "deny" : "ask",
      bash: saved.bash === "deny" ? "deny" : "ask",
      bashAllow: [],
      bashDeny: saved.bashDeny,
    }),
  });
  let code = 1;
  try {
    code = await runHeadless(
      core.workbench,
      {
        workspace: resolve(values.workspace),
        prompt,
        model: values.model,
        reasoning: reasoning?.data,
        session: values.continue ? { continue: true } : values.session,
        approve: approve as ApproveMode,
        json: values.json,
      },
      { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
    );
  } finally {
    await core.close();
  }
  process.exitCode = code;
}

main().catch((err: unknown) => {
  process.stderr.write(`agent: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
