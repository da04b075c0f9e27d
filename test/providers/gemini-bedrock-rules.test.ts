/**
 * Gemini's and Bedrock's own rules at the boundary: the schema subset Gemini
 * takes (and the clear refusal when a schema cannot be expressed), thought
 * signatures on the current turn's calls, and the validators' refusals of
 * what the real services refuse.
 */
import { describe, expect, it } from "vitest";
import type { Message } from "../../shared/protocol";
import { reasoningLevelsFor } from "../../shared/models";
import { findModel, findProvider, resolveCompat } from "../../electron/core/providers/registry";
import { buildBedrockRequest, buildGeminiRequest } from "../../electron/core/providers/requests";
import { SchemaNotExpressible, toGeminiSchema } from "../../electron/core/providers/requests/gemini-schema";
import { SKIP_THOUGHT_SIGNATURE } from "../../electron/core/providers/requests/gemini";
import { validateBedrockRequest, validateGeminiRequest } from "../../electron/core/providers/validate";

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const CLAUDE = { provider: "anthropic", api: "anthropic-messages" as const, id: "claude-sonnet-4-5" };

function handoffHistory(): Message[] {
  return [
    { role: "user", content: [{ type: "text", text: "Fix the build." }], timestamp: 1 },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Claude's private reasoning.", signature: "sig-from-claude" },
        { type: "toolCall", id: "toolu_01ABC", name: "read", arguments: { path: "a.ts" } },
      ],
      stopReason: "toolUse",
      model: CLAUDE,
      usage,
      timestamp: 2,
    },
    {
      role: "toolResult",
      toolCallId: "toolu_01ABC",
      toolName: "read",
      isError: false,
      content: [{ type: "text", text: "export const a = 1;" }],
      timestamp: 3,
    },
  ];
}

const TOOLS = [
  {
    name: "read",
    description: "Read a file.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
  },
];

function model(ref: string) {
  const m = findModel(ref);
  const p = m && findProvider(m.provider);
  if (!m || !p) throw new Error(`registry lacks ${ref}`);
  return { m, p };
}

describe("Gemini schema translation", () => {
  it("keeps what Gemini's Schema knows and drops what it would refuse as an unknown field", () => {
    const out = toGeminiSchema("read", TOOLS[0].parameters);
    expect(out).toEqual({ type: "OBJECT", properties: { path: { type: "STRING" } }, required: ["path"] });
  });

  it("inlines local references, turns nullable unions and const into Gemini's forms", () => {
    const out = toGeminiSchema("edit", {
      type: "object",
      $defs: { Range: { type: "object", properties: { start: { type: "integer" }, end: { type: "integer" } } } },
      properties: { range: { $ref: "#/$defs/Range" }, mode: { const: "replace" }, note: { type: ["string", "null"] } },
    });
    expect(out.properties).toEqual({
      range: { type: "OBJECT", properties: { start: { type: "INTEGER" }, end: { type: "INTEGER" } } },
      mode: { type: "STRING", enum: ["replace"], format: "enum" },
      note: { type: "STRING", nullable: true },
    });
  });

  it("refuses a recursive reference with a message naming the tool and the reason", () => {
    const schema = {
      type: "object",
      $defs: { Node: { type: "object", properties: { child: { $ref: "#/$defs/Node" } } } },
      properties: { root: { $ref: "#/$defs/Node" } },
    };
    expect(() => toGeminiSchema("mcp__tree__walk", schema)).toThrow(SchemaNotExpressible);
    expect(() => toGeminiSchema("mcp__tree__walk", schema)).toThrow(/tool "mcp__tree__walk".*recursively/);
  });

  it("refuses `not` and conditionals rather than sending a schema that means something else", () => {
    expect(() => toGeminiSchema("t", { type: "object", properties: { a: { not: { type: "string" } } } })).toThrow(/uses "not"/);
    expect(() => toGeminiSchema("t", { type: "object", properties: { a: { type: "string" } }, if: {}, then: {} })).toThrow(/uses "if"/);
  });
});

describe("Gemini thought signatures after a handoff", () => {
  it("sends Claude's call to Gemini 3 with Gemini's placeholder signature and without Claude's thinking, and the validator accepts it", () => {
    const { m, p } = model("google/gemini-3-pro-preview");
    const { body } = buildGeminiRequest(m, p, { systemPrompt: "s", messages: handoffHistory(), tools: TOOLS });
    const text = JSON.stringify(body);
    expect(text).not.toContain("Claude's private reasoning");
    expect(text).not.toContain("sig-from-claude");
    const call = body.contents[1].parts?.find((part) => part.functionCall);
    expect(call?.thoughtSignature).toBe(SKIP_THOUGHT_SIGNATURE);
    expect(validateGeminiRequest(body, { modelId: m.id, signatureOwner: () => undefined })).toBeNull();
  });

  it("the validator refuses the same call on Gemini 3 without any signature, as the API does", () => {
    const { m, p } = model("google/gemini-3-pro-preview");
    const { body } = buildGeminiRequest(m, p, { systemPrompt: "s", messages: handoffHistory(), tools: TOOLS });
    delete body.contents[1].parts?.[0].thoughtSignature;
    expect(validateGeminiRequest(body, { modelId: m.id })?.message).toMatch(/^Function call is missing a thought_signature/);
  });

  it("leaves out a step of Gemini's own that held only signed thinking (an empty model turn is refused)", () => {
    const { m, p } = model("google/gemini-2.5-pro");
    const own = { provider: m.provider, api: m.api, id: m.id };
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "Think first." }], timestamp: 1 },
      {
        role: "assistant",
        content: [{ type: "thinking", thinking: "t", signature: "c2lnbg==" }],
        stopReason: "length",
        model: own,
        usage,
        timestamp: 2,
      },
      { role: "user", content: [{ type: "text", text: "Go on." }], timestamp: 3 },
    ];
    const { body } = buildGeminiRequest(m, p, { systemPrompt: "s", messages, tools: TOOLS });
    expect(body.contents.map((c) => c.role)).toEqual(["user"]);
    expect(validateGeminiRequest(body, { modelId: m.id, signatureOwner: () => m.id })).toBeNull();
  });

  it("Gemini 2.5 takes calls without signatures, so none is invented for it", () => {
    const { m, p } = model("google/gemini-2.5-flash");
    const { body } = buildGeminiRequest(m, p, { systemPrompt: "s", messages: handoffHistory(), tools: TOOLS });
    expect(JSON.stringify(body)).not.toContain("thoughtSignature");
    expect(validateGeminiRequest(body, { modelId: m.id })).toBeNull();
  });

  it("the validator refuses a function response count that does not match the call turn", () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "model", parts: [{ functionCall: { name: "read", args: {} } }, { functionCall: { name: "read", args: {} } }] },
        { role: "user", parts: [{ functionResponse: { name: "read", response: { output: "x" } } }] },
      ],
    };
    expect(validateGeminiRequest(body)?.message).toBe(
      "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
    );
  });
});

describe("Bedrock Converse", () => {
  it("sends a Claude → Bedrock handoff with legal ids, results in the next user turn, no other model's reasoning, and no thinking for the loop another model started", () => {
    const { m, p } = model("bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0");
    const history = handoffHistory();
    (history[1] as Extract<Message, { role: "assistant" }>).content[1] = {
      type: "toolCall",
      id: "call:with/odd|chars",
      name: "read",
      arguments: { path: "a.ts" },
    };
    (history[2] as Extract<Message, { role: "toolResult" }>).toolCallId = "call:with/odd|chars";
    const { body, idMap } = buildBedrockRequest(m, p, { systemPrompt: "s", messages: history, tools: TOOLS }, { reasoning: "high" });
    expect(validateBedrockRequest(body, { modelId: m.id, signatureOwner: () => undefined })).toBeNull();
    const use = body.messages[1].content[0] as { toolUse: { toolUseId: string } };
    expect(use.toolUse.toolUseId).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(idMap.get(use.toolUse.toolUseId)).toBe("call:with/odd|chars");
    expect(JSON.stringify(body)).not.toContain("Claude's private reasoning");
    // The tool loop in progress was started by another model: its last assistant turn cannot open with thinking,
    // which Claude on Bedrock requires when thinking is on, so this request goes without it.
    expect(body.additionalModelRequestFields).toBeUndefined();
  });

  it("the validator refuses what Converse refuses, with its texts", () => {
    const base = { inferenceConfig: { maxTokens: 100 } };
    expect(validateBedrockRequest({ ...base, messages: [{ role: "assistant", content: [{ text: "hi" }] }] })?.message).toMatch(
      /must start with a user message/,
    );
    expect(
      validateBedrockRequest({
        ...base,
        messages: [
          { role: "user", content: [{ text: "a" }] },
          { role: "user", content: [{ text: "b" }] },
        ],
      })?.message,
    ).toMatch(/must alternate between user and assistant roles/);
    const toolTurn = (id: string) => ({
      ...base,
      toolConfig: { tools: [{ toolSpec: { name: "read", description: "r", inputSchema: { json: { type: "object" } } } }] },
      messages: [
        { role: "user", content: [{ text: "a" }] },
        { role: "assistant", content: [{ toolUse: { toolUseId: id, name: "read", input: {} } }] },
        { role: "user", content: [{ text: "no results" }] },
      ],
    });
    expect(validateBedrockRequest(toolTurn("call|x"))?.message).toMatch(
      /Member must satisfy regular expression pattern: \[a-zA-Z0-9_-\]\+/,
    );
    expect(validateBedrockRequest(toolTurn("tooluse_1"))?.message).toBe(
      "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1",
    );
  });
});

describe("the reasoning control on Gemini and Bedrock", () => {
  it("offers the levels each model can take, and none on a Bedrock model that does not reason", () => {
    const levels = (ref: string) => {
      const { m, p } = model(ref);
      return reasoningLevelsFor(m, resolveCompat(m, p));
    };
    expect(levels("google/gemini-2.5-flash")).toEqual(["default", "off", "low", "medium", "high"]);
    expect(levels("google/gemini-2.5-pro")).toEqual(["default", "low", "medium", "high"]);
    expect(levels("bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0")).toEqual(["default", "off", "low", "medium", "high"]);
    expect(levels("bedrock/us.meta.llama3-3-70b-instruct-v1:0")).toEqual([]);
  });
});
