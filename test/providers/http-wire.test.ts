/**
 * The adapters on our transport send what the SDK clients sent (path, auth,
 * version, content type, caller headers, body bytes) and treat SSE events as
 * the SDKs' stream readers did.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderApiError, SseDataError } from "../../electron/core/providers/http";
import { anthropicEventData, OpenAIEventReader } from "../../electron/core/providers/adapters/wire";
import { streamModel } from "../../electron/core/providers";
import type { FauxProvider } from "../../electron/core/faux";
import type { StreamEvent } from "../../electron/core/providers/types";
import { API_KEY, context, targets, user, type Target } from "./adapters-fixtures";

interface Captured {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let origin = "";
let captured: Captured[] = [];
/** What the next response streams (raw SSE text). */
let answer = "data: [DONE]\n\n";
let close: () => Promise<void>;

beforeAll(async () => {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      captured.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

/** The fixture targets, pointed at the capturing server. */
function target(route: "anthropic" | "openai-completions" | "openai-responses"): Target {
  const base = { anthropic: `${origin}/anthropic/`, openai: `${origin}/openai/v1/`, mistral: `${origin}/mistral/v1` };
  return targets({ baseUrls: base } as FauxProvider)[route];
}

async function drain(t: Target, headers?: Record<string, string>): Promise<{ events: StreamEvent[]; body: unknown }> {
  let body: unknown;
  const events: StreamEvent[] = [];
  const stream = streamModel(t.model, t.provider, context([user("hi")]), { apiKey: API_KEY, headers, onRequestBody: (b) => (body = b) });
  for await (const event of stream) events.push(event);
  return { events, body };
}

/** The request headers that matter to a provider (the SDKs' x-stainless-* telemetry does not). */
function significant(headers: IncomingHttpHeaders): Record<string, unknown> {
  const names = ["authorization", "x-api-key", "anthropic-version", "content-type", "accept", "x-team"];
  return Object.fromEntries(names.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n]]));
}

const CALLER_HEADERS = { "X-Team": "blue", "Anthropic-Version": "2023-06-01" };

describe("requests match the SDK clients'", () => {
  it("Anthropic Messages: path, auth, version, caller headers and body bytes", async () => {
    captured = [];
    answer = "event: ping\ndata: {}\n\n";
    const t = target("anthropic");
    const { body } = await drain(t, CALLER_HEADERS);
    const sdk = new Anthropic({ apiKey: API_KEY, baseURL: `${origin}/anthropic`, maxRetries: 0, defaultHeaders: CALLER_HEADERS, logLevel: "off" });
    for await (const _ of await sdk.messages.create(body as Anthropic.MessageCreateParamsStreaming)) void _;
    const [ours, theirs] = captured;
    expect(ours.path).toBe("/anthropic/v1/messages");
    expect(ours.path).toBe(theirs.path);
    expect(significant(ours.headers)).toEqual(significant(theirs.headers));
    // The caller's header wins over ours, case-insensitively, as in the SDK.
    expect(ours.headers["anthropic-version"]).toBe("2023-06-01");
    expect(ours.body).toBe(theirs.body);
    expect(ours.headers["user-agent"]).toMatch(/^AgentWorkbench/);
  });

  it("Anthropic Messages: without caller headers, the SDK's own version and Bearer auth", async () => {
    captured = [];
    const { body } = await drain(target("anthropic"));
    const sdk = new Anthropic({ apiKey: API_KEY, baseURL: `${origin}/anthropic`, maxRetries: 0, logLevel: "off" });
    for await (const _ of await sdk.messages.create(body as Anthropic.MessageCreateParamsStreaming)) void _;
    const [ours, theirs] = captured;
    expect(significant(ours.headers)).toEqual(significant(theirs.headers));
    expect(ours.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it.each([
    ["openai-completions", "/openai/v1/chat/completions"],
    ["openai-responses", "/openai/v1/responses"],
  ] as const)("%s: path, Bearer auth, caller headers and body bytes", async (route, path) => {
    captured = [];
    answer = "data: [DONE]\n\n";
    const { body } = await drain(target(route), { "X-Team": "blue" });
    const sdk = new OpenAI({
      apiKey: API_KEY,
      baseURL: `${origin}/openai/v1`,
      organization: null,
      project: null,
      maxRetries: 0,
      defaultHeaders: { "X-Team": "blue" },
      logLevel: "off",
    });
    const stream =
      route === "openai-completions"
        ? await sdk.chat.completions.create(body as OpenAI.Chat.ChatCompletionCreateParamsStreaming)
        : await sdk.responses.create(body as OpenAI.Responses.ResponseCreateParamsStreaming);
    for await (const _ of stream) void _;
    const [ours, theirs] = captured;
    expect(ours.path).toBe(path);
    expect(theirs.path).toBe(path);
    expect(significant(ours.headers)).toEqual(significant(theirs.headers));
    expect(ours.body).toBe(theirs.body);
  });

  it("OpenAI-compatible servers without a key get the SDK's placeholder", async () => {
    captured = [];
    const t = target("openai-completions");
    for await (const _ of streamModel(t.model, t.provider, context([user("hi")]), { apiKey: "" })) void _;
    expect(captured[0].headers.authorization).toBe("Bearer no-key");
  });
});

describe("SSE events, as the SDKs read them", () => {
  const headers = { "request-id": "req_1" };

  it("Anthropic: ping and unnamed events are skipped, named events parsed", () => {
    expect(anthropicEventData({ event: "ping", data: '{"type":"ping"}' }, headers)).toBeUndefined();
    expect(anthropicEventData({ event: null, data: '{"type":"message_stop"}' }, headers)).toBeUndefined();
    expect(anthropicEventData({ event: "message_stop", data: '{"type":"message_stop"}' }, headers)).toEqual({ type: "message_stop" });
  });

  it("Anthropic: an error event throws its body as an API error without a status", () => {
    const body = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    const read = () => anthropicEventData({ event: "error", data: JSON.stringify(body) }, headers);
    expect(read).toThrow(ProviderApiError);
    try {
      read();
    } catch (err) {
      expect(err).toMatchObject({ status: undefined, error: body, headers });
    }
  });

  it("OpenAI: [DONE] ends the data and what follows is ignored, even if malformed", () => {
    const reader = new OpenAIEventReader(headers);
    expect(reader.data({ event: null, data: '{"id":"c1","choices":[]}' })).toEqual({ id: "c1", choices: [] });
    expect(reader.data({ event: null, data: "[DONE]" })).toBeUndefined();
    expect(reader.data({ event: null, data: "{not json" })).toBeUndefined();
  });

  it("OpenAI: a payload with an error field throws it; Responses' own error event passes through", () => {
    const reader = new OpenAIEventReader(headers);
    const error = { message: "The server is overloaded.", type: "server_error" };
    expect(() => reader.data({ event: null, data: JSON.stringify({ error }) })).toThrow(ProviderApiError);
    const responsesError = { type: "error", code: "server_error", message: "boom", sequence_number: 3 };
    expect(reader.data({ event: "error", data: JSON.stringify(responsesError) })).toEqual(responsesError);
  });

  it("malformed data is a typed error", () => {
    expect(() => anthropicEventData({ event: "content_block_delta", data: "{oops" }, headers)).toThrow(SseDataError);
    expect(() => new OpenAIEventReader(headers).data({ event: null, data: "{oops" })).toThrow(SseDataError);
  });

  it("a malformed event ends the stream as a readable, non-retryable error that keeps what arrived", async () => {
    answer =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":5}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","te\n\n';
    const { events } = await drain(target("anthropic"));
    const final = events[events.length - 1];
    expect(final.type).toBe("error");
    if (final.type !== "error") return;
    expect(final.retryable).toBe(false);
    expect(final.message.errorMessage).toMatch(/^malformed stream event "content_block_delta" from the provider/);
    expect(final.message.content).toEqual([{ type: "text", text: "Hel" }]);
    expect(final.message.usage.input).toBe(5);
  });
});
