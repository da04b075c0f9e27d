/**
 * The request rules of providers as they are today (issue #33): each history or
 * setting that built a body the real API refuses, built by the pure builders
 * into a body the taught validator accepts, and the validator refusing the body
 * the old builder made, with the provider's error text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, startFauxProvider, text, type FauxProvider } from "../../electron/core/faux";
import { context, fakeAwsCredentials, run, user } from "./adapters-fixtures";
import type { AssistantMessage, Message } from "../../shared/protocol";
import { reasoningLevelsFor } from "../../shared/models";
import { findModel, findProvider, resolveCompat } from "../../electron/core/providers/registry";
import { buildBedrockRequest, buildGeminiRequest, buildOpenAIResponsesRequest } from "../../electron/core/providers/requests";
import { validateBedrockRequest, validateGeminiRequest, validateOpenAIResponsesRequest } from "../../electron/core/providers/validate";
import { SKIP_THOUGHT_SIGNATURE } from "../../electron/core/providers/requests/gemini";

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

const READ = {
  name: "read",
  description: "Read a file.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
};

function model(ref: string) {
  const m = findModel(ref);
  const p = m && findProvider(m.provider);
  if (!m || !p) throw new Error(`registry lacks ${ref}`);
  return { m, p };
}

function assistant(
  ref: { provider: string; api: AssistantMessage["model"]["api"]; id: string },
  content: AssistantMessage["content"],
  stop: AssistantMessage["stopReason"] = "toolUse",
): AssistantMessage {
  return { role: "assistant", content, stopReason: stop, model: ref, usage, timestamp: 2 };
}

/** A tool loop the given model opened with a call (no reasoning), the call answered. */
function toolLoop(ref: AssistantMessage["model"], id = "tooluse_0123456789abcdef"): Message[] {
  return [
    { role: "user", content: [{ type: "text", text: "Fix the build." }], timestamp: 1 },
    assistant(ref, [
      { type: "text", text: "Reading the file." },
      { type: "toolCall", id, name: "read", arguments: { path: "a.ts" } },
    ]),
    {
      role: "toolResult",
      toolCallId: id,
      toolName: "read",
      isError: false,
      content: [{ type: "text", text: "export const a = 1;" }],
      timestamp: 3,
    },
  ];
}

describe("Bedrock Claude with thinking keeps the Anthropic builder's guards", () => {
  const { m, p } = model("bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0");
  const ref = { provider: m.provider, api: m.api, id: m.id };

  it("leaves thinking out when reasoning was switched on in the middle of a tool loop, and the validator refuses it otherwise", () => {
    const history = toolLoop(ref);
    const { body } = buildBedrockRequest(m, p, { systemPrompt: "s", messages: history, tools: [READ] }, { reasoning: "high" });
    expect(body.additionalModelRequestFields).toBeUndefined();
    expect(validateBedrockRequest(body, { modelId: m.id, stream: true })).toBeNull();
    const naive = { ...body, additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 24_576 } } };
    expect(validateBedrockRequest(naive, { modelId: m.id, stream: true })?.message).toMatch(
      /When `thinking` is enabled, a final `assistant` message must start with a thinking block/,
    );
  });

  it("leaves thinking out when the tool choice forces a tool, and the validator refuses it otherwise", () => {
    const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Read a.ts." }], timestamp: 1 }];
    const ctx = { systemPrompt: "s", messages, tools: [READ], toolChoice: { name: "read" } };
    const { body } = buildBedrockRequest(m, p, ctx, { reasoning: "medium" });
    expect(body.toolConfig?.toolChoice).toEqual({ tool: { name: "read" } });
    expect(body.additionalModelRequestFields).toBeUndefined();
    expect(validateBedrockRequest(body, { modelId: m.id })).toBeNull();
    const naive = { ...body, additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 8_192 } } };
    expect(validateBedrockRequest(naive, { modelId: m.id })?.message).toContain(
      "Thinking may not be enabled when tool_choice forces tool use.",
    );
  });

  it("keeps thinking for a fresh turn", () => {
    const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 1 }];
    const { body } = buildBedrockRequest(m, p, { systemPrompt: "s", messages, tools: [READ] }, { reasoning: "low" });
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 2_048 } });
    expect(validateBedrockRequest(body, { modelId: m.id, stream: true })).toBeNull();
  });
});

describe("Bedrock prompt caching", () => {
  it("puts a cache point after the system prompt and at the end of the last message for Claude and Nova", () => {
    for (const ref of ["bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0", "bedrock/us.amazon.nova-pro-v1:0"]) {
      const { m, p } = model(ref);
      const { body } = buildBedrockRequest(m, p, {
        systemPrompt: "You are careful.",
        messages: toolLoop({ provider: "x", api: "anthropic-messages", id: "y" }),
        tools: [READ],
      });
      expect(body.system).toEqual([{ text: "You are careful." }, { cachePoint: { type: "default" } }]);
      const last = body.messages[body.messages.length - 1];
      expect(last.content[last.content.length - 1]).toEqual({ cachePoint: { type: "default" } });
      expect(validateBedrockRequest(body, { modelId: m.id, stream: true }), ref).toBeNull();
    }
  });

  it("sends none to a model that takes none, which would refuse it", () => {
    const { m, p } = model("bedrock/us.meta.llama3-3-70b-instruct-v1:0");
    const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 1 }];
    const { body } = buildBedrockRequest(m, p, { systemPrompt: "s", messages });
    expect(JSON.stringify(body)).not.toContain("cachePoint");
    const naive = { ...body, system: [{ text: "s" }, { cachePoint: { type: "default" } }] };
    expect(validateBedrockRequest(naive, { modelId: m.id, stream: true })?.message).toMatch(/doesn't support the cachePoint field/);
  });
});

describe("Bedrock models without streaming tool use", () => {
  it("the validator refuses ConverseStream with tools for Llama 3.3 and Mistral Large 2, as Bedrock does", () => {
    for (const ref of ["bedrock/us.meta.llama3-3-70b-instruct-v1:0", "bedrock/mistral.mistral-large-2407-v1:0"]) {
      const { m, p } = model(ref);
      expect(resolveCompat(m, p).bedrockStreamingTools).toBe(false);
      const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 1 }];
      const { body } = buildBedrockRequest(m, p, { systemPrompt: "s", messages, tools: [READ] });
      expect(validateBedrockRequest(body, { modelId: m.id, stream: true })?.message).toBe(
        "This model doesn't support tool use in streaming mode.",
      );
      expect(validateBedrockRequest(body, { modelId: m.id, stream: false })).toBeNull();
    }
  });
});

describe("tool-call ids follow the model family, not only the API", () => {
  it("Mistral on Bedrock gets exactly 9 alphanumerics for calls from any model, and the validator refuses other ids", () => {
    const { m, p } = model("bedrock/mistral.mistral-large-2407-v1:0");
    const history = toolLoop(
      { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" },
      "toolu_01A09q90qw90lq917835lq9",
    );
    const { body, idMap } = buildBedrockRequest(m, p, { systemPrompt: "s", messages: history, tools: [READ] });
    const use = body.messages[1].content.find((b) => "toolUse" in b) as { toolUse: { toolUseId: string } };
    expect(use.toolUse.toolUseId).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(idMap.get(use.toolUse.toolUseId)).toBe("toolu_01A09q90qw90lq917835lq9");
    expect(validateBedrockRequest(body, { modelId: m.id, stream: false })).toBeNull();
    // The id the Bedrock API itself takes, as the builder sent it when the rule followed the API alone.
    const long = JSON.parse(JSON.stringify(body).replaceAll(use.toolUse.toolUseId, "toolu_01A09q90qw90lq917835lq9")) as unknown;
    expect(validateBedrockRequest(long, { modelId: m.id, stream: false })?.message).toContain(
      "Tool call id was toolu_01A09q90qw90lq917835lq9 but must be a-z, A-Z, 0-9, with a length of 9.",
    );
  });
});

describe("Gemini 3 thinking levels", () => {
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 1 }];
  const ctx = { systemPrompt: "s", messages };
  const config = (ref: string, reasoning: "off" | "low" | "medium" | "high") => {
    const { m, p } = model(ref);
    const { body } = buildGeminiRequest(m, p, ctx, { reasoning });
    return { body, config: body.generationConfig.thinkingConfig, id: m.id };
  };

  it("sends thinkingLevel, never a budget, and each level the model takes", () => {
    for (const [ref, level, want] of [
      ["google/gemini-3-pro-preview", "high", "HIGH"],
      ["google/gemini-3-pro-preview", "medium", "HIGH"],
      ["google/gemini-3-pro-preview", "low", "LOW"],
      ["google/gemini-3.1-pro-preview", "medium", "MEDIUM"],
      ["google/gemini-3-flash-preview", "medium", "MEDIUM"],
    ] as const) {
      const { body, config: thinking, id } = config(ref, level);
      expect(thinking, `${ref} ${level}`).toEqual({ includeThoughts: true, thinkingLevel: want });
      expect(validateGeminiRequest(body, { modelId: id })).toBeNull();
    }
  });

  it("sends 'off' as the lowest level (Pro cannot stop thinking), not as a 128-token budget", () => {
    expect(config("google/gemini-3-pro-preview", "off").config).toEqual({ includeThoughts: false, thinkingLevel: "LOW" });
    expect(config("google/gemini-3-flash-preview", "off").config).toEqual({ includeThoughts: false, thinkingLevel: "MINIMAL" });
    const pro = model("google/gemini-3-pro-preview");
    expect(reasoningLevelsFor(pro.m, resolveCompat(pro.m, pro.p))).not.toContain("off");
  });

  it("keeps budgets for Gemini 2.5, and the validator refuses a level there or both together", () => {
    const { body, config: thinking, id } = config("google/gemini-2.5-pro", "high");
    expect(thinking).toEqual({ includeThoughts: true, thinkingBudget: 24_576 });
    expect(validateGeminiRequest(body, { modelId: id })).toBeNull();
    const withLevel = {
      ...body,
      generationConfig: { ...body.generationConfig, thinkingConfig: { includeThoughts: true, thinkingLevel: "HIGH" } },
    };
    expect(validateGeminiRequest(withLevel, { modelId: id })?.message).toBe("thinking_level is not supported by this model.");
    const both = {
      ...body,
      generationConfig: { ...body.generationConfig, thinkingConfig: { thinkingBudget: 1024, thinkingLevel: "HIGH" } },
    };
    expect(validateGeminiRequest(both, { modelId: "gemini-3-pro-preview" })?.message).toBe(
      "You can only set only one of thinking budget and thinking level.",
    );
    const minimal = { ...body, generationConfig: { ...body.generationConfig, thinkingConfig: { thinkingLevel: "MINIMAL" } } };
    expect(validateGeminiRequest(minimal, { modelId: "gemini-3-pro-preview" })?.message).toMatch(/MINIMAL is not supported/);
  });
});

describe("Gemini 3 Flash after a handoff", () => {
  it("gets the placeholder signature on another model's call, decided by its family", () => {
    const { m, p } = model("google/gemini-3-flash-preview");
    expect(resolveCompat(m, p).thoughtSignatures).toBe(true);
    const history = toolLoop({ provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" });
    const { body } = buildGeminiRequest(m, p, { systemPrompt: "s", messages: history, tools: [READ] });
    const call = body.contents[1].parts?.find((part) => part.functionCall !== undefined);
    expect(call?.thoughtSignature).toBe(SKIP_THOUGHT_SIGNATURE);
    expect(validateGeminiRequest(body, { modelId: m.id })).toBeNull();
    const unsigned = JSON.parse(
      JSON.stringify(body)
        .replaceAll(`"thoughtSignature":"${SKIP_THOUGHT_SIGNATURE}",`, "")
        .replaceAll(`,"thoughtSignature":"${SKIP_THOUGHT_SIGNATURE}"`, ""),
    ) as unknown;
    expect(validateGeminiRequest(unsigned, { modelId: m.id })?.message).toMatch(/Function call is missing a thought_signature/);
  });
});

describe("Gemini tool schemas from MCP servers", () => {
  it("leaves out string formats other than enum and date-time, and the validator refuses them", () => {
    const { m, p } = model("google/gemini-2.5-flash");
    const fetchTool = {
      name: "mcp__web__fetch",
      description: "Fetch a URL.",
      parameters: {
        type: "object",
        properties: {
          url: { type: "string", format: "uri" },
          since: { type: "string", format: "date-time" },
          mail: { type: "string", format: "email" },
        },
        required: ["url"],
      },
    };
    const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 1 }];
    const { body } = buildGeminiRequest(m, p, { systemPrompt: "s", messages, tools: [fetchTool] });
    const params = body.tools?.[0].functionDeclarations?.[0].parameters as { properties: Record<string, Record<string, unknown>> };
    expect(params.properties.url).toEqual({ type: "STRING", description: "Format: uri." });
    expect(params.properties.since).toEqual({ type: "STRING", format: "date-time" });
    expect(validateGeminiRequest(body, { modelId: m.id })).toBeNull();
    const naive = JSON.parse(JSON.stringify(body).replace('"description":"Format: uri."', '"format":"uri"')) as unknown;
    expect(validateGeminiRequest(naive, { modelId: m.id })?.message).toContain("only 'enum' and 'date-time' are supported for STRING type");
  });
});

describe("a Gemini 3 turn cut by the output limit while thinking", () => {
  it("is left out of the next request instead of going as a model turn with no parts", () => {
    const { m, p } = model("google/gemini-3-pro-preview");
    const ref = { provider: m.provider, api: m.api, id: m.id };
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "Prove it." }], timestamp: 1 },
      assistant(ref, [{ type: "thinking", thinking: "", signature: "EpAICo0IAb4+9vuku3oDHR5E" }], "length"),
      { role: "user", content: [{ type: "text", text: "Go on, shorter." }], timestamp: 3 },
    ];
    const { body } = buildGeminiRequest(m, p, { systemPrompt: "s", messages: history });
    expect(body.contents.every((c) => (c.parts ?? []).length > 0)).toBe(true);
    expect(body.contents.map((c) => c.role)).toEqual(["user"]);
    expect(validateGeminiRequest(body, { modelId: m.id, signatureOwner: () => m.id })).toBeNull();
  });
});

describe("Responses prompt cache key", () => {
  const { m, p } = model("openai/gpt-5");
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 1 }];
  const keyOf = (sessionId: string) =>
    buildOpenAIResponsesRequest(m, p, { systemPrompt: "s", messages }, { sessionId }).body.prompt_cache_key;

  it("is the same on every request of a session, differs between sessions, and fits the field", () => {
    expect(keyOf("session-a")).toBe(keyOf("session-a"));
    expect(keyOf("session-a")).not.toBe(keyOf("session-b"));
    const long = keyOf("s".repeat(200));
    expect(long?.length).toBeLessThanOrEqual(64);
    expect(long).toBe(keyOf("s".repeat(200)));
    const { body } = buildOpenAIResponsesRequest(m, p, { systemPrompt: "s", messages }, { sessionId: "s".repeat(200) });
    expect(validateOpenAIResponsesRequest(body, { modelId: m.id })).toBeNull();
    expect(validateOpenAIResponsesRequest({ ...body, prompt_cache_key: "s".repeat(65) }, { modelId: m.id })?.message).toContain(
      "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64",
    );
  });
});

describe("prompt caching shows in usage and cost", () => {
  let faux: FauxProvider;
  beforeAll(async () => {
    fakeAwsCredentials();
    faux = await startFauxProvider();
  });
  afterAll(() => faux.close());

  it.each([
    ["google/gemini-2.5-flash", "gemini"],
    ["bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0", "bedrock"],
  ] as const)("%s: cached input is read at the cache price, written at the write price", async (ref, route) => {
    const { m, p } = model(ref);
    const target = { route, label: ref, model: m, provider: { ...p, baseUrl: faux.baseUrls[route] } };
    const write = route === "bedrock" ? 300 : 0;
    faux.script(reply([text("Cached.")], { usage: { input: 100, output: 10, cacheRead: 4_000, cacheWrite: write } }));
    const { message } = await run(target, context([user("Again, please.")]));
    expect(message.usage).toMatchObject({ input: 100, output: 10, cacheRead: 4_000, cacheWrite: write });
    expect(message.usage.cost.cacheRead).toBeCloseTo((4_000 * m.price.cacheRead) / 1_000_000, 10);
    expect(message.usage.cost.cacheWrite).toBeCloseTo((write * m.price.cacheWrite) / 1_000_000, 10);
    expect(message.usage.cost.cacheRead).toBeGreaterThan(0);
  });
});

describe("family rules reach models the registry does not list", () => {
  const base = {
    name: "x",
    contextWindow: 100_000,
    maxOutput: 8_000,
    input: ["text" as const],
    reasoning: true,
    price: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
  };

  it("a Gemini model that declares thinking levels gets placeholder signatures; one on budgets does not", () => {
    const google = findProvider("google");
    if (!google) throw new Error("no google provider");
    const next = { ...base, id: "gemini-3.7-flash", provider: "google", api: "google-generative-ai" as const, family: "gemini-flash" };
    expect(resolveCompat({ ...next, compat: { thinkingLevels: ["low", "high"] } }, google).thoughtSignatures).toBe(true);
    expect(resolveCompat(next, google).thoughtSignatures).toBe(false);
  });

  it("any Mistral family on Bedrock keeps Mistral's ids, and Claude families take cache points", () => {
    const bedrock = findProvider("bedrock");
    if (!bedrock) throw new Error("no bedrock provider");
    const api = "bedrock-converse-stream" as const;
    expect(
      resolveCompat({ ...base, id: "mistral.magistral-small-2509", provider: "bedrock", api, family: "magistral" }, bedrock).toolCallIdRule,
    ).toBe("mistral9");
    expect(
      resolveCompat({ ...base, id: "us.anthropic.claude-sonnet-5", provider: "bedrock", api, family: "claude-sonnet" }, bedrock)
        .bedrockCachePoint,
    ).toBe(true);
    expect(
      resolveCompat({ ...base, id: "us.meta.llama4-maverick", provider: "bedrock", api, family: "llama" }, bedrock).bedrockCachePoint,
    ).toBe(false);
  });
});
