import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportSpans, tracesUrl } from "../../electron/core/otel/exporter";
import { agentSpanId, toolSpanId, traceIdOf } from "../../electron/core/otel/ids";
import { sessionSpans } from "../../electron/core/otel/session-spans";
import { createRedactor } from "../../electron/core/review/redact";
import { SessionStore } from "../../electron/core/store";
import { GPT, assistant, manualClock, toolCall, toolResult, usage, user } from "../store/helpers";
import { startReceiver, type ReceivedSpan } from "./receiver";

const SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";

/** A session with a bash call and a task call whose sub-agent reads a file, on two models. */
function seeded() {
  const store = SessionStore.open(":memory:", manualClock());
  const ws = store.addWorkspace("/w");
  const s = store.createSession({ workspaceId: ws.id, title: "Traced", model: GPT });
  store.appendEntry(s.id, user(`Run the tests; my key is ${SECRET}`, 1_000));
  store.appendEntry(
    s.id,
    assistant(
      [
        { type: "text", text: "Running them and asking a helper." },
        toolCall("b1", "bash", { command: "npm test" }),
        toolCall("t1", "task", { prompt: "read a.txt" }),
      ],
      {
        model: GPT,
        usage: usage(1000, 50, 0.02, 200, 10),
        timestamp: 2_000,
      },
    ),
  );
  store.appendEntry(s.id, toolResult("b1", "12 passed", "bash", 3_000));
  const sub = store.createSubAgentSession({
    title: "helper",
    model: GPT,
    reasoning: "default",
    parentSessionId: s.id,
    parentSeq: 2,
    parentToolCallId: "t1",
  });
  store.appendEntry(sub.id, user("read a.txt", 2_100));
  store.appendEntry(sub.id, assistant([toolCall("r1", "read", { path: "a.txt" })], { timestamp: 2_200, usage: usage(300, 20, 0.003) }));
  store.appendEntry(sub.id, toolResult("r1", "contents of a", "read", 2_300));
  store.appendEntry(sub.id, assistant([{ type: "text", text: "a.txt says hello" }], { timestamp: 2_400, usage: usage(350, 10, 0.004) }));
  store.appendEntry(s.id, toolResult("t1", "a.txt says hello", "task", 4_000));
  store.appendEntry(s.id, assistant([{ type: "text", text: "All green." }], { model: GPT, usage: usage(1200, 5, 0.01), timestamp: 5_000 }));
  return { store, s, sub };
}

const opts = (captureContent: boolean) => ({ captureContent, redactor: createRedactor([]), serviceVersion: "0.1.0" });

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

describe("OpenTelemetry export of a session", () => {
  for (const protocol of ["http/protobuf", "http/json"] as const) {
    it(`sends GenAI spans over OTLP/HTTP (${protocol}) with agent → model call / tool → sub-agent nesting`, async () => {
      const { store, s, sub } = seeded();
      await exportSpans(sessionSpans(store, s.id, opts(false)), {
        endpoint: receiver.url,
        protocol,
        headers: { "x-langfuse-key": "pk-lf-123" },
      });
      expect(receiver.received).toHaveLength(1);
      const r = receiver.received[0];
      expect(r.path).toBe("/v1/traces");
      expect(r.contentType).toContain(protocol === "http/json" ? "application/json" : "application/x-protobuf");
      expect(r.headers["x-langfuse-key"]).toBe("pk-lf-123");
      const spans = receiver.spans();
      // 2 agents, 4 model calls (2 + 2), 3 tool calls (bash, task, read).
      expect(spans).toHaveLength(9);
      const trace = traceIdOf(s.id);
      expect(new Set(spans.map((x) => x.traceId))).toEqual(new Set([trace]));

      const agents = byName(spans, "invoke_agent Agent Workbench");
      const root = agents.find((a) => a.parentSpanId === "")!;
      expect(root.spanId).toBe(agentSpanId(s.id));
      expect(root.attributes).toMatchObject({
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.id": s.id,
        "gen_ai.conversation.id": s.id,
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-5",
        "gen_ai.usage.input_tokens": 1000 + 200 + 10 + 1200,
        "gen_ai.usage.output_tokens": 55,
      });
      expect(root.attributes["agent_workbench.cost.usd"]).toBeCloseTo(0.03);
      expect(root.scope.schemaUrl).toMatch(/^https:\/\/opentelemetry\.io\/schemas\/1\.\d+\.0$/u);
      expect(root.resource["service.name"]).toBe("agent-workbench");

      const chats = spans.filter((x) => x.attributes["gen_ai.operation.name"] === "chat");
      expect(chats).toHaveLength(4);
      const first = chats.find((c) => c.parentSpanId === root.spanId && c.attributes["gen_ai.usage.output_tokens"] === 50)!;
      expect(first).toMatchObject({ name: "chat gpt-5", kind: 3 /* CLIENT */, startMs: 1_000, endMs: 2_000 });
      expect(first.attributes).toMatchObject({
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-5",
        "gen_ai.response.model": "gpt-5",
        "gen_ai.response.finish_reasons": ["tool_call"],
        "gen_ai.usage.input_tokens": 1210,
        "gen_ai.usage.cache_read.input_tokens": 200,
        "gen_ai.usage.cache_creation.input_tokens": 10,
      });

      const tools = spans.filter((x) => x.attributes["gen_ai.operation.name"] === "execute_tool");
      expect(tools.map((t) => t.attributes["gen_ai.tool.name"]).sort()).toEqual(["bash", "read", "task"]);
      const task = tools.find((t) => t.attributes["gen_ai.tool.name"] === "task")!;
      expect(task).toMatchObject({
        parentSpanId: root.spanId,
        spanId: toolSpanId(s.id, "t1"),
        name: "execute_tool task",
        startMs: 2_000,
        endMs: 4_000,
      });
      expect(task.attributes).toMatchObject({ "gen_ai.tool.call.id": "t1", "gen_ai.tool.type": "function" });
      // The sub-agent hangs under the task call; its model call and tool call under it.
      const child = agents.find((a) => a.parentSpanId === task.spanId)!;
      expect(child.spanId).toBe(agentSpanId(sub.id));
      expect(child.attributes["gen_ai.agent.name"]).toBe("sub-agent");
      expect(child.attributes["gen_ai.conversation.id"]).toBe(s.id);
      expect(chats.filter((c) => c.parentSpanId === child.spanId)).toHaveLength(2);
      expect(tools.find((t) => t.attributes["gen_ai.tool.name"] === "read")!.parentSpanId).toBe(child.spanId);

      // Capture off: no message, argument or result text anywhere.
      const all = JSON.stringify(spans);
      for (const word of ["Run the tests", "npm test", "12 passed", "a.txt says hello", "All green", SECRET])
        expect(all).not.toContain(word);
      for (const key of ["gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"])
        expect(spans.some((x) => key in x.attributes)).toBe(false);
      store.close();
    });
  }

  it("with content capture on, sends messages, arguments and results, redacted as exports are", async () => {
    const { store, s } = seeded();
    await exportSpans(sessionSpans(store, s.id, opts(true)), { endpoint: receiver.url, protocol: "http/protobuf", headers: {} });
    const spans = receiver.spans();
    const first = spans.find((x) => x.attributes["gen_ai.usage.output_tokens"] === 50 && x.name.startsWith("chat"))!;
    const input = JSON.parse(String(first.attributes["gen_ai.input.messages"])) as Array<{
      role: string;
      parts: Array<{ content?: string }>;
    }>;
    expect(input[0].role).toBe("user");
    expect(input[0].parts[0].content).toContain("Run the tests; my key is [REDACTED]");
    expect(JSON.stringify(spans)).not.toContain(SECRET);
    const output = JSON.parse(String(first.attributes["gen_ai.output.messages"])) as Array<{
      parts: Array<{ type: string; name?: string }>;
    }>;
    expect(output[0].parts.map((p) => p.type)).toEqual(["text", "tool_call", "tool_call"]);
    const bash = spans.find((x) => x.attributes["gen_ai.tool.name"] === "bash")!;
    expect(JSON.parse(String(bash.attributes["gen_ai.tool.call.arguments"]))).toEqual({ command: "npm test" });
    expect(JSON.parse(String(bash.attributes["gen_ai.tool.call.result"]))).toBe("12 passed");
    store.close();
  });

  it("re-exporting a session sends the same trace and span ids (an update, not a second trace)", async () => {
    const { store, s } = seeded();
    await exportSpans(sessionSpans(store, s.id, opts(false)), { endpoint: receiver.url, protocol: "http/json", headers: {} });
    await exportSpans(sessionSpans(store, s.id, opts(false)), {
      endpoint: `${receiver.url}/v1/traces`,
      protocol: "http/protobuf",
      headers: {},
    });
    const [a, b] = receiver.received.map((r) => r.spans.map((x) => `${x.traceId}/${x.spanId}/${x.parentSpanId}`).sort());
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(9);
    store.close();
  });

  it("refuses a non-http endpoint and reports a failing one without its header values", async () => {
    const { store, s } = seeded();
    const spans = sessionSpans(store, s.id, opts(false));
    expect(tracesUrl("file:///etc/passwd")).toBeNull();
    await expect(exportSpans(spans, { endpoint: "javascript:alert(1)", protocol: "http/json", headers: {} })).rejects.toThrow(
      /not an http/,
    );
    await receiver.close();
    const err = await exportSpans(spans, {
      endpoint: receiver.url,
      protocol: "http/json",
      headers: { authorization: "Bearer very-secret-token" },
      timeoutMs: 2_000,
    }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).not.toContain("very-secret-token");
    receiver = await startReceiver();
    store.close();
  });
});
