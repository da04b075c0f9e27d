/**
 * What the adapters (through the SDKs and fetch) do with the connection: a
 * stream read to its end leaves the socket in the keep-alive pool; a consumer that stops early, or an error
 * the provider reports mid-stream, drops it (the rest of the response will
 * never be read). Against a bare `node:http` server whose responses never end
 * unless a case says so.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAdapter } from "../../electron/core/providers";
import type { StreamEvent } from "../../electron/core/providers/types";
import { API_KEY, context, targets, user, type Target } from "./adapters-fixtures";

interface Answer {
  /** Raw SSE text written at once. */
  body: string;
  /** End the response after it (otherwise the response stays open). */
  end: boolean;
}

let server: http.Server;
/** Every connection the server has seen. */
const connections: Socket[] = [];
/** The socket each request of the current test came on. */
let sockets: Socket[] = [];
let answers: Answer[] = [];
let T: ReturnType<typeof targets>;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    sockets.push(req.socket);
    req.resume();
    req.on("end", () => {
      const answer = answers.shift() ?? { body: "", end: true };
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (answer.end) res.end(answer.body);
      else res.write(answer.body);
    });
  });
  server.on("connection", (socket) => connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  T = targets({ baseUrls: { anthropic: base, openai: base, mistral: base } });
});
afterAll(() => {
  for (const socket of connections) socket.destroy();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  sockets = [];
  answers = [];
});

const sse = (name: string | null, data: unknown) => `${name === null ? "" : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`;

/** Per wire: a text reply whose first delta says "Hel", complete or not, and a mid-stream error. */
const WIRES: Record<"anthropic" | "openai-completions" | "openai-responses", { start: string; rest: string; error: string }> = {
  anthropic: {
    start:
      sse("message_start", { type: "message_start", message: { id: "msg_1", usage: { input_tokens: 3 } } }) +
      sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
      sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }),
    rest:
      sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } }) +
      sse("content_block_stop", { type: "content_block_stop", index: 0 }) +
      sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }) +
      sse("message_stop", { type: "message_stop" }),
    error: sse("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
  },
  "openai-completions": {
    start: sse(null, { id: "c1", choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] }),
    rest: sse(null, { id: "c1", choices: [{ index: 0, delta: { content: "lo" }, finish_reason: "stop" }] }) + "data: [DONE]\n\n",
    error: sse(null, { error: { message: "Overloaded", type: "server_error" } }),
  },
  "openai-responses": {
    start:
      sse("response.created", { type: "response.created", response: { id: "resp_1" } }) +
      sse("response.output_item.added", { type: "response.output_item.added", output_index: 0, item: { type: "message", id: "msg_1" } }) +
      sse("response.output_text.delta", { type: "response.output_text.delta", output_index: 0, delta: "Hel" }),
    rest:
      sse("response.output_text.delta", { type: "response.output_text.delta", output_index: 0, delta: "lo" }) +
      sse("response.output_item.done", { type: "response.output_item.done", output_index: 0, item: { type: "message", id: "msg_1" } }) +
      sse("response.completed", { type: "response.completed", response: { id: "resp_1", status: "completed" } }),
    error: sse("error", { type: "error", code: "server_error", message: "Overloaded" }),
  },
};

function stream(target: Target): AsyncIterable<StreamEvent> {
  return createAdapter(target.model.api, {}).stream(target.model, target.provider, context([user("go")]), { apiKey: API_KEY });
}

async function drain(target: Target): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream(target)) events.push(event);
  return events;
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));

describe.each(Object.keys(WIRES) as (keyof typeof WIRES)[])("%s adapter and its connection", (wire) => {
  it("streams read to their end leave their sockets in the pool: sequential calls reuse connections", async () => {
    const calls = 4;
    for (let i = 0; i < calls; i++) answers.push({ body: WIRES[wire].start + WIRES[wire].rest, end: true });
    for (let i = 0; i < calls; i++) {
      const events = await drain(T[wire]);
      const final = events[events.length - 1];
      expect(final.type === "done" && final.message.content).toEqual([{ type: "text", text: "Hello" }]);
    }
    expect(sockets).toHaveLength(calls);
    // undici hands a socket back to its pool just after the body ends, so the very next call may still open one more.
    expect(new Set(sockets).size).toBeLessThan(calls);
    expect(sockets.every((socket) => !socket.destroyed)).toBe(true);
  });

  it("a consumer that stops early drops the connection", async () => {
    answers.push({ body: WIRES[wire].start, end: false });
    const seen: string[] = [];
    for await (const event of stream(T[wire])) {
      seen.push(event.type);
      if (event.type === "textDelta") break;
    }
    expect(seen).toEqual(["start", "textStart", "textDelta"]);
    await closed(sockets[0]);
  });

  it("an error reported mid-stream ends the stream as an error and drops the connection", async () => {
    answers.push({ body: WIRES[wire].start + WIRES[wire].error, end: false });
    const events = await drain(T[wire]);
    const final = events[events.length - 1];
    expect(final.type).toBe("error");
    expect(final.type === "error" && final.message.content).toEqual([{ type: "text", text: "Hel" }]);
    expect(final.type === "error" && final.retryable).toBe(true);
    await closed(sockets[0]);
  });
});
