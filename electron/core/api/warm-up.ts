/**
 * Start-up work done while the core is idle, before any window asks: the
 * first `session.load` after start paid for compiling the entry parsers (zod
 * builds each object parser on its first use), preparing its statements and
 * tiering the code up, on the path of the first paint
 * (docs/performance.md#first-paint-of-a-long-session-cold). Each step runs in
 * its own macrotask so that a request arriving meanwhile is not held up for
 * long. Samples are made up here: no session is read.
 */
import { requests, type RequestMethod } from "../../../shared/api";
import { SessionEntrySchema, emptyUsage, type SessionEntry } from "../../../shared/protocol";

const MODEL = { provider: "warm-up", api: "anthropic-messages", id: "warm-up" } as const;

/** One entry of each kind and content type, as a stored row parses. */
const SAMPLE_ENTRIES: SessionEntry[] = [
  { type: "message", message: { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 1 } },
  {
    type: "message",
    message: {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "plan", signature: "s" },
        { type: "text", text: "reading" },
        { type: "toolCall", id: "t1", name: "read", arguments: { path: "a.ts" } },
      ],
      stopReason: "toolUse",
      model: MODEL,
      usage: emptyUsage(),
      timestamp: 2,
    },
  },
  {
    type: "message",
    message: {
      role: "toolResult",
      toolCallId: "t1",
      toolName: "read",
      isError: false,
      content: [{ type: "text", text: "x" }],
      details: { path: "a.ts" },
      timestamp: 3,
    },
  },
  { type: "approval", toolCallId: "t1", toolName: "edit", decision: "approved", decidedBy: "user", timestamp: 4 },
  { type: "modelSwitch", from: MODEL, to: MODEL, timestamp: 5 },
  { type: "reasoningChange", from: "default", to: "high", timestamp: 6 },
];

/** The requests a window sends as it opens. */
const START_UP_REQUESTS: Array<[RequestMethod, unknown]> = [
  ["session.load", { sessionId: "warm-up", tail: 80 }],
  ["app.info", {}],
  ["session.entries", { sessionId: "warm-up", fromSeq: 1, toSeq: 80 }],
  ["session.list", { workspaceId: "warm-up" }],
  ["models.list", {}],
  ["providers.list", {}],
  ["settings.get", {}],
  ["chat.activeTurns", {}],
  ["workspace.recent", {}],
];

/** Rounds of parsing the samples: enough for V8 to optimise the parsers, a few ms in all. */
const ROUNDS = 60;

export interface WarmUpTargets {
  /** Prepares the store's read statements (SessionStore.warmUp). */
  store: () => void;
  /** What app.info computes (the model options and the default model). */
  models: () => void;
}

/** Runs the warm-up steps one macrotask each; returns a function that stops the ones not yet run. */
export function scheduleWarmUp(targets: WarmUpTargets): () => void {
  const steps: Array<() => void> = [
    targets.store,
    () => {
      for (const [method, params] of START_UP_REQUESTS) requests[method].params.safeParse(params);
    },
    ...Array.from({ length: ROUNDS }, () => () => {
      for (const entry of SAMPLE_ENTRIES) SessionEntrySchema.safeParse(JSON.parse(JSON.stringify(entry)));
    }),
    targets.models,
  ];
  let timer: NodeJS.Immediate | null = null;
  const next = () => {
    const step = steps.shift();
    if (!step) return;
    try {
      step();
    } catch {
      // Warming is an optimisation: a failure here shows up, if anywhere, in the real request.
    }
    timer = setImmediate(next);
  };
  timer = setImmediate(next);
  return () => {
    if (timer) clearImmediate(timer);
    steps.length = 0;
  };
}
