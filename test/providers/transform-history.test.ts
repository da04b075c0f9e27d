import { describe, expect, it } from "vitest";
import { buildRequest } from "../../electron/core/providers/requests";
import { prepareRequest } from "../../electron/core/providers/requests/common";
import {
  CONTINUE_TEXT,
  EMPTY_RESULT_TEXT,
  IMAGE_OMITTED_TEXT,
  MISTRAL_BRIDGE_TEXT,
  SEE_ATTACHED_IMAGE_TEXT,
  SYNTHESIZED_RESULT_TEXT,
} from "../../electron/core/providers/transform/transform";
import { validateRequest } from "../../electron/core/providers/validate";
import type { Message } from "../../shared/protocol";
import {
  assistant,
  call,
  CLAUDE,
  freeze,
  GPT41_CHAT,
  GPT5,
  MISTRAL as MISTRAL_REF,
  OPUS,
  PNG,
  result,
  target,
  text,
  TOOLS,
  user,
  type Target,
} from "./transform-fixtures";

const ANTHROPIC = target("anthropic/claude-sonnet-4-5");
const CHAT = target("openai/gpt-4.1", "openai-completions");
const RESPONSES = target("openai/gpt-5");
const MISTRAL = target("mistral/mistral-large-latest");
const OLLAMA = target("ollama/llama3.1:8b");

function prepare(t: Target, messages: Message[], tools = TOOLS) {
  return prepareRequest(t.model, t.provider, { systemPrompt: "", messages: freeze(messages), tools });
}

function accepted(t: Target, messages: Message[], tools = TOOLS, mistral = false): unknown {
  const { body } = buildRequest(t.model, t.provider, { systemPrompt: "sys", messages: freeze(messages), tools });
  expect(validateRequest(t.model.api, body, { mistral })?.message ?? null).toBeNull();
  return body;
}

describe("orphaned calls and results", () => {
  // "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_…"
  it("answers a call left without a result in the middle of the history with a synthesized error result right after its turn", () => {
    const history = [
      user("go"),
      assistant(CLAUDE, [call("toolu_1")]),
      user("never mind"),
      assistant(CLAUDE, [text("ok")], "stop"),
      user("next"),
    ];
    const { messages } = prepare(ANTHROPIC, history);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResults", "user", "assistant", "user"]);
    const results = messages[2].role === "toolResults" ? messages[2].results : [];
    expect(results).toEqual([{ id: "toolu_1", name: "read", isError: true, content: [{ type: "text", text: SYNTHESIZED_RESULT_TEXT }] }]);
    accepted(ANTHROPIC, history);
  });

  it("answers calls left open at the very end of the history (an interrupted run)", () => {
    const history = [user("go"), assistant(CLAUDE, [call("toolu_1"), call("toolu_2")]), result("toolu_1", "done")];
    const { messages } = prepare(ANTHROPIC, history);
    const last = messages[messages.length - 1];
    expect(last.role).toBe("toolResults");
    if (last.role === "toolResults")
      expect(last.results.map((r) => [r.id, r.isError])).toEqual([
        ["toolu_1", false],
        ["toolu_2", true],
      ]);
    for (const t of [ANTHROPIC, CHAT, RESPONSES]) accepted(t, history);
    accepted(MISTRAL, history, TOOLS, true);
  });

  // "unexpected `tool_use_id` found in `tool_result` blocks" / "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"
  it("drops a result whose call is not in the open turn", () => {
    const history = [
      user("go"),
      result("ghost", "stray"),
      assistant(CLAUDE, [text("hi")], "stop"),
      result("ghost2", "stray"),
      user("again"),
    ];
    const { messages } = prepare(CHAT, history);
    expect(messages.some((m) => m.role === "toolResults")).toBe(false);
    accepted(CHAT, history);
  });

  it("keeps results that arrive after an interleaved user message, and sends that message after them", () => {
    const history = [
      user("go"),
      assistant(CLAUDE, [call("toolu_1"), call("toolu_2")]),
      result("toolu_1", "one"),
      user("also this"),
      result("toolu_2", "two"),
    ];
    const { messages } = prepare(ANTHROPIC, history);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResults", "user"]);
    if (messages[2].role === "toolResults") expect(messages[2].results.map((r) => r.isError)).toEqual([false, false]);
    accepted(ANTHROPIC, history);
  });

  it("answers two calls sharing an id in one turn with the result for the same tool name", () => {
    const history = [
      user("go"),
      assistant(CLAUDE, [call("dup", "read"), call("dup", "bash")]),
      result("dup", "from bash", "bash"),
      result("dup", "from read", "read"),
    ];
    const { messages } = prepare(ANTHROPIC, history);
    const results = messages[2].role === "toolResults" ? messages[2].results : [];
    expect(results.map((r) => r.content)).toEqual([[{ type: "text", text: "from read" }], [{ type: "text", text: "from bash" }]]);
  });
});

describe("errored and aborted turns", () => {
  it("keeps an aborted turn's visible text and drops its calls together with the results that follow it", () => {
    const history = [
      user("go"),
      assistant(CLAUDE, [{ type: "thinking", thinking: "half a thought" }, text("Let me look"), call("toolu_9")], "aborted"),
      result("toolu_9", "aborted", "read", true),
      user("continue"),
    ];
    const { messages, idMap } = prepare(ANTHROPIC, history);
    expect(messages).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "text", text: "Let me look" }] },
      { role: "user", content: [{ type: "text", text: "continue" }] },
    ]);
    expect([...idMap.keys()]).toEqual([]);
    accepted(ANTHROPIC, history);
  });

  it("removes an errored turn with no content and merges the user messages around it", () => {
    const history = [user("first"), assistant(GPT5, [], "error"), user("second")];
    const { messages } = prepare(ANTHROPIC, history);
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
      },
    ]);
  });
});

describe("thinking across models", () => {
  const signed = { type: "thinking" as const, thinking: "I should read it \uD800 first", signature: "sig-claude-sonnet" };

  // "Invalid `signature` in `thinking` block" after a switch (opencode #6418, cline #7620), and
  // "Refusal (reasoning_extraction)" for reasoning demoted to text (oh-my-pi #7241, claude-code #95530).
  it("leaves another model's thinking out and says so", () => {
    const history = [user("go"), assistant(OPUS, [signed, text("ok")], "stop"), user("next")];
    const { messages, repairs } = prepare(ANTHROPIC, history);
    expect(messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "ok" }] });
    expect(repairs).toEqual([expect.objectContaining({ kind: "otherReasoningDropped", messageIndex: 1 })]);
  });

  it("demotes another model's thinking to plain text only when asked, and never for Anthropic", () => {
    const history = [user("go"), assistant(OPUS, [signed, text("ok")], "stop"), user("next")];
    const chat = prepareRequest(
      CHAT.model,
      CHAT.provider,
      { systemPrompt: "", messages: freeze(history), tools: TOOLS },
      { demoteOtherReasoning: true },
    );
    expect(chat.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "I should read it \uFFFD first" },
        { type: "text", text: "ok" },
      ],
    });
    expect(chat.repairs.map((r) => r.kind)).toContain("otherReasoningDemoted");
    const claude = prepareRequest(
      ANTHROPIC.model,
      ANTHROPIC.provider,
      { systemPrompt: "", messages: freeze(history), tools: TOOLS },
      { demoteOtherReasoning: true },
    );
    expect(claude.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "ok" }] });
  });

  // Sanitising signed thinking invalidates the signature (pi #5416)
  it("sends the same model's signed thinking back byte-for-byte", () => {
    const clean = { ...signed, thinking: "I should read it first" };
    const history = [user("go"), assistant(CLAUDE, [clean, text("ok")], "stop"), user("next")];
    const { messages } = prepare(ANTHROPIC, history);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should read it first", signature: "sig-claude-sonnet", redacted: false },
        { type: "text", text: "ok" },
      ],
    });
  });

  // "no low surrogate in string": it cannot be sent as is, and cleaning it voids the signature.
  it("leaves out the same model's signed thinking when it holds a lone surrogate", () => {
    const history = [user("go"), assistant(CLAUDE, [signed, text("ok")], "stop"), user("next")];
    const { messages, repairs } = prepare(ANTHROPIC, history);
    expect(messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "ok" }] });
    expect(repairs).toEqual([expect.objectContaining({ kind: "surrogatesReplaced", messageIndex: 1 })]);
    accepted(ANTHROPIC, history);
  });

  it("keeps the same model's redacted thinking and drops another model's", () => {
    const redacted = { type: "thinking" as const, thinking: "", signature: "opaque-data", redacted: true };
    const own = prepare(ANTHROPIC, [user("go"), assistant(CLAUDE, [redacted, text("a")], "stop"), user("b")]).messages[1];
    expect(own).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "", signature: "opaque-data", redacted: true },
        { type: "text", text: "a" },
      ],
    });
    const foreign = prepare(ANTHROPIC, [user("go"), assistant(OPUS, [redacted, text("a")], "stop"), user("b")]).messages[1];
    expect(foreign).toEqual({ role: "assistant", content: [{ type: "text", text: "a" }] });
  });

  // "messages.N.content.M.thinking.signature: Field required" — an aborted stream leaves thinking unsigned.
  it("sends the same model's unsigned thinking to Anthropic as text", () => {
    const { messages } = prepare(ANTHROPIC, [
      user("go"),
      assistant(CLAUDE, [{ type: "thinking", thinking: "unsigned" }, text("a")], "stop"),
      user("b"),
    ]);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "unsigned" },
        { type: "text", text: "a" },
      ],
    });
  });
});

describe("message shape", () => {
  // "text content blocks must contain non-whitespace text" / "all messages must have non-empty content"
  it("removes blank text and empty messages, and replaces lone surrogates in unsigned text", () => {
    const history = [user("  ", "hi \uDC00"), assistant(CLAUDE, [text(" \n")], "stop"), user("")];
    const { messages } = prepare(ANTHROPIC, history);
    expect(messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi \uFFFD" }] }]);
  });

  // Anthropic: 'messages: first message must use the "user" role'; Mistral: "Expected last role User or Tool … but got assistant"
  it("starts with a user message and ends with one when the stored history does not", () => {
    const { messages } = prepare(MISTRAL, [assistant(MISTRAL_REF, [text("summary of earlier work")], "stop")]);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[2]).toEqual({ role: "user", content: [{ type: "text", text: CONTINUE_TEXT }] });
    accepted(MISTRAL, [assistant(MISTRAL_REF, [text("summary")], "stop")], TOOLS, true);
    accepted(ANTHROPIC, []);
  });

  it("gives an empty tool result a placeholder text", () => {
    const { messages } = prepare(CHAT, [user("go"), assistant(GPT41_CHAT, [call("call_1")]), result("call_1", [])]);
    if (messages[2].role === "toolResults") expect(messages[2].results[0].content).toEqual([{ type: "text", text: EMPTY_RESULT_TEXT }]);
  });

  // Mistral: "Unexpected role 'user' after role 'tool'" (opencode inserts an assistant "Done.")
  it("bridges a tool message and a following user message with an assistant turn for Mistral", () => {
    const history = [user("go"), assistant(MISTRAL_REF, [call("abcDEF123")]), result("abcDEF123", "out"), user("thanks, now this")];
    const { messages } = prepare(MISTRAL, history);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResults", "assistant", "user"]);
    expect(messages[3]).toEqual({ role: "assistant", content: [{ type: "text", text: MISTRAL_BRIDGE_TEXT }] });
    accepted(MISTRAL, history, TOOLS, true);
    expect(prepare(CHAT, history).messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResults", "user"]);
  });

  it("moves images out of Chat Completions tool messages into a user message right after the results", () => {
    const history = [
      user("look"),
      assistant(GPT41_CHAT, [call("call_1")]),
      result("call_1", [{ type: "text", text: "screenshot:" }, PNG]),
      user("what do you see?"),
    ];
    const { messages } = prepare(CHAT, history);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResults", "user"]);
    if (messages[2].role === "toolResults") {
      expect(messages[2].results[0].content).toEqual([
        { type: "text", text: "screenshot:" },
        { type: "text", text: SEE_ATTACHED_IMAGE_TEXT },
      ]);
    }
    expect(messages[3]).toEqual({ role: "user", content: [PNG, { type: "text", text: "what do you see?" }] });
    accepted(CHAT, history);
    const mistral = prepare(MISTRAL, history).messages.map((m) => m.role);
    expect(mistral).toEqual(["user", "assistant", "toolResults", "assistant", "user"]);
  });

  it("keeps images inside Anthropic tool results", () => {
    const history = [user("look"), assistant(CLAUDE, [call("toolu_1")]), result("toolu_1", [PNG])];
    const { messages } = prepare(ANTHROPIC, history);
    if (messages[2].role === "toolResults") expect(messages[2].results[0].content).toEqual([PNG]);
  });

  it("replaces images with a note for a model that does not accept them", () => {
    const { messages } = prepare(OLLAMA, [user("see", PNG)]);
    expect(messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "see" },
        { type: "text", text: IMAGE_OMITTED_TEXT },
      ],
    });
  });
});

describe("history with tool calls and no tools offered", () => {
  // "Requests which include `tool_use` or `tool_result` blocks must define tools." (continue #3579)
  it("sends earlier calls and results as text, for every target", () => {
    const history = [
      user("go"),
      assistant(CLAUDE, [text("checking"), call("toolu_1", "read", { path: "a" })]),
      result("toolu_1", "contents"),
      user("summarise"),
    ];
    const { messages, idMap } = prepare(ANTHROPIC, history, []);
    expect(messages).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "checking" },
          { type: "text", text: '[Tool call: read {"path":"a"}]' },
        ],
      },
      {
        role: "user",
        content: [
          { type: "text", text: "[Tool result for read]" },
          { type: "text", text: "contents" },
          { type: "text", text: "summarise" },
        ],
      },
    ]);
    expect([...idMap.keys()]).toEqual([]);
    for (const t of [ANTHROPIC, CHAT, RESPONSES]) accepted(t, history, []);
    accepted(MISTRAL, history, [], true);
  });
});

describe("purity", () => {
  it("never mutates the stored history (deep-frozen input) and returns fresh containers", () => {
    const history = freeze([
      user("go", PNG),
      assistant(CLAUDE, [{ type: "thinking", thinking: "t", signature: "s" }, call("functions.x:1")]),
      result("functions.x:1", "r"),
      user("more"),
    ]);
    const before = JSON.stringify(history);
    for (const t of [ANTHROPIC, CHAT, RESPONSES, MISTRAL]) {
      const built = buildRequest(t.model, t.provider, { systemPrompt: "s", messages: history, tools: TOOLS });
      expect(built.body).toBeDefined();
    }
    expect(JSON.stringify(history)).toBe(before);
  });
});

describe("a failed attempt cut inside a tool call, then retried", () => {
  // The loop stores the failed attempt with its call and an error result for it, then the retry's turn.
  const history = (): Message[] => [
    user("read a"),
    assistant(CLAUDE, [text("Reading"), call("toolu_cut")], "error"),
    { ...result("toolu_cut", "error: the response failed before this tool call could run"), isError: true },
    assistant(CLAUDE, [call("toolu_ok")]),
    result("toolu_ok", "contents"),
    assistant(CLAUDE, [text("a says hello")], "stop"),
    user("thanks"),
  ];

  for (const [name, t] of [
    ["Anthropic", ANTHROPIC],
    ["Chat Completions", CHAT],
    ["Responses", RESPONSES],
    ["Mistral", MISTRAL],
  ] as const) {
    it(`never sends the failed attempt's call, nor its result, to ${name}`, () => {
      const { messages } = prepare(t, history());
      const wire = JSON.stringify(messages);
      expect(wire).not.toContain("toolu_cut");
      expect(wire).toContain("contents");
      accepted(t, history(), TOOLS, t === MISTRAL);
    });
  }
});
