/**
 * Every injected fault ends the stream with one well-formed error message (or
 * a tool call flagged as unusable), never a throw, never the API key.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { faults, reply, startFauxProvider, text, toolCall, type FauxProvider, type FauxRoute } from "../../electron/core/faux";
import { AssistantMessageSchema, type ToolCall } from "../../shared/protocol";
import { createAdapter } from "../../electron/core/providers";
import type { StreamEvent } from "../../electron/core/providers/types";
import { API_KEY, context, ROUTES, run, targets, user, type RunResult, type Target } from "./adapters-fixtures";

let faux: FauxProvider;
let T: Record<FauxRoute, Target>;

beforeAll(async () => {
  faux = await startFauxProvider();
  T = targets(faux);
});
afterAll(() => faux.close());
beforeEach(() => {
  faux.reset();
});
afterEach(() => {
  // Faults are injected by the script, never by a request the strict validator refused.
  expect(faux.requests.filter((r) => !r.accepted).map((r) => r.rejection?.message)).toEqual([]);
});

function expectWellFormedError(result: RunResult): Extract<RunResult["final"], { type: "error" }> {
  expect(result.final.type).toBe("error");
  if (result.final.type !== "error") throw new Error("unreachable");
  expect(AssistantMessageSchema.safeParse(result.message).success).toBe(true);
  expect(result.message.stopReason).toBe("error");
  expect(result.message.errorMessage).toBeTruthy();
  expect(JSON.stringify(result.events)).not.toContain(API_KEY);
  return result.final;
}

const toolCalls = (result: RunResult): ToolCall[] => result.message.content.filter((b): b is ToolCall => b.type === "toolCall");

describe.each(ROUTES)("%s faults", (route) => {
  it("429 is retryable and carries retry-after in milliseconds", async () => {
    faux.script(faults.rateLimit(2));
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.status).toBe(429);
    expect(final.retryable).toBe(true);
    expect(final.retryAfterMs).toBe(2000);
    expect(final.message.errorMessage).toMatch(/^429 /);
  });

  it("retry-after-ms wins over retry-after", async () => {
    faux.script(faults.rateLimit(30, 1500));
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.retryAfterMs).toBe(1500);
  });

  it("500 is retryable and names the provider's error type", async () => {
    faux.script(faults.serverError());
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.status).toBe(500);
    expect(final.retryable).toBe(true);
    expect(final.message.errorMessage).toMatch(/^500 \w+/);
  });

  it("overloaded is retryable", async () => {
    faux.script(faults.overloaded());
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.status).toBe(route === "anthropic" ? 529 : 503);
    expect(final.retryable).toBe(true);
    if (route === "anthropic") expect(final.message.errorMessage).toBe("529 overloaded_error: Overloaded");
  });

  it("a context overflow is flagged and not retried", async () => {
    faux.script(faults.contextOverflow());
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.status).toBe(400);
    expect(final.contextOverflow).toBe(true);
    expect(final.retryable).toBe(false);
  });

  it("an error body echoing the API key never shows the key", async () => {
    faux.script(faults.authError());
    const result = await run(T[route], context([user("hi")]));
    const final = expectWellFormedError(result);
    expect(faux.requests[0].accepted).toBe(true);
    expect(final.status).toBe(401);
    expect(final.retryable).toBe(false);
    expect(final.message.errorMessage).toContain("[REDACTED]");
  });

  it("a connection dropped mid-stream is a retryable network error that keeps the partial text", async () => {
    faux.script(faults.dropConnection(reply("Half of this answer arrives before the socket dies.", { chunkSize: 4 }), 6));
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.retryable).toBe(true);
    expect(final.message.errorMessage).toMatch(/^network error/);
    const partial = final.message.content.find((b) => b.type === "text");
    expect(partial?.type === "text" && partial.text.length).toBeGreaterThan(0);
  });

  it("a stream that ends without its final events is a retryable error", async () => {
    faux.script(faults.truncatedStream(reply("Cut short", { chunkSize: 2 }), 4));
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.retryable).toBe(true);
    expect(final.message.errorMessage).toMatch(/stream ended before/);
  });

  it("an error event inside a 200 stream is retryable", async () => {
    faux.script(faults.streamError(4, "overloaded"));
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.retryable).toBe(true);
  });

  // Mistral sends each tool call whole in one chunk: there is no point inside the arguments to cut.
  it.skipIf(route === "mistral")(
    "a connection dropped inside tool arguments leaves the call flagged, never runnable (skipped on Mistral, which sends each tool call whole in one chunk)",
    async () => {
      faux.script(
        faults.dropConnection(reply([toolCall("bash", { command: "rm -rf build && npm run build" }, idFor(route))], { chunkSize: 3 }), 5),
      );
      const result = await run(T[route], context([user("hi")]));
      expectWellFormedError(result);
      expect(toolCalls(result)).toHaveLength(1);
      for (const call of toolCalls(result)) {
        expect(call.arguments).toEqual({});
        expect(call.argumentsError).toMatch(/^truncated/);
      }
    },
  );

  it("invalid JSON in tool arguments ends as argumentsError with the raw text", async () => {
    faux.script(faults.invalidToolJson("read", '{"path": "src/a.ts",, "limit": 3}', idFor(route)));
    const { final, message } = await run(T[route], context([user("hi")]));
    expect(final.type).toBe("done");
    expect(message.stopReason).toBe("toolUse");
    const [call] = message.content.filter((b): b is ToolCall => b.type === "toolCall");
    expect(call.arguments).toEqual({});
    expect(call.rawArguments).toBe('{"path": "src/a.ts",, "limit": 3}');
    expect(call.argumentsError).toMatch(/^invalid JSON/);
  });

  it("a lone surrogate escape in tool arguments ends as argumentsError", async () => {
    faux.script(faults.loneSurrogate("read", idFor(route)));
    const { message } = await run(T[route], context([user("hi")]));
    const [call] = message.content.filter((b): b is ToolCall => b.type === "toolCall");
    expect(call.arguments).toEqual({});
    expect(call.argumentsError).toMatch(/lone surrogate/);
  });

  it("tool arguments cut by max tokens end as length with a truncation error", async () => {
    faux.script(faults.maxTokens("Let me read it.", "read"));
    const { final, message } = await run(T[route], context([user("hi")]));
    expect(final.type).toBe("done");
    expect(message.stopReason).toBe("length");
    const [call] = message.content.filter((b): b is ToolCall => b.type === "toolCall");
    expect(call.argumentsError).toMatch(/^truncated: the output hit the max-tokens limit/);
  });

  it("any other provider error surfaces its status and message, key redacted", async () => {
    faux.script({
      type: "http",
      status: 404,
      body: {
        error: { message: `The model 'nope' does not exist (key ${API_KEY})`, type: "invalid_request_error", code: "model_not_found" },
      },
    });
    const final = expectWellFormedError(await run(T[route], context([user("hi")])));
    expect(final.status).toBe(404);
    expect(final.retryable).toBe(false);
    expect(final.message.errorMessage).toMatch(/^404 invalid_request_error \(model_not_found\): The model 'nope' does not exist/);
  });
});

describe("stalled streams", () => {
  // The first call of each SDK in a process loads and compiles its code: not a provider's silence.
  beforeAll(async () => {
    for (const route of ROUTES) {
      faux.script(reply("warm"));
      await run(T[route], context([user("hi")]));
    }
    faux.reset();
  });

  it.each(ROUTES)("%s: a stream that goes silent ends as a retryable error, keeping what arrived", async (route) => {
    const target = T[route];
    const adapter = createAdapter(target.model.api, { idleTimeoutMs: 400 });
    faux.script(reply("Some words, then silence.", { chunkSize: 5, hangAfterEvents: 5 }));
    const events: StreamEvent[] = [];
    for await (const event of adapter.stream(target.model, target.provider, context([user("hi")]), { apiKey: API_KEY })) events.push(event);
    const final = events[events.length - 1];
    expect(final.type).toBe("error");
    if (final.type !== "error") return;
    expect(final.retryable).toBe(true);
    expect(final.message.stopReason).toBe("error");
    expect(final.message.errorMessage).toMatch(/no data from the provider/);
    expect(final.message.content.some((b) => b.type === "text" && b.text.length > 0)).toBe(true);
  });

  it.each(ROUTES)("%s: time the consumer spends on an event does not count as silence", async (route) => {
    const target = T[route];
    const adapter = createAdapter(target.model.api, { idleTimeoutMs: 300 });
    // The whole reply arrives at once; only the consumer is slow.
    faux.script(reply("A reply read by a slow consumer.", { chunkSize: 8 }));
    const events: StreamEvent[] = [];
    for await (const event of adapter.stream(target.model, target.provider, context([user("hi")]), { apiKey: API_KEY })) {
      events.push(event);
      if (events.length <= 2) await new Promise((resolve) => setTimeout(resolve, 700));
    }
    const final = events[events.length - 1];
    expect(final.type).toBe("done");
    expect(final.type === "done" && final.message.content).toEqual([{ type: "text", text: "A reply read by a slow consumer." }]);
  });
});

describe("network failures before any response", () => {
  it("a refused connection is a retryable network error", async () => {
    const closed = await startFauxProvider();
    const target = targets(closed).anthropic;
    await closed.close();
    const final = expectWellFormedError(await run(target, context([user("hi")])));
    expect(final.retryable).toBe(true);
    expect(final.message.errorMessage).toMatch(/^network error/);
  });

  it("a text reply after a fault works on the same server (faults do not poison the connection pool)", async () => {
    faux.script([faults.dropConnection(reply("abc", { chunkSize: 1 }), 3), reply([text("fine")])]);
    await run(T.anthropic, context([user("1")]));
    const { message } = await run(T.anthropic, context([user("2")]));
    expect(message.content).toEqual([{ type: "text", text: "fine" }]);
  });
});

function idFor(route: FauxRoute): string {
  return {
    anthropic: "toolu_01Fault",
    "openai-completions": "call_fault",
    "openai-responses": "call_f|fc_f",
    mistral: "Fault0001",
    gemini: "gemini-fault",
    bedrock: "tooluse_fault",
  }[route];
}
