/**
 * What the adapters put on the wire through the SDK clients, and what they
 * make of the SDKs' event streams: the pure builder's body is the bytes sent,
 * caller headers reach the server, the SDKs retry nothing and read nothing
 * from the environment, and odd or malformed SSE ends in a well-formed
 * message. Against a bare capturing `node:http` server.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { streamModel } from "../../electron/core/providers";
import type { StreamEvent } from "../../electron/core/providers/types";
import { API_KEY, context, targets, user, type Target } from "./adapters-fixtures";

interface Captured {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let origin = "";
let captured: Captured[] = [];
/** What the next response sends: status and raw body text. */
let answer: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: "data: [DONE]\n\n" };
let close: () => Promise<void>;

beforeAll(async () => {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      captured.push({ path: req.url ?? "", headers: req.headers, body });
      const json = answer.status !== 200;
      res.writeHead(answer.status, { "content-type": json ? "application/json" : "text/event-stream", ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());
afterEach(() => {
  captured = [];
  answer = { status: 200, body: "data: [DONE]\n\n" };
});

type Route = "anthropic" | "openai-completions" | "openai-responses";

/** The fixture targets, pointed at the capturing server. */
function target(route: Route): Target {
  const base = {
    anthropic: `${origin}/anthropic/`,
    openai: `${origin}/openai/v1/`,
    mistral: `${origin}/mistral/v1`,
    gemini: `${origin}/gemini`,
    bedrock: `${origin}/bedrock`,
  };
  return targets({ baseUrls: base })[route];
}

async function drain(t: Target, headers?: Record<string, string>, apiKey = API_KEY): Promise<{ events: StreamEvent[]; body: unknown }> {
  let body: unknown;
  const events: StreamEvent[] = [];
  const stream = streamModel(t.model, t.provider, context([user("hi")]), { apiKey, headers, onRequestBody: (b) => (body = b) });
  for await (const event of stream) events.push(event);
  return { events, body };
}

const final = (events: StreamEvent[]) => events[events.length - 1];
const sse = (name: string | null, data: unknown) =>
  `${name === null ? "" : `event: ${name}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

describe("requests through the SDK clients", () => {
  it.each([
    ["anthropic", "/anthropic/v1/messages"],
    ["openai-completions", "/openai/v1/chat/completions"],
    ["openai-responses", "/openai/v1/responses"],
  ] as const)("%s: the path, the caller's headers, and the builder's body byte for byte", async (route, path) => {
    const { body } = await drain(target(route), { "X-Team": "blue" });
    expect(captured).toHaveLength(1);
    const [sent] = captured;
    expect(sent.path).toBe(path);
    expect(sent.headers["x-team"]).toBe("blue");
    expect(sent.headers["content-type"]).toBe("application/json");
    // One path: what "what the model saw" shows is exactly what went out.
    expect(sent.body).toBe(JSON.stringify(body));
  });

  it("Anthropic gets the key from the call only (not ANTHROPIC_AUTH_TOKEN), with the SDK's version header", async () => {
    process.env.ANTHROPIC_AUTH_TOKEN = "env-token-must-not-be-sent";
    try {
      await drain(target("anthropic"));
    } finally {
      delete process.env.ANTHROPIC_AUTH_TOKEN;
    }
    const [sent] = captured;
    expect(JSON.stringify(sent.headers)).not.toContain("env-token-must-not-be-sent");
    expect(sent.headers["x-api-key"] ?? sent.headers.authorization).toContain(API_KEY);
    expect(sent.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("OpenAI servers get Bearer auth and no organization or project from the environment", async () => {
    process.env.OPENAI_ORG_ID = "org-from-env";
    process.env.OPENAI_PROJECT_ID = "proj-from-env";
    try {
      await drain(target("openai-completions"));
    } finally {
      delete process.env.OPENAI_ORG_ID;
      delete process.env.OPENAI_PROJECT_ID;
    }
    const [sent] = captured;
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.headers["openai-organization"]).toBeUndefined();
    expect(sent.headers["openai-project"]).toBeUndefined();
  });

  it.each(["anthropic", "openai-completions", "openai-responses"] as const)(
    "%s: clients are reused per key and headers, and each request still carries its own",
    async (route) => {
      await drain(target(route), { "X-Team": "blue" }, "key-one-0123456789");
      await drain(target(route), { "X-Team": "green" }, "key-two-0123456789");
      await drain(target(route), { "X-Team": "blue" }, "key-one-0123456789");
      const keys = captured.map((c) => String(c.headers["x-api-key"] ?? c.headers.authorization));
      expect(keys.map((k) => k.replace(/^Bearer /, ""))).toEqual(["key-one-0123456789", "key-two-0123456789", "key-one-0123456789"]);
      expect(captured.map((c) => c.headers["x-team"])).toEqual(["blue", "green", "blue"]);
    },
  );

  it("OpenAI-compatible servers without a key get a placeholder", async () => {
    await drain(target("openai-completions"), undefined, "");
    expect(captured[0].headers.authorization).toBe("Bearer no-key");
  });

  it.each(["anthropic", "openai-completions", "openai-responses"] as const)(
    "%s: the SDK retries nothing (the loop owns retries); retry-after reaches the loop",
    async (route) => {
      answer = {
        status: 429,
        body: JSON.stringify({ error: { type: "rate_limit_error", message: "slow down" } }),
        headers: { "retry-after": "7" },
      };
      const { events } = await drain(target(route));
      expect(captured).toHaveLength(1);
      const last = final(events);
      expect(last.type === "error" && { status: last.status, retryable: last.retryable, retryAfterMs: last.retryAfterMs }).toEqual({
        status: 429,
        retryable: true,
        retryAfterMs: 7000,
      });
    },
  );

  it("a compatible server's flat error body keeps its message (Mistral)", async () => {
    answer = {
      status: 400,
      body: JSON.stringify({ object: "error", message: "Invalid model: nope", type: "invalid_model", code: "1500" }),
    };
    const { events } = await drain(target("openai-completions"));
    const last = final(events);
    expect(last.type === "error" && last.message.errorMessage).toMatch(/^400 .*Invalid model: nope/);
  });
});

describe("SSE events, as the SDKs read them", () => {
  it("Anthropic: pings and unnamed events are skipped, the message still completes", async () => {
    answer = {
      status: 200,
      body:
        sse("ping", { type: "ping" }) +
        sse("message_start", { type: "message_start", message: { id: "msg_1", usage: { input_tokens: 3 } } }) +
        sse(null, { type: "content_block_start", index: 0, content_block: { type: "text", text: "IGNORED" } }) +
        sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
        sse("ping", { type: "ping" }) +
        sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } }) +
        sse("content_block_stop", { type: "content_block_stop", index: 0 }) +
        sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }) +
        sse("message_stop", { type: "message_stop" }),
    };
    const last = final((await drain(target("anthropic"))).events);
    expect(last.type).toBe("done");
    expect(last.type === "done" && last.message.content).toEqual([{ type: "text", text: "Hi" }]);
  });

  it("Anthropic: an error event mid-stream is a retryable error naming its type, keeping what arrived", async () => {
    answer = {
      status: 200,
      body:
        sse("message_start", { type: "message_start", message: { id: "msg_1", usage: { input_tokens: 3 } } }) +
        sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
        sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }) +
        sse("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    };
    const last = final((await drain(target("anthropic"))).events);
    expect(last.type === "error" && last.retryable).toBe(true);
    expect(last.type === "error" && last.message.errorMessage).toBe("overloaded_error: Overloaded");
    expect(last.type === "error" && last.message.content).toEqual([{ type: "text", text: "Hel" }]);
  });

  it("OpenAI: [DONE] ends the data; what follows is ignored, even if malformed", async () => {
    answer = {
      status: 200,
      body:
        sse(null, { id: "c1", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] }) +
        "data: [DONE]\n\n" +
        "data: {not json\n\n",
    };
    const last = final((await drain(target("openai-completions"))).events);
    expect(last.type === "done" && last.message.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("OpenAI: a chunk carrying `error` ends the stream as that provider error", async () => {
    answer = {
      status: 200,
      body:
        sse(null, { id: "c1", choices: [{ index: 0, delta: { content: "par" }, finish_reason: null }] }) +
        sse(null, { error: { message: "The server is overloaded.", type: "server_error" } }),
    };
    const last = final((await drain(target("openai-completions"))).events);
    expect(last.type === "error" && last.retryable).toBe(true);
    expect(last.type === "error" && last.message.errorMessage).toBe("server_error: The server is overloaded.");
    expect(last.type === "error" && last.message.content).toEqual([{ type: "text", text: "par" }]);
  });

  it("Responses: an `error` event reaches the adapter and ends the stream with its code", async () => {
    answer = {
      status: 200,
      body:
        sse("response.created", { type: "response.created", response: { id: "resp_1" } }) +
        sse("error", { type: "error", code: "server_error", message: "boom" }),
    };
    const last = final((await drain(target("openai-responses"))).events);
    expect(last.type === "error" && last.message.errorMessage).toBe("server_error: boom");
    expect(last.type === "error" && last.retryable).toBe(true);
  });

  it.each(["anthropic", "openai-completions"] as const)(
    "%s: a malformed event ends the stream as a readable, non-retryable error that keeps what arrived",
    async (route) => {
      answer = {
        status: 200,
        body:
          route === "anthropic"
            ? sse("message_start", { type: "message_start", message: { id: "msg_1", usage: { input_tokens: 5 } } }) +
              sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
              sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }) +
              sse("content_block_delta", '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","te')
            : sse(null, { id: "c1", choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] }) +
              sse(null, '{"id":"c1","choi'),
      };
      const last = final((await drain(target(route))).events);
      expect(last.type).toBe("error");
      if (last.type !== "error") return;
      expect(last.retryable).toBe(false);
      expect(last.message.errorMessage).toMatch(/^malformed stream event from the provider \(data is not JSON\)/);
      // The event's data is shown (the SDKs throw JSON.parse's error, which does not show it).
      expect(last.message.errorMessage).toContain(route === "anthropic" ? '"delta":{"type":"text_delta","te' : '{"id":"c1","choi');
      expect(last.message.content).toEqual([{ type: "text", text: "Hel" }]);
    },
  );
});
