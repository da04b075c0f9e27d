/**
 * The demo model on a real repository no one here wrote (p-limit, copied into
 * e2e/fixtures): the whole core runs (real tools, real store, real adapters)
 * and each first turn — a greeting, "explain <file>", "add a comment to
 * <file>" — ends without an error, does what was asked and nothing else.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from "../../shared/protocol";
import { createDemoResponder } from "../../electron/core/faux";
import { intentOf, listedFiles, pickFile, readLines, uniqueAnchor } from "../../electron/core/faux/demo-reading";
import { messagesOf, startHarness, type Harness } from "../agent/harness";

const FIXTURE = join(process.cwd(), "e2e", "fixtures", "p-limit");
const FILES = Object.fromEntries(readdirSync(FIXTURE).map((f) => [f, readFileSync(join(FIXTURE, f), "utf8")]));
const DEMO = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-6" } as const;

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** One turn with the demo agent answering; approvals are granted as they come. */
async function firstTurn(
  text: string,
  extra: Record<string, string> = {},
): Promise<{ messages: Message[]; calls: ToolCall[]; results: ToolResultMessage[] }> {
  h = await startHarness({ files: { ...FILES, ...extra }, model: DEMO });
  h.faux.setDefaultResponder(createDemoResponder({ pace: { chunkSize: 64, chunkDelayMs: 0 } }));
  const harness = h;
  const off = harness.workbench.onEvent((event, payload) => {
    if (event !== "turn.state") return;
    const state = payload as { pendingApproval: { toolCallId: string } | null };
    if (state.pendingApproval)
      void harness.call("approval.answer", {
        sessionId: harness.sessionId,
        toolCallId: state.pendingApproval.toolCallId,
        decision: "approve",
      });
  });
  await harness.turn(text);
  off();
  const messages = messagesOf((await harness.call("session.load", { sessionId: harness.sessionId })).entries);
  const calls = messages.flatMap((m) => (m.role === "assistant" ? m.content.filter((b): b is ToolCall => b.type === "toolCall") : []));
  const results = messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  return { messages, calls, results };
}

function expectCleanEnd(messages: Message[], results: ToolResultMessage[]): AssistantMessage {
  const answers = messages.filter((m): m is AssistantMessage => m.role === "assistant");
  expect(answers.map((m) => m.stopReason).filter((r) => r === "error" || r === "aborted")).toEqual([]);
  expect(results.filter((r) => r.isError).map((r) => r.content)).toEqual([]);
  const last = answers.at(-1);
  expect(last?.stopReason).toBe("stop");
  return last as AssistantMessage;
}

const textOf = (m: AssistantMessage) => m.content.map((b) => (b.type === "text" ? b.text : "")).join("");

describe("the demo model on a real repository", () => {
  it('answers "hello" in words, without touching a file', async () => {
    const { messages, calls, results } = await firstTurn("hello");
    const last = expectCleanEnd(messages, results);
    expect(calls).toEqual([]);
    expect(textOf(last)).toMatch(/^Hello!/);
  });

  it("explains a file without proposing an edit", async () => {
    const { messages, calls, results } = await firstTurn("explain index.js");
    const last = expectCleanEnd(messages, results);
    expect(calls.map((c) => c.name)).toEqual(["list", "read"]);
    expect(calls[1].arguments).toEqual({ path: "index.js" });
    expect(textOf(last)).toContain("`index.js` has");
    expect(textOf(last)).toContain("pLimit");
    expect(readFileSync(join(h?.workspace ?? "", "index.js"), "utf8")).toBe(FILES["index.js"]);
  });

  it.each(["index.js", "readme.md"])("adds a comment to %s with an anchor that occurs once, and the edit applies", async (file) => {
    const { messages, calls, results } = await firstTurn(`add a comment to ${file}`);
    expectCleanEnd(messages, results);
    expect(calls.map((c) => c.name)).toEqual(["list", "read", "edit"]);
    const after = readFileSync(join(h?.workspace ?? "", file), "utf8");
    expect(after).toContain("Reviewed by the Agent Workbench demo agent.");
    expect(after.length).toBeGreaterThan(FILES[file].length);
  });

  it("does not anchor on a title that recurs inside a later heading (slugify's readme: AMBIGUOUS_MATCH)", async () => {
    const readme = "# slugify\n\n> Slugify a string\n\n## Usage\n\n## API\n\n### slugify(string, options?)\n";
    const { messages, calls, results } = await firstTurn("add a comment to API.md", { "API.md": readme });
    expectCleanEnd(messages, results);
    const edit = calls.find((c) => c.name === "edit");
    expect(edit?.arguments).toMatchObject({ path: "API.md", edits: [{ oldText: "> Slugify a string" }] });
  });
});

describe("what the demo reads", () => {
  it("tells a greeting, an explanation, a change and a question apart", () => {
    expect(intentOf("hello")).toBe("greet");
    expect(intentOf("Hi there!")).toBe("greet");
    expect(intentOf("explain index.js")).toBe("explain");
    expect(intentOf("What does @src/a.ts do?")).toBe("explain");
    expect(intentOf("add a comment to index.js")).toBe("change");
    expect(intentOf("Please add a review note to README.md.")).toBe("change");
    expect(intentOf("What is in this workspace?")).toBe("explore");
  });

  it("reads a list tree as paths, so a bare name finds the nested file", () => {
    const tree = "./\n  README.md\n  src/\n    lib/\n      a.ts\n    index.ts\n  package.json";
    expect(listedFiles(tree)).toEqual(["README.md", "src/lib/a.ts", "src/index.ts", "package.json"]);
    expect(pickFile("explain a.ts", tree)).toBe("src/lib/a.ts");
    expect(pickFile("hello there, what's up", tree)).toBe("README.md");
  });

  it("never anchors on a line that also occurs inside another line", () => {
    const lines = readLines(
      ["1\t}", "2\tfunction a() {", "3\t  return 1;", "4\t}", "5\tfunction b() {", "6\t  return 1;", "7\t}"].join("\n"),
    );
    expect(uniqueAnchor(lines)).toBe("function a() {");
    expect(uniqueAnchor(readLines("1\t#!/usr/bin/env node\n2\tmain();"))).toBe("main();");
    expect(uniqueAnchor(readLines("1\tx\n2\tx"))).toBeNull();
  });
});
