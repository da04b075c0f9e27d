/**
 * A finished session for the review tests, written into a real SessionStore:
 * two turns on OpenAI Responses (composite `call_…|fc_…` ids, a failed read,
 * an approved edit), a switch to Anthropic, a rate-limit error and its retry,
 * an approved write, a denied bash, and a later edit of the new file. Tool
 * results carry the tools' real `details` shape (tools/file-change.ts).
 */
import type { ModelRef, SessionEntry, ToolResultMessage, Usage } from "../../shared/protocol";
import { SessionStore } from "../../electron/core/store";
import type { ToolCallInput } from "../../electron/core/store";
import { fileDiff } from "../../electron/core/tools/diff";
import type { ToolSpec } from "../../electron/core/providers/types";
import { findModel, findProvider } from "../../electron/core/providers/registry";

export const GPT5: ModelRef = { provider: "openai", api: "openai-responses", id: "gpt-5" };
export const SONNET: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" };
export const GPT41: ModelRef = { provider: "openai", api: "openai-completions", id: "gpt-4.1" };

export const WORKSPACE = "/home/dev/projects/greeter";
export const T0 = Date.UTC(2025, 2, 1, 9, 30, 0);

export const APP_BEFORE = 'export function greet(name: string) {\n  return "Hello, " + name;\n}\n';
export const APP_AFTER = 'export function hello(name: string) {\n  return "Hello, " + name;\n}\n';
export const README_V1 = "# greeter\n\nSays hello.\n";
export const README_V2 = "# Greeter\n\nSays hello.\n";

export const TOOL_SPECS: ToolSpec[] = [
  {
    name: "read",
    description: "Read a file in the workspace.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
  },
  {
    name: "edit",
    description: "Replace exact text in an existing file.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string" },
        edits: {
          type: "array",
          items: {
            type: "object",
            properties: { oldText: { type: "string" }, newText: { type: "string" } },
            required: ["oldText", "newText"],
            additionalProperties: false,
          },
        },
      },
      required: ["path", "edits"],
      additionalProperties: false,
    },
  },
  {
    name: "write",
    description: "Create a file.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
      additionalProperties: false,
    },
  },
  {
    name: "bash",
    description: "Run a shell command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"], additionalProperties: false },
  },
];

export function resolveModel(ref: ModelRef) {
  const model = findModel(ref);
  const provider = model ? findProvider(model.provider) : undefined;
  return model && provider ? { model, provider } : undefined;
}

export function usage(input: number, output: number, cost: number): Usage {
  return {
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: input + output,
    cost: { input: cost * 0.6, output: cost * 0.4, cacheRead: 0, cacheWrite: 0, total: cost },
  };
}

const at = (ms: number) => T0 + ms;

function result(toolCallId: string, toolName: string, text: string, t: number, details: unknown, isError = false): SessionEntry {
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId,
    toolName,
    isError,
    content: [{ type: "text", text }],
    details,
    timestamp: at(t),
  };
  return { type: "message", message };
}

function changeDetails(path: string, before: string | null, after: string) {
  return { path, created: before === null, bytes: Buffer.byteLength(after), diff: fileDiff(path, before, after), before, after };
}

export interface SessionOptions {
  /** false: store the Sonnet thinking unsigned (the made-up signature is rejected by a strict Anthropic server). */
  anthropicSignature?: boolean;
}

/** The entries in order; seqs are 1-based positions in this list. */
export function sessionEntries(options: SessionOptions = {}): SessionEntry[] {
  const sonnetThinking =
    options.anthropicSignature === false
      ? { type: "thinking" as const, thinking: "Write README, then run npm test." }
      : { type: "thinking" as const, thinking: "Write README, then run npm test.", signature: "EqQBCkYIARgCKkB-anthropic-signature" };
  return [
    /* 1 */ {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "Rename greet to hello in src/app.ts." }], timestamp: at(1_000) },
    },
    /* 2 */ {
      type: "message",
      message: {
        role: "assistant",
        content: [
          {
            type: "thinking",
            thinking: "Read the file first.",
            signature: '{"type":"reasoning","id":"rs_1","encrypted_content":"gAAAAB-opaque"}',
          },
          { type: "text", text: "Let me look at the code." },
          { type: "toolCall", id: "call_abc|fc_1", name: "read", arguments: { path: "src/app.ts" } },
          { type: "toolCall", id: "call_zzz|fc_9", name: "read", arguments: { path: "src/missing.ts" } },
        ],
        stopReason: "toolUse",
        model: GPT5,
        usage: usage(1_000, 50, 0.01),
        responseId: "resp_1",
        timestamp: at(1_200),
      },
    },
    /* 3 */ result("call_abc|fc_1", "read", `1\t${APP_BEFORE.split("\n").join("\n")}`, 1_300, {
      path: "src/app.ts",
      bytes: APP_BEFORE.length,
      startLine: 1,
      endLine: 3,
      totalLines: 3,
      truncated: false,
    }),
    /* 4 */ result(
      "call_zzz|fc_9",
      "read",
      "NOT_FOUND: src/missing.ts does not exist. Use glob to find files.",
      1_310,
      { errorCode: "NOT_FOUND", path: "src/missing.ts" },
      true,
    ),
    /* 5 */ {
      type: "message",
      message: {
        role: "assistant",
        content: [
          {
            type: "toolCall",
            id: "call_def|fc_2",
            name: "edit",
            arguments: { path: "src/app.ts", edits: [{ oldText: "function greet", newText: "function hello" }] },
          },
        ],
        stopReason: "toolUse",
        model: GPT5,
        usage: usage(1_200, 80, 0.012),
        timestamp: at(1_800),
      },
    },
    /* 6 */ {
      type: "approval",
      toolCallId: "call_def|fc_2",
      toolName: "edit",
      decision: "approved",
      decidedBy: "user",
      timestamp: at(2_500),
    },
    /* 7 */ result(
      "call_def|fc_2",
      "edit",
      "Edited src/app.ts: 1 replacement (+1 -1 lines).",
      2_600,
      changeDetails("src/app.ts", APP_BEFORE, APP_AFTER),
    ),
    /* 8 */ {
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "Renamed greet to hello." }],
        stopReason: "stop",
        model: GPT5,
        usage: usage(1_400, 20, 0.011),
        timestamp: at(3_000),
      },
    },
    /* 9 */ { type: "modelSwitch", from: GPT5, to: SONNET, timestamp: at(9_000) },
    /* 10 */ {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "Add a README and run the tests." }], timestamp: at(10_000) },
    },
    /* 11 */ {
      type: "message",
      message: {
        role: "assistant",
        content: [],
        stopReason: "error",
        model: SONNET,
        usage: usage(0, 0, 0),
        errorMessage: "429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit",
        timestamp: at(10_100),
      },
    },
    /* 12 */ {
      type: "message",
      message: {
        role: "assistant",
        content: [
          sonnetThinking,
          { type: "toolCall", id: "toolu_01W", name: "write", arguments: { path: "README.md", content: README_V1 } },
          { type: "toolCall", id: "toolu_01X", name: "bash", arguments: { command: "npm test" } },
        ],
        stopReason: "toolUse",
        model: SONNET,
        usage: usage(2_000, 120, 0.024),
        timestamp: at(12_000),
      },
    },
    /* 13 */ {
      type: "approval",
      toolCallId: "toolu_01W",
      toolName: "write",
      decision: "approved",
      decidedBy: "user",
      timestamp: at(12_500),
    },
    /* 14 */ result("toolu_01W", "write", "Created README.md (3 lines).", 12_600, changeDetails("README.md", null, README_V1)),
    /* 15 */ {
      type: "approval",
      toolCallId: "toolu_01X",
      toolName: "bash",
      decision: "denied",
      reason: "no tests in this repo",
      decidedBy: "user",
      timestamp: at(13_000),
    },
    /* 16 */ result("toolu_01X", "bash", "The user denied this bash call: no tests in this repo", 13_001, { errorCode: "DENIED" }, true),
    /* 17 */ {
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "Added README.md; skipped the tests as asked." }],
        stopReason: "stop",
        model: SONNET,
        usage: usage(2_300, 30, 0.02),
        timestamp: at(14_000),
      },
    },
    /* 18 */ {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "Capitalise the README title." }], timestamp: at(20_000) },
    },
    /* 19 */ {
      type: "message",
      message: {
        role: "assistant",
        content: [
          {
            type: "toolCall",
            id: "toolu_01Y",
            name: "edit",
            arguments: { path: "README.md", edits: [{ oldText: "# greeter", newText: "# Greeter" }] },
          },
        ],
        stopReason: "toolUse",
        model: SONNET,
        usage: usage(2_500, 40, 0.021),
        timestamp: at(20_500),
      },
    },
    /* 20 */ {
      type: "approval",
      toolCallId: "toolu_01Y",
      toolName: "edit",
      decision: "approvedForSession",
      decidedBy: "user",
      timestamp: at(21_000),
    },
    /* 21 */ result(
      "toolu_01Y",
      "edit",
      "Edited README.md: 1 replacement (+1 -1 lines).",
      21_100,
      changeDetails("README.md", README_V1, README_V2),
    ),
    /* 22 */ {
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "Done." }],
        stopReason: "stop",
        model: SONNET,
        usage: usage(2_600, 5, 0.019),
        timestamp: at(22_000),
      },
    },
  ];
}

/** Audit rows as the loop writes them: [when, row] (the store stamps createdAt with its clock). */
function auditRows(sessionId: string): Array<[number, ToolCallInput]> {
  const row = (toolCallId: string, toolName: string, args: unknown, rest: Partial<ToolCallInput>): ToolCallInput => ({
    sessionId,
    toolCallId,
    toolName,
    args,
    status: "done",
    ...rest,
  });
  return [
    [1_250, row("call_abc|fc_1", "read", { path: "src/app.ts" }, { durationMs: 4, outputBytes: 90 })],
    [
      1_251,
      row("call_zzz|fc_9", "read", { path: "src/missing.ts" }, { status: "error", durationMs: 2, errorCode: "NOT_FOUND", outputBytes: 60 }),
    ],
    [
      1_900,
      row(
        "call_def|fc_2",
        "edit",
        { path: "src/app.ts" },
        { durationMs: 12, outputBytes: 48, approvalDecision: "approved", decidedBy: "user", decidedAt: at(2_500) },
      ),
    ],
    [
      12_100,
      row(
        "toolu_01W",
        "write",
        { path: "README.md" },
        { durationMs: 9, outputBytes: 27, approvalDecision: "approved", decidedBy: "user", decidedAt: at(12_500) },
      ),
    ],
    [
      12_700,
      row(
        "toolu_01X",
        "bash",
        { command: "npm test" },
        {
          status: "denied",
          durationMs: 0,
          errorCode: "DENIED",
          outputBytes: 50,
          approvalDecision: "denied",
          decidedBy: "user",
          decidedAt: at(13_000),
        },
      ),
    ],
    [
      20_600,
      row(
        "toolu_01Y",
        "edit",
        { path: "README.md" },
        { durationMs: 7, outputBytes: 44, approvalDecision: "approvedForSession", decidedBy: "user", decidedAt: at(21_000) },
      ),
    ],
  ];
}

export interface Fixture {
  store: SessionStore;
  workspaceId: string;
  sessionId: string;
  clock: { now: () => number; set(ms: number): void };
}

/** Writes the session into `store` (default: a fresh in-memory store). */
export function buildSession(path = ":memory:", options: SessionOptions = {}): Fixture {
  let t = T0;
  const clock = { now: () => t, set: (ms: number) => void (t = ms) };
  const store = SessionStore.open(path, { now: clock.now });
  const workspaceId = store.addWorkspace(WORKSPACE).id;
  const session = store.createSession({ workspaceId, title: "Rename greet", model: GPT5 });
  const rows = auditRows(session.id);
  let next = 0;
  for (const [i, entry] of sessionEntries(options).entries()) {
    const ts = entry.type === "message" ? entry.message.timestamp : entry.timestamp;
    for (; next < rows.length && at(rows[next][0]) <= ts; next++) {
      clock.set(at(rows[next][0]));
      store.recordToolCall(rows[next][1]);
    }
    clock.set(ts);
    const seq = store.appendEntry(session.id, entry);
    if (seq !== i + 1) throw new Error(`fixture out of order at ${i + 1}`);
  }
  store.setSessionModel(session.id, SONNET);
  clock.set(at(30_000));
  return { store, workspaceId, sessionId: session.id, clock };
}
