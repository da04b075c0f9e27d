/** Temp workspaces and a runtime wired to them, for the tool tests. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolRuntime, type AuditEvent, type ToolOutcome, type ToolRuntime, type ToolRuntimeOptions } from "../../electron/core/tools";

export interface Fixture {
  /** Parent temp folder holding `ws` and `outside`. */
  base: string;
  ws: string;
  outside: string;
  audit: AuditEvent[];
  runtime: ToolRuntime;
  cleanup(): void;
}

export function makeFixture(options: Partial<ToolRuntimeOptions> = {}): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "awb-tools-")));
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  mkdirp(ws);
  mkdirp(outside);
  const audit: AuditEvent[] = [];
  const runtime = createToolRuntime({
    workspaceRoot: ws,
    auditSink: (e) => audit.push(e),
    outputDir: join(base, "tool-output"),
    // Tests make many calls on one runtime; budgets have their own tests.
    budget: { maxToolCalls: 1e9, maxOutputBytes: 1e12, maxDurationMs: 1e12, maxSideEffects: 1e9 },
    ...options,
  });
  return { base, ws, outside, audit, runtime, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

function mkdirp(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

let seq = 0;
export function call(name: string, args: Record<string, unknown>) {
  seq++;
  return { id: `call_${seq}`, name, arguments: args };
}

/** The text the model would see for an outcome. */
export function text(runtime: ToolRuntime, outcome: ToolOutcome): string {
  return runtime
    .toResultMessage({ id: "x", name: "x" }, outcome)
    .content.map((b) => (b.type === "text" ? b.text : `[image ${b.mimeType}]`))
    .join("\n");
}

/** Runs a side-effect call with the user approving. */
export async function approved(
  runtime: ToolRuntime,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  return runtime.run(call(name, args), { signal, ask: async () => ({ approved: true }) });
}

export async function readOnly(runtime: ToolRuntime, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  return runtime.runReadOnly(call(name, args));
}
