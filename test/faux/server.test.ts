/**
 * The faux provider on its own, driven by the real SDKs directly: routes,
 * non-streamed answers, strict validation with the real error texts,
 * signatures bound to their model, scripted and dynamic answers.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reply, startFauxProvider, text, thinking, toolCall, type FauxProvider, type FauxRequest } from "../../electron/core/faux";

let faux: FauxProvider;
let anthropic: Anthropic;
let openai: OpenAI;
let mistral: OpenAI;

beforeAll(async () => {
  faux = await startFauxProvider();
  anthropic = new Anthropic({ apiKey: "test-key", baseURL: faux.baseUrls.anthropic, maxRetries: 0 });
  openai = new OpenAI({ apiKey: "test-key", baseURL: faux.baseUrls.openai, maxRetries: 0 });
  mistral = new OpenAI({ apiKey: "test-key", baseURL: faux.baseUrls.mistral, maxRetries: 0 });
});
afterAll(() => faux.close());
beforeEach(() => {
  faux.reset();
  faux.setDefaultResponder(null);
});

async function rejectionOf(promise: Promise<unknown>): Promise<{ status: number | undefined; message: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as { status?: number; message: string };
    return { status: e.status, message: e.message };
  }
  throw new Error("expected the request to be rejected");
}

describe("answers without streaming", () => {
  it("Anthropic Messages returns the whole message", async () => {
    faux.script(reply([text("Hi."), toolCall("read", { path: "a.ts" }, "toolu_01abc")], { usage: { input: 10, output: 5 } }));
    const message = await anthropic.messages.create({ model: "claude-x", max_tokens: 100, messages: [{ role: "user", content: "hello" }] });
    expect(message.content).toEqual([
      { type: "text", text: "Hi." },
      { type: "tool_use", id: "toolu_01abc", name: "read", input: { path: "a.ts" } },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage.input_tokens).toBe(10);
  });

  it("Chat Completions returns the whole completion", async () => {
    faux.script(reply([text("Hi."), toolCall("read", { path: "a.ts" }, "call_1")]));
    const completion = await openai.chat.completions.create({ model: "gpt-x", messages: [{ role: "user", content: "hello" }] });
    expect(completion.choices[0].message.content).toBe("Hi.");
    expect(completion.choices[0].message.tool_calls?.[0]).toMatchObject({
      id: "call_1",
      function: { name: "read", arguments: '{"path":"a.ts"}' },
    });
    expect(completion.choices[0].finish_reason).toBe("tool_calls");
  });

  it("Responses returns the whole response with call_id and item id split from the scripted id", async () => {
    faux.script(reply([text("Hi."), toolCall("read", { path: "a.ts" }, "call_1|fc_2")]));
    const response = await openai.responses.create({ model: "gpt-x", input: "hello" });
    expect(response.output_text).toBe("Hi.");
    expect(response.output[1]).toMatchObject({ type: "function_call", call_id: "call_1", id: "fc_2", name: "read" });
  });
});

describe("strict validation", () => {
  it("rejects an Anthropic tool_use id with characters outside the pattern, with the real error text", async () => {
    faux.script(reply("should not be used"));
    const rejected = await rejectionOf(
      anthropic.messages.create({
        model: "claude-x",
        max_tokens: 100,
        tools: [{ name: "Bash", input_schema: { type: "object", properties: {} } }],
        messages: [
          { role: "user", content: "run it" },
          { role: "assistant", content: [{ type: "tool_use", id: "functions.Bash:0", name: "Bash", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "functions.Bash:0", content: "ok" }] },
        ],
      }),
    );
    expect(rejected.status).toBe(400);
    expect(rejected.message).toContain("tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'");
    expect(faux.requests[0]).toMatchObject({ accepted: false, outcome: "rejected" });
    // A rejected request does not use up the script.
    expect(faux.pending()).toBe(1);
  });

  it("accepts a thinking signature only from the model it was issued for", async () => {
    faux.script([reply([thinking("private plan"), text("Done.")]), reply("second"), reply("third")]);
    const thinkingOn = { type: "enabled", budget_tokens: 1024 } as const;
    const first = await anthropic.messages.create({
      model: "claude-a",
      max_tokens: 2000,
      thinking: thinkingOn,
      messages: [{ role: "user", content: "q" }],
    });
    expect(first.content[0].type).toBe("thinking");
    const history: Anthropic.MessageParam[] = [
      { role: "user", content: "q" },
      { role: "assistant", content: first.content as Anthropic.ContentBlockParam[] },
      { role: "user", content: "and?" },
    ];
    const same = await anthropic.messages.create({ model: "claude-a", max_tokens: 2000, thinking: thinkingOn, messages: history });
    expect(same.content).toEqual([{ type: "text", text: "second" }]);
    const other = await rejectionOf(
      anthropic.messages.create({ model: "claude-b", max_tokens: 2000, thinking: thinkingOn, messages: history }),
    );
    expect(other.status).toBe(400);
    expect(other.message).toContain("Invalid `signature` in `thinking` block");
  });

  it("sends Anthropic thinking only when the request enabled it, as the real API does", async () => {
    faux.script(reply([thinking("plan"), text("Answer.")]));
    const message = await anthropic.messages.create({ model: "claude-a", max_tokens: 2000, messages: [{ role: "user", content: "q" }] });
    expect(message.content).toEqual([{ type: "text", text: "Answer." }]);
    // Adaptive thinking is thinking enabled: the validator then requires the block back, so the answer carries it.
    faux.script(reply([thinking("plan"), text("Answer.")]));
    const adaptive = await anthropic.messages.create({
      model: "claude-a",
      max_tokens: 2000,
      thinking: { type: "adaptive" } as unknown as Anthropic.ThinkingConfigParam,
      messages: [{ role: "user", content: "q" }],
    });
    expect(adaptive.content.map((b) => b.type)).toEqual(["thinking", "text"]);
  });

  it("applies Mistral's rules on the mistral route only", async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: "user", content: "run" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_abc123XYZ", type: "function", function: { name: "bash", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_abc123XYZ", content: "ok" },
    ];
    faux.script(reply("fine on OpenAI"));
    const ok = await openai.chat.completions.create({ model: "gpt-x", messages });
    expect(ok.choices[0].message.content).toBe("fine on OpenAI");
    const rejected = await rejectionOf(mistral.chat.completions.create({ model: "mistral-large", messages }));
    expect(rejected.status).toBe(400);
    const body = faux.requests[1].rejection?.body;
    expect(body).toMatchObject({
      object: "error",
      message: "Tool call id was call_abc123XYZ but must be a-z, A-Z, 0-9, with a length of 9.",
    });
  });

  it("records every request with its verdict", async () => {
    faux.script([reply("a"), reply("b")]);
    await openai.chat.completions.create({ model: "gpt-x", messages: [{ role: "user", content: "1" }] });
    await openai.responses.create({ model: "gpt-x", input: "2" });
    expect(faux.requests.map((r) => [r.route, r.accepted, r.outcome])).toEqual([
      ["openai-completions", true, "reply"],
      ["openai-responses", true, "reply"],
    ]);
  });
});

describe("scripts and responders", () => {
  it("answers 'nothing scripted' instead of hanging when the queue is empty", async () => {
    const rejected = await rejectionOf(openai.chat.completions.create({ model: "gpt-x", messages: [{ role: "user", content: "1" }] }));
    expect(rejected.status).toBe(400);
    expect(rejected.message).toContain("nothing scripted");
    expect(faux.requests[0].outcome).toBe("unscripted");
  });

  it("lets a responder react to the conversation on any API", async () => {
    const seen: FauxRequest[] = [];
    faux.setDefaultResponder((request) => {
      seen.push(request);
      return request.lastTurn?.role === "toolResult" ? reply(`got ${request.lastTurn.text}`) : reply(toolCall("read", { path: "x" }));
    });
    const first = await openai.responses.create({ model: "gpt-x", input: "start" });
    const call = first.output.find((o) => o.type === "function_call");
    expect(call?.type).toBe("function_call");
    if (call?.type !== "function_call") return;
    const second = await openai.responses.create({
      model: "gpt-x",
      input: [
        { role: "user", content: "start" },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: "file body" },
      ],
    });
    expect(second.output_text).toBe("got file body");
    expect(seen[1].turns.map((t) => t.role)).toEqual(["user", "assistant", "toolResult"]);
  });

  it("runs scripted steps before the default responder, in order", async () => {
    faux.setDefaultResponder(() => reply("default"));
    faux.script([reply("first"), () => reply("dynamic")]);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = await anthropic.messages.create({ model: "c", max_tokens: 10, messages: [{ role: "user", content: "x" }] });
      texts.push(m.content[0].type === "text" ? m.content[0].text : "");
    }
    expect(texts).toEqual(["first", "dynamic", "default"]);
  });

  it("turns a responder that throws into a 500, not a crash", async () => {
    faux.script(() => {
      throw new Error("scenario bug");
    });
    const original = console.error;
    console.error = () => {};
    try {
      const rejected = await rejectionOf(
        anthropic.messages.create({ model: "c", max_tokens: 10, messages: [{ role: "user", content: "x" }] }),
      );
      expect(rejected.status).toBe(500);
    } finally {
      console.error = original;
    }
  });

  it("waitForRequests resolves once the server has seen that many requests", async () => {
    faux.script(reply("x", { hangAfterEvents: 2 }));
    const controller = new AbortController();
    const pending = anthropic.messages
      .create({ model: "c", max_tokens: 10, stream: true, messages: [{ role: "user", content: "x" }] }, { signal: controller.signal })
      .then(async (stream) => {
        for await (const _ of stream) {
          // drain until the abort
        }
      })
      .catch(() => {});
    await faux.waitForRequests(1);
    expect(faux.requests).toHaveLength(1);
    controller.abort();
    await pending;
  });

  it("answers 404 on an unknown path", async () => {
    const response = await fetch(`${faux.baseUrls.openai}/embeddings`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
  });
});

describe("timing records (what bench:loop reads)", () => {
  it("stamps when a streamed answer was fully written, and its CPU time only when asked", async () => {
    const timed = await startFauxProvider({ recordCpu: true });
    try {
      const client = new Anthropic({ apiKey: "test-key", baseURL: timed.baseUrls.anthropic, maxRetries: 0 });
      for (const server of [faux, timed]) {
        server.script(reply([text("Hi.")]));
        const sdk = server === faux ? anthropic : client;
        const stream = await sdk.messages.create({
          model: "claude-x",
          max_tokens: 100,
          stream: true,
          messages: [{ role: "user", content: "hello" }],
        });
        for await (const _event of stream) void _event;
      }
      const plain = faux.requests[faux.requests.length - 1];
      const withCpu = timed.requests[timed.requests.length - 1];
      for (const record of [plain, withCpu]) {
        expect(record.endedAt).not.toBeNull();
        expect(record.endedAt!).toBeGreaterThanOrEqual(record.receivedAt);
      }
      expect(plain.cpuMs).toBeNull();
      expect(withCpu.cpuMs).toEqual(expect.any(Number));
      expect(withCpu.cpuMs!).toBeGreaterThan(0);
    } finally {
      await timed.close();
    }
  });
});
