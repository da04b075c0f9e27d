/**
 * Runs one tool call and prints its tool-result message as JSON.
 *
 *   npm run tool -- --workspace <dir> --tool <name> --args '<json>' [--approve]
 *
 * Side-effect tools (write, edit, bash) are refused unless --approve is given.
 * Exit code: 0 for a successful call, 1 for a tool error, 2 for bad usage.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { createToolRuntime } from "../electron/core/tools";

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run tool -- --workspace <dir> --tool <name> --args '<json>' [--approve]\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        workspace: { type: "string" },
        tool: { type: "string" },
        args: { type: "string", default: "{}" },
        approve: { type: "boolean", default: false },
        id: { type: "string", default: "cli-call-1" },
      },
      strict: true,
    }));
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
  if (!values.workspace) usage("--workspace is required");
  if (!values.tool) usage("--tool is required");

  let args: Record<string, unknown> = {};
  let argumentsError: string | undefined;
  try {
    const parsed = z.record(z.string(), z.unknown()).safeParse(JSON.parse(values.args ?? "{}"));
    if (parsed.success) args = parsed.data;
    else argumentsError = "the arguments must be a JSON object";
  } catch (err) {
    argumentsError = err instanceof Error ? err.message : String(err);
  }

  const runtime = createToolRuntime({ workspaceRoot: values.workspace });
  const call = { id: values.id ?? "cli-call-1", name: values.tool, arguments: args, ...(argumentsError ? { argumentsError } : {}) };
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  const outcome = await runtime.run(call, {
    signal: controller.signal,
    ask: () =>
      Promise.resolve(
        values.approve ? { approved: true } : { approved: false, reason: "side-effect tools need --approve on the command line" },
      ),
  });
  process.stdout.write(`${JSON.stringify(runtime.toResultMessage(call, outcome), null, 2)}\n`);
  process.exitCode = outcome.ok ? 0 : 1;
}

void main();
