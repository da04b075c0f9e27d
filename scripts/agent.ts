/**
 * The headless agent: one turn in the same core and database as the app.
 *
 *   npm run agent -- run --workspace <dir> [--model <provider>/<model>] [--reasoning <level>]
 *                        [--session <id> | --continue] [--approve all|read-only|none] [--trust-mcp]
 *                        [--max-budget-usd <usd>] [--max-turns <n>] [--otlp <url>] [--json] [--db <file>] "<prompt>"
 *
 * Prints the answer (or, with --json, one JSON event per line: {"event","payload"}, failures as "error"
 * events and a final "result" event) on stdout and
 * progress on stderr. --max-budget-usd caps what the run's requests cost, --max-turns how many model
 * requests it makes; at either the agent makes one last request without tools for a summary, prints
 * it, says which limit stopped it on stderr and exits 1. Exit code: 0 answered, 1 the turn failed or
 * stopped at a limit, 2 bad usage.
 *
 *   npm run agent -- undo --workspace <dir> [--session <id>] [--force] [--json] [--db <file>]
 *
 * "Undo last turn": files and conversation back to before the session's last message (default: the
 * workspace's most recent session), the conversation forked there. Exit code: 0 restored, 1 refused, 2 bad usage,
 * 3 nothing to undo.
 *
 *   npm run --silent agent -- acp [--db <file>]
 *
 * Speaks the Agent Client Protocol on stdin/stdout (docs/acp.md#acp-agent) until stdin closes: an ACP editor
 * (Zed, a JetBrains IDE, …) runs our agent, its sessions stored in the same database. Only JSON-RPC goes to stdout.
 *
 * Keys come from web mode's key file beside that database (saved in Settings) or environment variables
 * (ANTHROPIC_API_KEY, OPENAI_API_KEY, …), base URLs from the app's settings in that database, as in web mode.
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ReasoningLevelSchema } from "../shared/protocol";
import type { ApprovalPolicy } from "../shared/api";
import type { Workbench } from "../electron/core/api/workbench";
import { runHeadless, type HeadlessIo } from "../electron/core/host/headless-run";
import { otlpTargetFrom } from "../electron/core/otel/env-target";
import { undoHeadless } from "../electron/core/host/headless-undo";
import { startCore } from "../electron/core/host/start-core";
import { createFileSecretStore, keyFileFor } from "../electron/core/host/file-secret-store";
import { defaultDataDir } from "../electron/core/host/data-dir";
import { installProcessGuard } from "../electron/core/host/process-guard";
import { createAcpAgent } from "../electron/core/acp/agent-server";
import { acpStdio } from "../electron/core/acp/stdio";

const USAGE = [
  'usage: npm run agent -- run --workspace <dir> [--model <provider>/<model>] [--reasoning default|off|low|medium|high] [--session <id> | --continue] [--approve all|read-only|none] [--trust-mcp] [--max-budget-usd <usd>] [--max-turns <n>] [--otlp <url>] [--json] [--db <file>] "<prompt>"',
  "       npm run agent -- undo --workspace <dir> [--session <id>] [--force] [--json] [--db <file>]",
  "       npm run --silent agent -- acp [--db <file>]",
].join("\n");

// First: a missed catch in the core is logged, never the end of a run halfway through a turn (process-guard.ts).
const guard = installProcessGuard((line) => process.stderr.write(`agent: ${line}\n`));

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
        force: { type: "boolean", default: false },
        "trust-mcp": { type: "boolean", default: false },
        "max-budget-usd": { type: "string" },
        "max-turns": { type: "string" },
        otlp: { type: "string" },
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
  if (command === "acp") {
    if (words.length > 0 || values.workspace !== undefined) usage("acp takes --db only (the editor names the workspace)");
    process.exitCode = await serveAcp(values.db);
    return;
  }
  if (command !== "run" && command !== "undo") usage(command === undefined ? "missing command" : `unknown command ${command}`);
  if (!values.workspace) usage("--workspace is required");
  if (command === "undo") {
    if (words.length > 0) usage("undo takes no prompt");
    if (
      values.model !== undefined ||
      values.reasoning !== undefined ||
      values.continue ||
      values["trust-mcp"] ||
      values["max-budget-usd"] !== undefined ||
      values["max-turns"] !== undefined
    )
      usage("undo takes --session, --force, --json and --db only");
    process.exitCode = await withCore(values.db, (workbench, io) =>
      undoHeadless(
        workbench,
        { workspace: resolve(values.workspace as string), session: values.session, force: values.force, json: values.json },
        io,
      ),
    );
    return;
  }
  const prompt = words.join(" ").trim();
  if (!prompt) usage("missing prompt");
  if (values.session !== undefined && values.continue) usage("--session and --continue exclude each other");
  const approve = values.approve;
  if (approve !== "all" && approve !== "read-only" && approve !== "none")
    usage(`--approve must be all, read-only or none (got ${approve})`);
  const reasoning = values.reasoning === undefined ? undefined : ReasoningLevelSchema.safeParse(values.reasoning);
  if (reasoning && !reasoning.success) usage(`--reasoning must be one of ${ReasoningLevelSchema.options.join(", ")}`);
  const maxCostUsd = values["max-budget-usd"] === undefined ? undefined : Number(values["max-budget-usd"]);
  if (maxCostUsd !== undefined && !(Number.isFinite(maxCostUsd) && maxCostUsd > 0))
    usage(`--max-budget-usd must be a positive amount in USD (got ${values["max-budget-usd"]})`);
  const maxRoundTrips = values["max-turns"] === undefined ? undefined : Number(values["max-turns"]);
  if (maxRoundTrips !== undefined && !(Number.isSafeInteger(maxRoundTrips) && maxRoundTrips > 0))
    usage(`--max-turns must be a positive whole number (got ${values["max-turns"]})`);

  let otlp: ReturnType<typeof otlpTargetFrom> = null;
  try {
    otlp = otlpTargetFrom(values.otlp, process.env);
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
  if (otlp && !/^https?:\/\//u.test(otlp.endpoint)) usage(`--otlp must be an http(s) URL (got ${otlp.endpoint})`);

  process.exitCode = await withCore(
    values.db,
    (workbench, io) =>
      runHeadless(
        workbench,
        {
          workspace: resolve(values.workspace as string),
          prompt,
          model: values.model,
          reasoning: reasoning?.data,
          session: values.continue ? { continue: true } : values.session,
          approve,
          json: values.json,
          trustMcp: values["trust-mcp"],
          ...(otlp ? { otlp } : {}),
          limits: {
            ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
            ...(maxRoundTrips !== undefined ? { maxRoundTrips } : {}),
          },
        },
        io,
      ),
    // Every side effect the saved policy would allow asks instead, so --approve decides it (and the decision is
    // stored as the user's); what the saved policy denies stays denied ("deny wins").
    (saved) => ({
      write: saved.write === "deny" ? "deny" : "ask",
      edit: saved.edit === "deny" ? "deny" : "ask",
      bash: saved.bash === "deny" ? "deny" : "ask",
      bashAllow: [],
      bashDeny: saved.bashDeny,
    }),
  );
}

/** Serves ACP on stdio until the editor closes stdin; resolves with the exit code. */
async function serveAcp(db: string | undefined): Promise<number> {
  // stdout carries JSON-RPC only: anything the core would print goes to stderr.
  console.log = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(" ")}\n`);
  console.info = console.log;
  return withCore(db, async (workbench) => {
    const app = createAcpAgent(workbench, { name: "agent-workbench", version: process.env.npm_package_version ?? "0.0.0" });
    const stream = acpStdio(process.stdout, process.stdin);
    const connection = app.connect(stream);
    await connection.closed;
    return 0;
  });
}

/** Runs `work` on the app's core and database (or `--db`), closing it after; resolves with the exit code. */
async function withCore(
  db: string | undefined,
  work: (workbench: Workbench, io: HeadlessIo) => Promise<number>,
  approvalPolicy?: (saved: ApprovalPolicy) => ApprovalPolicy,
): Promise<number> {
  const dbPath = resolve(db ?? join(defaultDataDir(), "workbench.db"));
  mkdirSync(dirname(dbPath), { recursive: true });
  const keyFile = keyFileFor(dbPath);
  const core = await startCore({
    dbPath,
    // Keys saved in web mode's Settings are in the key file beside the database; environment variables work too.
    host: {
      mode: "web",
      secrets: createFileSecretStore({ filePath: keyFile, onProblem: (message) => process.stderr.write(`keys: ${message}\n`) }),
      secretsWhere: keyFile,
      notices: [],
    },
    version: process.env.npm_package_version ?? "0.0.0",
    demo: "auto",
    ...(approvalPolicy ? { approvalPolicy } : {}),
  });
  guard.reportTo((message) => core.workbench.notice?.("error", message));
  try {
    return await work(core.workbench, {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    await core.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`agent: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
