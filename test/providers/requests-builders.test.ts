import { describe, expect, it } from "vitest";
import {
  buildAnthropicRequest,
  buildOpenAICompletionsRequest,
  buildOpenAIResponsesRequest,
  buildRequestBody,
} from "../../electron/core/providers/requests";
import { validateRequest } from "../../electron/core/providers/validate";
import type { LlmContext, ToolSpec } from "../../electron/core/providers/types";
import type { Message } from "../../shared/protocol";
import { assistant, call, CLAUDE, freeze, GPT5, KIMI, result, target, text, TOOLS, user } from "./transform-fixtures";

const ANTHROPIC = target("anthropic/claude-sonnet-4-5");
const CHAT = target("openai/gpt-4.1", "openai-completions");
const GPT5_CHAT = target("openai/gpt-5", "openai-completions");
const RESPONSES = target("openai/gpt-5");
const MISTRAL = target("mistral/mistral-large-latest");
const DEEPSEEK = target("deepseek/deepseek-reasoner");
const DEEPSEEK_REF = { provider: "deepseek", api: "openai-completions" as const, id: "deepseek-reasoner" };

const REASONING_ITEM = JSON.stringify({
  type: "reasoning",
  id: "rs_1",
  summary: [{ type: "summary_text", text: "Plan" }],
  encrypted_content: "gAAA-encrypted",
  status: "completed",
});

/** A session begun on Kimi (odd ids), continued here: the golden input for every builder. */
const HISTORY: Message[] = freeze([
  user("List the files"),
  assistant(KIMI, [text("Listing."), call("functions.bash:0", "bash", { command: "ls" })]),
  result("functions.bash:0", "a.txt\nb.txt", "bash"),
  assistant(KIMI, [text("Two files.")], "stop"),
  user("Read a.txt"),
]);

const CONTEXT: LlmContext = { systemPrompt: "You are a coding agent.", messages: HISTORY, tools: TOOLS };

describe("golden request bodies", () => {
  it("Anthropic Messages", () => {
    const { body, idMap } = buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, CONTEXT, { maxTokens: 4096 });
    expect(body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 4096,
      stream: true,
      system: [{ type: "text", text: "You are a coding agent.", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "List the files" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Listing." },
            { type: "tool_use", id: "functions_bash_0", name: "bash", input: { command: "ls" } },
          ],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "functions_bash_0", content: [{ type: "text", text: "a.txt\nb.txt" }] }],
        },
        { role: "assistant", content: [{ type: "text", text: "Two files." }] },
        { role: "user", content: [{ type: "text", text: "Read a.txt", cache_control: { type: "ephemeral" } }] },
      ],
      tools: [
        {
          name: "read",
          description: "Read a file.",
          input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        },
        {
          name: "bash",
          description: "Run a command.",
          input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
        },
      ],
      tool_choice: { type: "auto" },
    });
    expect(Object.fromEntries(idMap)).toEqual({ functions_bash_0: "functions.bash:0" });
    expect(validateRequest("anthropic-messages", body)).toBeNull();
  });

  it("OpenAI Chat Completions", () => {
    const { body } = buildOpenAICompletionsRequest(CHAT.model, CHAT.provider, CONTEXT, { maxTokens: 4096, temperature: 0.2 });
    expect(body).toEqual({
      model: "gpt-4.1",
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 4096,
      temperature: 0.2,
      messages: [
        { role: "system", content: "You are a coding agent." },
        { role: "user", content: "List the files" },
        {
          role: "assistant",
          content: "Listing.",
          tool_calls: [{ id: "functions_bash_0", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
        },
        { role: "tool", tool_call_id: "functions_bash_0", content: "a.txt\nb.txt" },
        { role: "assistant", content: "Two files." },
        { role: "user", content: "Read a.txt" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "read",
            description: "Read a file.",
            parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
          },
        },
        {
          type: "function",
          function: {
            name: "bash",
            description: "Run a command.",
            parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
          },
        },
      ],
      tool_choice: "auto",
    });
    expect(validateRequest("openai-completions", body)).toBeNull();
  });

  it("OpenAI Responses", () => {
    const { body } = buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, CONTEXT, { maxTokens: 4096, reasoning: "low" });
    expect(body).toEqual({
      model: "gpt-5",
      stream: true,
      store: false,
      max_output_tokens: 4096,
      instructions: "You are a coding agent.",
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "low", summary: "auto" },
      input: [
        { role: "user", content: [{ type: "input_text", text: "List the files" }] },
        { role: "assistant", content: "Listing." },
        { type: "function_call", call_id: "functions_bash_0", name: "bash", arguments: '{"command":"ls"}' },
        { type: "function_call_output", call_id: "functions_bash_0", output: "a.txt\nb.txt" },
        { role: "assistant", content: "Two files." },
        { role: "user", content: [{ type: "input_text", text: "Read a.txt" }] },
      ],
      tools: [
        {
          type: "function",
          name: "read",
          description: "Read a file.",
          strict: false,
          parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        },
        {
          type: "function",
          name: "bash",
          description: "Run a command.",
          strict: false,
          parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
        },
      ],
      tool_choice: "auto",
    });
    expect(validateRequest("openai-responses", body)).toBeNull();
  });

  it("Mistral through Chat Completions", () => {
    const { body } = buildOpenAICompletionsRequest(MISTRAL.model, MISTRAL.provider, CONTEXT, { maxTokens: 1000 });
    expect(body.max_tokens).toBe(1000);
    expect(body).not.toHaveProperty("max_completion_tokens");
    expect(body).not.toHaveProperty("stream_options");
    const ids = body.messages.flatMap((m) => ("tool_calls" in m && m.tool_calls ? m.tool_calls.map((c) => c.id) : []));
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(validateRequest("openai-completions", body, { mistral: true })).toBeNull();
  });
});

describe("tool schemas and tool choice per API", () => {
  const strictTool: ToolSpec = {
    name: "edit",
    description: "Edit.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
  };
  const tools = [...TOOLS, strictTool];
  const context = (toolChoice: LlmContext["toolChoice"]): LlmContext => ({ systemPrompt: "", messages: [user("hi")], tools, toolChoice });

  it("maps auto / none / required / one named tool for each API", () => {
    const anthropic = (c: LlmContext["toolChoice"]) =>
      buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, context(c)).body.tool_choice;
    expect([anthropic("auto"), anthropic("none"), anthropic("required"), anthropic({ name: "bash" })]).toEqual([
      { type: "auto" },
      { type: "none" },
      { type: "any" },
      { type: "tool", name: "bash" },
    ]);
    const chat = (c: LlmContext["toolChoice"]) => buildOpenAICompletionsRequest(CHAT.model, CHAT.provider, context(c)).body.tool_choice;
    expect([chat("auto"), chat("none"), chat("required"), chat({ name: "bash" })]).toEqual([
      "auto",
      "none",
      "required",
      { type: "function", function: { name: "bash" } },
    ]);
    const responses = (c: LlmContext["toolChoice"]) =>
      buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, context(c)).body.tool_choice;
    expect([responses("auto"), responses("none"), responses("required"), responses({ name: "bash" })]).toEqual([
      "auto",
      "none",
      "required",
      { type: "function", name: "bash" },
    ]);
  });

  it("falls back to auto when the named tool is not offered", () => {
    expect(buildOpenAICompletionsRequest(CHAT.model, CHAT.provider, context({ name: "nope" })).body.tool_choice).toBe("auto");
  });

  it("marks only qualifying schemas strict, and only where the server accepts strict", () => {
    const chatTools = buildOpenAICompletionsRequest(CHAT.model, CHAT.provider, context("auto")).body.tools ?? [];
    expect(chatTools.map((t) => (t.type === "function" ? t.function.strict : undefined))).toEqual([undefined, undefined, true]);
    const responsesTools = buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, context("auto")).body.tools ?? [];
    expect(responsesTools.map((t) => (t.type === "function" ? t.strict : undefined))).toEqual([false, false, true]);
    const groq = target("groq/llama-3.3-70b-versatile");
    const groqTools = buildOpenAICompletionsRequest(groq.model, groq.provider, context("auto")).body.tools ?? [];
    expect(groqTools.every((t) => t.type === "function" && t.function.strict === undefined)).toBe(true);
  });

  it("gives tools names valid everywhere and maps the model's calls back to the app's names", () => {
    const odd: ToolSpec = { name: "mcp.github:search issues", description: "", parameters: { type: "object", properties: {} } };
    const built = buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, {
      systemPrompt: "",
      messages: [
        user("go"),
        assistant(CLAUDE, [call("toolu_1", "mcp.github:search issues", {})]),
        result("toolu_1", "[]", "mcp.github:search issues"),
      ],
      tools: [odd],
    });
    const [tool] = built.body.tools ?? [];
    expect(tool).toMatchObject({ name: "mcp_github_search_issues" });
    expect(built.toolNames.mcp_github_search_issues).toBe("mcp.github:search issues");
    expect(JSON.stringify(built.body.messages)).toContain('"name":"mcp_github_search_issues"');
    expect(validateRequest("anthropic-messages", built.body)).toBeNull();
  });

  // "tools: Tool names must be unique."
  it("offers a tool name once when two specs share it", () => {
    const twice = [...TOOLS, { name: "read", description: "again", parameters: { type: "object" } }];
    const body = buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, {
      systemPrompt: "",
      messages: [user("hi")],
      tools: twice,
    }).body;
    expect(body.tools?.map((t) => ("name" in t ? t.name : ""))).toEqual(["read", "bash"]);
    expect(validateRequest("anthropic-messages", body)).toBeNull();
  });

  it("sends no tools key at all when no tools are offered ('Invalid 'tools': empty array')", () => {
    const body = buildOpenAICompletionsRequest(CHAT.model, CHAT.provider, { systemPrompt: "", messages: [user("hi")], tools: [] }).body;
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("tool_choice");
  });
});

describe("system prompt, output cap and reasoning per API", () => {
  it("uses the developer role for OpenAI reasoning models on Chat Completions, with reasoning_effort", () => {
    const body = buildOpenAICompletionsRequest(
      GPT5_CHAT.model,
      GPT5_CHAT.provider,
      { systemPrompt: "rules", messages: [user("hi")] },
      { reasoning: "high" },
    ).body;
    expect(body.messages[0]).toEqual({ role: "developer", content: "rules" });
    expect(body.reasoning_effort).toBe("high");
  });

  it("omits an empty system prompt everywhere", () => {
    const ctx: LlmContext = { systemPrompt: "  ", messages: [user("hi")] };
    expect(buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, ctx).body).not.toHaveProperty("system");
    expect(buildOpenAICompletionsRequest(CHAT.model, CHAT.provider, ctx).body.messages[0].role).toBe("user");
    expect(buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, ctx).body).not.toHaveProperty("instructions");
  });

  it("caps max tokens at the model's maximum output", () => {
    expect(buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, CONTEXT, { maxTokens: 10_000_000 }).body.max_tokens).toBe(
      ANTHROPIC.model.maxOutput,
    );
  });

  it("sends DeepSeek its own reasoning back in reasoning_content and drops other models' thinking signatures", () => {
    const history = [
      user("q"),
      assistant(DEEPSEEK_REF, [{ type: "thinking", thinking: "my reasoning" }, call("call_1")]),
      result("call_1", "r"),
    ];
    const body = buildOpenAICompletionsRequest(DEEPSEEK.model, DEEPSEEK.provider, {
      systemPrompt: "",
      messages: history,
      tools: TOOLS,
    }).body;
    expect(body.messages[1]).toMatchObject({ role: "assistant", reasoning_content: "my reasoning", content: null });
  });
});

describe("Anthropic extended thinking", () => {
  const ctx = (messages: Message[], toolChoice?: LlmContext["toolChoice"]): LlmContext => ({
    systemPrompt: "",
    messages,
    tools: TOOLS,
    toolChoice,
  });

  it("enables thinking with a budget when asked and the model reasons, raising max_tokens to fit it", () => {
    const body = buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, ctx([user("hi")]), {
      reasoning: "medium",
      maxTokens: 4096,
    }).body;
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
    expect(body.max_tokens).toBe(16_384);
    expect(validateRequest("anthropic-messages", body)).toBeNull();
  });

  it("asks for adaptive thinking with an effort where the model declares it, and nothing for off or the default", () => {
    const opus = target("anthropic/claude-opus-4-6");
    const high = buildAnthropicRequest(opus.model, opus.provider, ctx([user("hi")]), { reasoning: "high" }).body;
    expect(high.thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect(high.output_config).toEqual({ effort: "high" });
    expect(validateRequest("anthropic-messages", high)).toBeNull();
    for (const reasoning of ["off", undefined] as const) {
      const body = buildAnthropicRequest(opus.model, opus.provider, ctx([user("hi")]), { reasoning }).body;
      expect(body).not.toHaveProperty("thinking");
      expect(body).not.toHaveProperty("output_config");
    }
  });

  // "Thinking may not be enabled when tool_choice forces tool use."
  it("leaves thinking off when tool_choice forces a tool", () => {
    const body = buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, ctx([user("hi")], "required"), { reasoning: "high" }).body;
    expect(body).not.toHaveProperty("thinking");
  });

  // "When `thinking` is enabled, a final `assistant` message must start with a thinking block"
  it("leaves thinking off while finishing a tool loop another model started", () => {
    const history = [user("go"), assistant(GPT5, [call("call_1")]), result("call_1", "done")];
    const body = buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, ctx(history), { reasoning: "high" }).body;
    expect(body).not.toHaveProperty("thinking");
    const withThinking = { ...body, thinking: { type: "enabled" as const, budget_tokens: 2048 } };
    expect(validateRequest("anthropic-messages", withThinking)?.message).toMatch(
      /a final `assistant` message must start with a thinking block/,
    );
  });

  it("keeps thinking on when the tool loop's last turn starts with this model's signed thinking", () => {
    const history = [
      user("go"),
      assistant(CLAUDE, [{ type: "thinking", thinking: "t", signature: "sig" }, call("toolu_1")]),
      result("toolu_1", "done"),
    ];
    const body = buildAnthropicRequest(ANTHROPIC.model, ANTHROPIC.provider, ctx(history), { reasoning: "low" }).body;
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(validateRequest("anthropic-messages", body, { signatureOwner: () => "claude-sonnet-4-5" })).toBeNull();
  });
});

describe("Responses reasoning replay", () => {
  const turn = (model = GPT5) => [
    user("go"),
    assistant(model, [{ type: "thinking", thinking: "Plan", signature: REASONING_ITEM }, call("call_1|fc_1")]),
    result("call_1|fc_1", "ok"),
  ];

  it("replays the model's own reasoning item right before its function call, with the fc_ item id", () => {
    const { input } = buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, {
      systemPrompt: "",
      messages: turn(),
      tools: TOOLS,
    }).body;
    expect(input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "go" }] },
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Plan" }], encrypted_content: "gAAA-encrypted" },
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"path":"a.txt"}' },
      { type: "function_call_output", call_id: "call_1", output: "ok" },
    ]);
  });

  // "Duplicate item found with id rs_…" — e.g. a forked session that repeats a turn.
  it("sends a reasoning item at most once; the repeated turn goes without reasoning and item ids", () => {
    const repeated = [
      ...turn(),
      assistant(GPT5, [{ type: "thinking", thinking: "Plan", signature: REASONING_ITEM }, call("call_2|fc_2")]),
      result("call_2|fc_2", "ok"),
    ];
    const { body } = buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, {
      systemPrompt: "",
      messages: repeated,
      tools: TOOLS,
    });
    expect(JSON.stringify(body.input).match(/"type":"reasoning"/g)).toHaveLength(1);
    expect(body.input).toContainEqual({ type: "function_call", call_id: "call_2", name: "read", arguments: '{"path":"a.txt"}' });
    expect(validateRequest("openai-responses", body)).toBeNull();
  });

  it("sends a turn whose thinking repeats one reasoning item without reasoning and item ids", () => {
    const twice = { type: "thinking" as const, thinking: "Plan", signature: REASONING_ITEM };
    const messages = [user("go"), assistant(GPT5, [twice, twice, call("call_1|fc_1")]), result("call_1|fc_1", "ok")];
    const { body } = buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, { systemPrompt: "", messages, tools: TOOLS });
    expect(JSON.stringify(body.input)).not.toContain('"type":"reasoning"');
    expect(body.input).toContainEqual({ type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.txt"}' });
    expect(validateRequest("openai-responses", body)).toBeNull();
  });

  it("leaves another model's reasoning out, and never sends its encrypted item", () => {
    const other = { provider: "openai", api: "openai-responses" as const, id: "gpt-5-mini" };
    const built = buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, {
      systemPrompt: "",
      messages: turn(other),
      tools: TOOLS,
    });
    expect(JSON.stringify(built.body.input)).not.toContain("encrypted");
    expect(JSON.stringify(built.body.input)).not.toContain("Plan");
    expect(built.repairs.map((r) => r.kind)).toEqual(["otherReasoningDropped"]);
    const demoted = buildOpenAIResponsesRequest(
      RESPONSES.model,
      RESPONSES.provider,
      { systemPrompt: "", messages: turn(other), tools: TOOLS },
      { demoteOtherReasoning: true },
    );
    expect(demoted.body.input).toContainEqual({ role: "assistant", content: "Plan" });
  });

  // "Item with id 'rs_…' not found. Items are not persisted when `store` is set to false."
  it("does not replay a reasoning item that has no encrypted content, and says so", () => {
    const bare = JSON.stringify({ type: "reasoning", id: "rs_bare", summary: [] });
    const messages = [
      user("go"),
      assistant(GPT5, [{ type: "thinking", thinking: "Plan", signature: bare }, call("call_1|fc_1")]),
      result("call_1|fc_1", "ok"),
    ];
    const built = buildOpenAIResponsesRequest(RESPONSES.model, RESPONSES.provider, { systemPrompt: "", messages, tools: TOOLS });
    expect(JSON.stringify(built.body.input)).not.toContain("rs_bare");
    expect(built.body.input).toContainEqual({ type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.txt"}' });
    expect(built.repairs).toEqual([expect.objectContaining({ kind: "reasoningItemDropped", detail: expect.stringContaining("rs_bare") })]);
    expect(validateRequest("openai-responses", built.body)).toBeNull();
    const input = built.body.input as unknown[];
    const replayed = { ...built.body, input: [input[0], { type: "reasoning", id: "rs_bare", summary: [] }, ...input.slice(1)] };
    expect(validateRequest("openai-responses", replayed)?.message).toMatch(/Item with id 'rs_bare' not found/);
  });
});

describe("buildRequestBody", () => {
  it("dispatches on the model's api", () => {
    expect(buildRequestBody(ANTHROPIC.model, ANTHROPIC.provider, CONTEXT)).toHaveProperty("max_tokens");
    expect(buildRequestBody(CHAT.model, CHAT.provider, CONTEXT)).toHaveProperty("messages");
    expect(buildRequestBody(RESPONSES.model, RESPONSES.provider, CONTEXT)).toHaveProperty("input");
  });
});
