/**
 * fast-check generators of stored histories as the app can hold them: any id
 * charset and length, duplicates, orphans both ways, errored and aborted turns,
 * thinking from random models with their signatures, images, odd tool names;
 * and what only an import or another tool writes: lone surrogates in tool
 * arguments and names, image types no API takes, Responses reasoning items
 * without encrypted content, a thinking-mode model's tool calls with empty reasoning.
 * Signatures name their issuer so a test can play the provider's signature check.
 */
import fc from "fast-check";
import type {
  AssistantContent,
  AssistantMessage,
  Message,
  ModelRef,
  StopReason,
  ToolResultMessage,
  UserContent,
  UserMessage,
} from "../../shared/protocol";
import { emptyUsage } from "../../shared/protocol";
import type { ToolChoice, ToolSpec } from "../../electron/core/providers/types";

export const MODEL_POOL: ModelRef[] = [
  { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" },
  { provider: "anthropic", api: "anthropic-messages", id: "claude-opus-4-5" },
  { provider: "openai", api: "openai-responses", id: "gpt-5" },
  { provider: "openai", api: "openai-responses", id: "gpt-5-mini" },
  { provider: "openai", api: "openai-completions", id: "gpt-4.1" },
  { provider: "mistral", api: "openai-completions", id: "mistral-large-latest" },
  { provider: "deepseek", api: "openai-completions", id: "deepseek-reasoner" },
  { provider: "google", api: "openai-completions", id: "gemini-2.5-pro" },
];

/** The issuer key a signature carries; tests compare it with the target's. */
export function modelKey(ref: ModelRef): string {
  return `${ref.provider}/${ref.api}/${ref.id}`;
}

/** Signature formats: Anthropic `sig~<issuer>~n`; Responses a reasoning item whose encrypted content is `enc~<issuer>~n`. */
export function signatureOwner(signature: string): string | undefined {
  const parts = signature.split("~");
  return parts.length === 3 && (parts[0] === "sig" || parts[0] === "enc") ? parts[1] : undefined;
}

function signatureFor(ref: ModelRef, n: number): string {
  if (ref.api === "openai-responses") {
    return JSON.stringify({
      type: "reasoning",
      id: `rs_${n}`,
      summary: [{ type: "summary_text", text: "s" }],
      encrypted_content: `enc~${modelKey(ref)}~${n}`,
    });
  }
  return `sig~${modelKey(ref)}~${n}`;
}

const FIXED_IDS = [
  "",
  "toolu_01A09q90qw90lq917835lq9",
  "call_abc123|fc_68a5f2e1c0d48190b1",
  "functions.Bash:0",
  "a.b/c:d|e",
  "x".repeat(450),
  "|".repeat(70),
  "__proto__",
  "abc123XYZ",
  "call_" + "9".repeat(40),
  "fc_only",
  "toolu_01",
  "toolu_02",
];

/** A small pool per history, so duplicates across turns are common. */
const idArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIXED_IDS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 500 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-zA-Z0-9]{9}$/) },
);

const TOOL_NAMES = [
  "read",
  "write",
  "edit",
  "bash",
  "grep",
  "mcp.server:search",
  "9lives",
  "",
  "n".repeat(80),
  "a b",
  "re\uD800ad",
  "\uDC00",
];
const toolNameArb = fc.constantFrom(...TOOL_NAMES);

const textArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "   ", "\n\t", "ok", "trailing space ", "lone \uD800 surrogate", "\uDC00start"),
  fc.string({ unit: "binary", maxLength: 40 }),
);

const imageArb: fc.Arbitrary<UserContent> = fc.record({
  type: fc.constant("image" as const),
  data: fc.constant("iVBORw0KGgo="),
  mimeType: fc.constantFrom("image/png", "image/jpeg", "image/webp", "image/bmp", "image/tiff", "image/svg+xml"),
});

const userContentArb: fc.Arbitrary<UserContent[]> = fc.array(
  fc.oneof({ weight: 4, arbitrary: textArb.map((text) => ({ type: "text" as const, text })) }, { weight: 1, arbitrary: imageArb }),
  { maxLength: 3 },
);

const userArb: fc.Arbitrary<UserMessage> = userContentArb.map((content) => ({ role: "user", content, timestamp: 1 }));

const stopArb: fc.Arbitrary<StopReason> = fc.constantFrom<StopReason>("stop", "toolUse", "toolUse", "length", "error", "aborted");

/** Signature numbers: often one of a few, so a reasoning item id (`rs_n`) comes back in a later turn. */
const signatureNumberArb = fc.oneof(fc.nat(3), fc.nat(1000));

/** A Responses reasoning item as an older version or an import may hold it: no encrypted content. */
function bareReasoningItem(n: number): string {
  return JSON.stringify({ type: "reasoning", id: `rs_${n}`, summary: [{ type: "summary_text", text: "s" }] });
}

function thinkingArb(model: ModelRef): fc.Arbitrary<AssistantContent> {
  return fc.oneof(
    signatureNumberArb.map((n) => ({
      type: "thinking" as const,
      thinking: "t",
      signature: model.api === "openai-responses" ? bareReasoningItem(n) : signatureFor(model, n),
    })),
    signatureNumberArb.map((n) => ({ type: "thinking" as const, thinking: `thought ${n}`, signature: signatureFor(model, n) })),
    signatureNumberArb.map((n) => ({ type: "thinking" as const, thinking: "", signature: signatureFor(model, n) })),
    signatureNumberArb.map((n) => ({ type: "thinking" as const, thinking: "", signature: signatureFor(model, n), redacted: true })),
    textArb.map((thinking) => ({ type: "thinking" as const, thinking })),
  );
}

interface Turn {
  assistant: AssistantMessage;
  after: Message[];
}

function resultFor(id: string, name: string): fc.Arbitrary<ToolResultMessage> {
  return fc.record({
    role: fc.constant("toolResult" as const),
    toolCallId: fc.constant(id),
    toolName: fc.oneof({ weight: 5, arbitrary: fc.constant(name) }, { weight: 1, arbitrary: toolNameArb }),
    isError: fc.boolean(),
    content: userContentArb,
    timestamp: fc.constant(1),
  });
}

/** Responses turns mostly carry ids as the Responses adapter stores them: `call_id|fc_item_id`. */
const responsesIdArb: fc.Arbitrary<string> = fc.oneof(
  idArb,
  fc.nat(5000).map((n) => `call_${n}|fc_${n}`),
);

const turnArb: fc.Arbitrary<Turn> = fc
  .constantFrom(...MODEL_POOL)
  .chain((model) =>
    fc.record({
      model: fc.constant(model),
      stopReason: stopArb,
      ids: fc.array(model.api === "openai-responses" ? responsesIdArb : idArb, { maxLength: 4 }),
      names: fc.array(toolNameArb, { minLength: 4, maxLength: 4 }),
      extra: fc.array(fc.oneof(textArb.map((text) => ({ type: "text" as const, text }))), { maxLength: 2 }),
    }),
  )
  .chain(({ model, stopReason, ids, names, extra }) =>
    fc
      .record({
        thinking: fc.array(thinkingArb(model), { maxLength: 2 }),
        args: fc.array(
          fc.oneof(
            fc.constant({}),
            fc.constant({ path: "a.txt" }),
            fc.constant({ n: 1, s: "\u00e9" }),
            fc.constant({ path: "lone \uD800", "k\uDC00": ["\uDBFF", { deep: "x\uDFFFy" }] }),
          ),
          { minLength: ids.length, maxLength: ids.length },
        ),
        // Which calls get results, and in what order; plus stray results and interleaved user messages,
        // and results that arrive after the user message (the user typed while a tool still ran).
        answered: fc.array(fc.nat(9), { maxLength: ids.length + 1 }),
        late: fc.array(fc.nat(9), { maxLength: 1 }),
        strays: fc.array(
          idArb.chain((id) => resultFor(id, "read")),
          { maxLength: 1 },
        ),
        interleaved: fc.array(userArb, { maxLength: 1 }),
      })
      .chain(({ thinking, args, answered, late, strays, interleaved }) => {
        const calls: AssistantContent[] = ids.map((id, i) => ({ type: "toolCall" as const, id, name: names[i], arguments: args[i] }));
        const content: AssistantContent[] = [...thinking, ...extra, ...calls];
        const assistant: AssistantMessage = { role: "assistant", content, stopReason, model, usage: emptyUsage(), timestamp: 1 };
        const resultsOf = (picks: number[]) => picks.filter((k) => k < ids.length).map((k) => resultFor(ids[k], names[k]));
        return fc
          .tuple(fc.tuple(...resultsOf(answered)), fc.tuple(...resultsOf(late)))
          .map(([rs, ls]): Turn => ({ assistant, after: [...rs, ...interleaved, ...ls, ...strays] as Message[] }));
      }),
  );

export const historyArb: fc.Arbitrary<Message[]> = fc
  .array(
    fc.oneof(
      { weight: 2, arbitrary: userArb.map((u) => [u] as Message[]) },
      { weight: 3, arbitrary: turnArb.map((t) => [t.assistant, ...t.after]) },
    ),
    {
      maxLength: 12,
    },
  )
  .map((chunks) => chunks.flat());

export const DEFAULT_TOOL_SPECS: ToolSpec[] = ["read", "write", "edit", "list", "glob", "grep", "bash"].map((name) => ({
  name,
  description: `${name} tool`,
  parameters: { type: "object", properties: { path: { type: "string" } }, required: [] },
}));

export const toolsArb: fc.Arbitrary<ToolSpec[] | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant([] as ToolSpec[]),
  fc.constant(DEFAULT_TOOL_SPECS),
  fc.constant<ToolSpec[]>([
    ...DEFAULT_TOOL_SPECS,
    { name: "mcp.server:search", description: "", parameters: { type: "object", properties: {} } },
    {
      name: "mcp.server_search",
      description: "d",
      parameters: { type: "object", properties: {}, additionalProperties: false, required: [] },
    },
  ]),
  fc.constant<ToolSpec[]>([...DEFAULT_TOOL_SPECS, { name: "read", description: "a second read", parameters: { type: "object" } }]),
);

export const toolChoiceArb: fc.Arbitrary<ToolChoice | undefined> = fc.constantFrom<ToolChoice | undefined>(
  undefined,
  "auto",
  "none",
  "required",
  { name: "bash" },
  { name: "mcp.server:search" },
  { name: "missing" },
);

export const reasoningArb = fc.constantFrom<"off" | "low" | "medium" | "high" | undefined>(undefined, "off", "low", "high");

/** The setting that sends other models' reasoning as text (ignored for Anthropic). */
export const demoteArb = fc.boolean();

/** Freezes a value and everything reachable from it (the transform must never write to stored history). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
