/**
 * The demo agent behind `npm run faux`, played through the real adapters on
 * every wire API: list → read → edit → answer, each request accepted.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDemoResponder, startFauxProvider, type FauxProvider, type FauxRoute } from "../../electron/core/faux";
import type { Message, ToolCall } from "../../shared/protocol";
import type { ToolSpec } from "../../electron/core/providers/types";
import {
  ALL_ROUTES as ROUTES,
  context,
  fakeAwsCredentials,
  run,
  targets,
  toolResult,
  user,
  type Target,
} from "../providers/adapters-fixtures";

const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const DEMO_TOOLS: ToolSpec[] = [
  { name: "list", description: "List a folder.", parameters: obj({ path: { type: "string" } }, []) },
  { name: "read", description: "Read a file.", parameters: obj({ path: { type: "string" } }, ["path"]) },
  {
    name: "edit",
    description: "Edit a file.",
    parameters: obj(
      {
        path: { type: "string" },
        edits: { type: "array", items: obj({ oldText: { type: "string" }, newText: { type: "string" } }, ["oldText", "newText"]) },
      },
      ["path", "edits"],
    ),
  },
];

/** Stand-ins for the real tools: just enough output for the demo to react to. */
function runTool(call: ToolCall): string {
  if (call.name === "list") return "./\n  README.md\n  src/\n    index.ts";
  if (call.name === "read") return "1\t# Demo project\n2\t\n3\tA tiny project.";
  if (call.name === "edit") return "Applied 1 edit to README.md.";
  return "unknown tool";
}

let faux: FauxProvider;
let T: Record<FauxRoute, Target>;

beforeAll(async () => {
  fakeAwsCredentials();
  faux = await startFauxProvider();
  faux.setDefaultResponder(createDemoResponder({ pace: { chunkSize: 64, chunkDelayMs: 0 } }));
  T = targets(faux);
});
afterAll(() => faux.close());
beforeEach(() => {
  faux.reset();
});

describe.each(ROUTES)("the demo agent on %s", (route) => {
  it("lists, reads, edits and answers, every request accepted", async () => {
    const history: Message[] = [user("Please tidy up the project.")];
    const called: ToolCall[] = [];
    for (let turn = 0; turn < 6; turn++) {
      const { message } = await run(T[route], context(history, DEMO_TOOLS), { reasoning: "low" });
      history.push(message);
      const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
      if (calls.length === 0) break;
      for (const call of calls) {
        called.push(call);
        history.push(toolResult(call.id, call.name, runTool(call)));
      }
    }
    expect(called.map((c) => c.name)).toEqual(["list", "read", "edit"]);
    expect(called[1].arguments).toEqual({ path: "README.md" });
    expect(called[2].arguments).toEqual({
      path: "README.md",
      edits: [{ oldText: "# Demo project", newText: "<!-- Reviewed by the Agent Workbench demo agent. -->\n# Demo project" }],
    });
    const last = history[history.length - 1];
    expect(last.role === "assistant" && last.stopReason).toBe("stop");
    expect(faux.requests.filter((r) => !r.accepted).map((r) => r.rejection?.message)).toEqual([]);
  });
});

describe("the demo agent without tools", () => {
  it("answers in text and says it needs tools", async () => {
    const { message } = await run(T.anthropic, context([user("Please tidy up the project.")], []));
    expect(message.content).toEqual([{ type: "text", text: expect.stringContaining("Offer me tools") }]);
  });

  // Anthropic is the API whose tool results carry an error flag (`is_error`).
  it("reports a failed tool call instead of pressing on", async () => {
    const history: Message[] = [user("go")];
    const { message } = await run(T.anthropic, context(history, DEMO_TOOLS));
    const call = message.content.find((b): b is ToolCall => b.type === "toolCall");
    expect(call?.name).toBe("list");
    history.push(message, { ...toolResult(call?.id ?? "", "list", "Permission denied"), isError: true });
    const next = await run(T.anthropic, context(history, DEMO_TOOLS));
    expect(next.message.content).toEqual([{ type: "text", text: expect.stringContaining("The list call failed: Permission denied") }]);
  });
});
