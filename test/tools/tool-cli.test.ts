/**
 * `npm run tool`: one call, its tool-result message as JSON on stdout;
 * side-effect tools refused without --approve.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolResultMessageSchema } from "../../shared/protocol";
import { makeFixture, type Fixture } from "./helpers";

const run = promisify(execFile);
const TSX = join(process.cwd(), "node_modules", ".bin", "tsx");

async function tool(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(TSX, ["scripts/tool.ts", ...args], { cwd: process.cwd() });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "" };
  }
}

describe("tool CLI", () => {
  let fx: Fixture;
  beforeAll(() => {
    fx = makeFixture();
    writeFileSync(join(fx.ws, "hello.txt"), "hello\n");
  });
  afterAll(() => fx.cleanup());

  it("prints the tool-result message of a read", async () => {
    const { code, stdout } = await tool(["--workspace", fx.ws, "--tool", "read", "--args", '{"path":"hello.txt"}']);
    expect(code).toBe(0);
    const message = ToolResultMessageSchema.parse(JSON.parse(stdout));
    expect(message).toMatchObject({ toolName: "read", isError: false, content: [{ type: "text", text: "1\thello" }] });
    // Each CLI run starts tsx and loads the tools (10+ s on a loaded 2-core machine); no timing is asserted.
  }, 120_000);

  it("refuses a write without --approve and performs it with --approve", async () => {
    const args = ["--workspace", fx.ws, "--tool", "write", "--args", '{"path":"out.txt","content":"x"}'];
    const refused = await tool(args);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ isError: true, details: { errorCode: "DENIED" } });
    expect(existsSync(join(fx.ws, "out.txt"))).toBe(false);
    const done = await tool([...args, "--approve"]);
    expect(done.code).toBe(0);
    expect(readFileSync(join(fx.ws, "out.txt"), "utf8")).toBe("x");
  }, 120_000);
});
