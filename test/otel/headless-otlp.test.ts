/**
 * `npm run agent -- run --otlp <url>`: the headless run sends its session's
 * trace to an OTLP/HTTP receiver when it ends, with the headers of
 * OTEL_EXPORTER_OTLP_HEADERS, against the faux provider.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { otlpTargetFrom, parseOtlpHeaders } from "../../electron/core/otel/env-target";
import { CLI_TEST_TIMEOUT_MS } from "../timeouts";
import { startReceiver } from "./receiver";

let faux: FauxProvider;
let dir: string;
let workspace: string;
let dbPath: string;

beforeAll(async () => {
  faux = await startFauxProvider();
  dir = mkdtempSync(join(tmpdir(), "wb-otlp-run-"));
  workspace = join(dir, "project");
  mkdirSync(workspace);
  dbPath = join(dir, "workbench.db");
  const workbench = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: {} });
  const res = await workbench.handle("settings.update", { baseUrls: { anthropic: faux.baseUrls.anthropic } });
  expect(res.ok).toBe(true);
  await workbench.close();
});

afterAll(async () => {
  await faux.close();
  rmSync(dir, { recursive: true, force: true });
});

function runAgent(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "agent", "--", "run", "--workspace", workspace, "--db", dbPath, ...args], {
      cwd: process.cwd(),
      env: { ...process.env, ANTHROPIC_API_KEY: "sk-ant-run-test", AGENT_WORKBENCH_HOME: join(dir, "home"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

describe("headless run trace export", () => {
  it("reads the standard variables", () => {
    expect(parseOtlpHeaders("Authorization=Basic%20abc%3D,x-a=1,bad,=x")).toEqual({ Authorization: "Basic abc=", "x-a": "1" });
    expect(otlpTargetFrom(undefined, {})).toBeNull();
    expect(
      otlpTargetFrom(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }),
    ).toMatchObject({
      endpoint: "http://c:4318",
      protocol: "http/json",
      captureContent: false,
    });
    expect(() => otlpTargetFrom("http://c:4317", { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/not supported/);
  });

  it(
    "--otlp sends the run's session as GenAI spans, with the headers from the environment and no content",
    async () => {
      const receiver = await startReceiver();
      try {
        writeFileSync(join(workspace, "notes.md"), "ship on Friday\n");
        faux.script([
          { type: "reply", content: [{ type: "toolCall", name: "read", arguments: { path: "notes.md" } }] },
          { type: "reply", content: [{ type: "text", text: "It ships on Friday." }] },
        ]);
        const run = await runAgent(["--model", "anthropic/claude-sonnet-4-5", "--otlp", receiver.url, "When does it ship?"], {
          OTEL_EXPORTER_OTLP_HEADERS: "x-team=reviewers",
        });
        expect(run.stderr).toContain("trace: ");
        expect(run.code).toBe(0);
        expect(receiver.received[0].headers["x-team"]).toBe("reviewers");
        const spans = receiver.spans();
        const ops = spans.map((s) => s.attributes["gen_ai.operation.name"]).sort();
        expect(ops).toEqual(["chat", "chat", "execute_tool", "invoke_agent"]);
        const agent = spans.find((s) => s.attributes["gen_ai.operation.name"] === "invoke_agent")!;
        for (const s of spans) if (s !== agent) expect(s.parentSpanId).toBe(agent.spanId);
        expect(spans.find((s) => s.attributes["gen_ai.operation.name"] === "chat")!.attributes["gen_ai.provider.name"]).toBe("anthropic");
        expect(JSON.stringify(spans)).not.toContain("Friday");
      } finally {
        await receiver.close();
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
