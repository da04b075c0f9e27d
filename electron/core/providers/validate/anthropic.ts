/**
 * Strict validator for Anthropic Messages requests: the published rules and
 * the error texts the real API answers with (400, `invalid_request_error`).
 * Returns the first problem found, or null when the real API would accept it.
 */
import { anthropicError, anthropicSurrogateProblem, isRecord, type ProviderRejection, type ValidateContext } from "./common";

const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
/** Python's `str.strip()` whitespace: JS `\s` plus U+001C–U+001F and U+0085. */
// eslint-disable-next-line no-control-regex -- the information separators count as whitespace for the API
const NON_WHITESPACE = /[^\s\x1c-\x1f\x85]/;

const TOP_LEVEL_KEYS = new Set([
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "thinking",
  "stream",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "metadata",
  "service_tier",
  "output_config",
  "container",
  "cache_control",
  "inference_geo",
  "speed",
]);
const BLOCK_KEYS: Record<string, ReadonlySet<string>> = {
  text: new Set(["type", "text", "cache_control", "citations"]),
  image: new Set(["type", "source", "cache_control"]),
  tool_use: new Set(["type", "id", "name", "input", "cache_control"]),
  tool_result: new Set(["type", "tool_use_id", "content", "is_error", "cache_control"]),
  thinking: new Set(["type", "thinking", "signature"]),
  redacted_thinking: new Set(["type", "data"]),
};
const USER_BLOCKS = new Set(["text", "image", "tool_result"]);
const ASSISTANT_BLOCKS = new Set(["text", "tool_use", "thinking", "redacted_thinking"]);

type Problem = ProviderRejection | null;

function extraKey(block: Record<string, unknown>, type: string, path: string): Problem {
  const allowed = BLOCK_KEYS[type];
  for (const key of Object.keys(block)) {
    // "messages.1.content.0.text.tool_call_ids: Extra inputs are not permitted" (LibreChat #6724)
    if (!allowed.has(key)) return anthropicError(`${path}.${type}.${key}: Extra inputs are not permitted`);
  }
  return null;
}

function textProblem(text: unknown, path: string): Problem {
  if (typeof text !== "string") return anthropicError(`${path}.text: Input should be a valid string`);
  if (text.length === 0) return anthropicError(`${path}.text: text content blocks must be non-empty`);
  if (!NON_WHITESPACE.test(text)) return anthropicError(`${path}.text: text content blocks must contain non-whitespace text`);
  return null;
}

function imageProblem(block: Record<string, unknown>, path: string): Problem {
  const source = block.source;
  if (!isRecord(source) || source.type !== "base64" || typeof source.data !== "string") {
    return anthropicError(
      `${path}.image.source: Input tag '${isRecord(source) ? String(source.type) : "None"}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`,
    );
  }
  if (typeof source.media_type !== "string" || !IMAGE_TYPES.has(source.media_type)) {
    return anthropicError(`${path}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`);
  }
  return null;
}

function toolsProblem(tools: unknown): { problem: Problem; names: Set<string> } {
  const names = new Set<string>();
  if (tools === undefined) return { problem: null, names };
  if (!Array.isArray(tools)) return { problem: anthropicError("tools: Input should be a valid list"), names };
  for (let i = 0; i < tools.length; i++) {
    const tool: unknown = tools[i];
    if (!isRecord(tool)) return { problem: anthropicError(`tools.${i}: Input should be a valid dictionary`), names };
    if (typeof tool.name !== "string" || !NAME_PATTERN.test(tool.name)) {
      return { problem: anthropicError(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`), names };
    }
    if (names.has(tool.name)) return { problem: anthropicError("tools: Tool names must be unique."), names };
    names.add(tool.name);
    const schema = tool.input_schema;
    if (!isRecord(schema)) return { problem: anthropicError(`tools.${i}.custom.input_schema: Field required`), names };
    if (schema.type !== "object")
      return { problem: anthropicError(`tools.${i}.custom.input_schema.type: Input should be 'object'`), names };
    for (const key of Object.keys(tool)) {
      if (!["name", "description", "input_schema", "cache_control", "type", "strict"].includes(key)) {
        return { problem: anthropicError(`tools.${i}.custom.${key}: Extra inputs are not permitted`), names };
      }
    }
  }
  return { problem: null, names };
}

export function validateAnthropicRequest(body: unknown, ctx: ValidateContext = {}): ProviderRejection | null {
  if (!isRecord(body)) return anthropicError("Input should be a valid dictionary");
  const surrogate = anthropicSurrogateProblem(body);
  if (surrogate) return surrogate;
  for (const key of Object.keys(body)) {
    if (!TOP_LEVEL_KEYS.has(key)) return anthropicError(`${key}: Extra inputs are not permitted`);
  }
  if (typeof body.model !== "string" || body.model.length === 0) return anthropicError("model: Field required");
  const modelId = ctx.modelId ?? body.model;
  if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens) || body.max_tokens < 0) {
    return anthropicError("max_tokens: Field required");
  }
  if (body.system !== undefined && typeof body.system !== "string") {
    if (!Array.isArray(body.system)) return anthropicError("system: Input should be a valid list");
    for (let i = 0; i < body.system.length; i++) {
      const block: unknown = body.system[i];
      if (!isRecord(block) || block.type !== "text") return anthropicError(`system.${i}.type: Input should be 'text'`);
      const problem = textProblem(block.text, `system.${i}`) ?? extraKey(block, "text", `system.${i}`);
      if (problem) return problem;
    }
  }

  const { problem: toolProblem, names: toolNames } = toolsProblem(body.tools);
  if (toolProblem) return toolProblem;

  const choice = body.tool_choice;
  let forcedTool = false;
  if (choice !== undefined) {
    if (!isRecord(choice) || !["auto", "any", "tool", "none"].includes(String(choice.type))) {
      return anthropicError(
        "tool_choice: Input tag found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
      );
    }
    if (toolNames.size === 0 && choice.type !== "none") return anthropicError("tool_choice may only be specified while providing tools.");
    if (choice.type === "tool") {
      if (typeof choice.name !== "string" || !toolNames.has(choice.name)) {
        return anthropicError(`tool_choice.tool.name: Tool '${String(choice.name)}' not found in the provided tools.`);
      }
    }
    forcedTool = choice.type === "any" || choice.type === "tool";
  }

  let thinkingEnabled = false;
  const thinking = body.thinking;
  if (thinking !== undefined) {
    if (!isRecord(thinking) || !["enabled", "disabled", "adaptive"].includes(String(thinking.type))) {
      return anthropicError(
        "thinking: Input tag found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'",
      );
    }
    if (thinking.type === "enabled") {
      const budget = thinking.budget_tokens;
      if (typeof budget !== "number" || !Number.isInteger(budget)) return anthropicError("thinking.enabled.budget_tokens: Field required");
      if (budget < 1024) return anthropicError("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
      if (body.max_tokens <= budget) {
        return anthropicError(
          "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size",
        );
      }
    }
    thinkingEnabled = thinking.type !== "disabled";
    if (thinkingEnabled && forcedTool) return anthropicError("Thinking may not be enabled when tool_choice forces tool use.");
    if (thinkingEnabled && body.temperature !== undefined && body.temperature !== 1) {
      return anthropicError(
        "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility",
      );
    }
  }

  const messages = body.messages;
  if (messages === undefined) return anthropicError("messages: Field required");
  if (!Array.isArray(messages)) return anthropicError("messages: Input should be a valid list");
  if (messages.length === 0) return anthropicError("messages: List should have at least 1 item after validation, not 0");

  const seenToolUse = new Set<string>();
  let usesToolBlocks = false;
  let pending: { index: number; ids: string[] } | undefined;
  let lastAssistant = -1;
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    const path = `messages.${i}`;
    if (!isRecord(message)) return anthropicError(`${path}: Input should be a valid dictionary`);
    const role = message.role;
    if (role !== "user" && role !== "assistant") return anthropicError(`${path}.role: Input should be 'user' or 'assistant'`);
    if (i === 0 && role !== "user") return anthropicError('messages: first message must use the "user" role');
    if (i > 0 && isRecord(messages[i - 1]) && (messages[i - 1] as Record<string, unknown>).role === role) {
      return anthropicError(`messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`);
    }
    const isFinalAssistant = role === "assistant" && i === messages.length - 1;
    const content = message.content;
    const blocks: unknown[] = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
    if (!Array.isArray(content) && typeof content !== "string") return anthropicError(`${path}.content: Field required`);
    if (blocks.length === 0 && !isFinalAssistant) {
      return anthropicError(`${path}: all messages must have non-empty content except for the optional final assistant message`);
    }

    const answered = new Set<string>();
    const toolUseIds: string[] = [];
    for (let j = 0; j < blocks.length; j++) {
      const block: unknown = blocks[j];
      const bpath = `${path}.content.${j}`;
      if (!isRecord(block) || typeof block.type !== "string" || !(block.type in BLOCK_KEYS)) {
        return anthropicError(
          `${bpath}: Input tag '${isRecord(block) ? String(block.type) : "None"}' found using 'type' does not match any of the expected tags`,
        );
      }
      const type = block.type;
      const allowedHere = role === "user" ? USER_BLOCKS : ASSISTANT_BLOCKS;
      if (!allowedHere.has(type)) return anthropicError(`${bpath}: \`${type}\` blocks are not allowed in \`${role}\` messages`);
      const extra = extraKey(block, type, bpath);
      if (extra) return extra;

      if (type === "text") {
        const problem = textProblem(block.text, bpath);
        if (problem) return problem;
      } else if (type === "image") {
        const problem = imageProblem(block, bpath);
        if (problem) return problem;
      } else if (type === "tool_use") {
        usesToolBlocks = true;
        if (typeof block.id !== "string" || !ID_PATTERN.test(block.id)) {
          return anthropicError(`${bpath}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
        }
        if (typeof block.name !== "string" || !NAME_PATTERN.test(block.name)) {
          return anthropicError(`${bpath}.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
        }
        if (!isRecord(block.input)) return anthropicError(`${bpath}.tool_use.input: Input should be a valid dictionary`);
        if (seenToolUse.has(block.id)) return anthropicError(`${bpath}: \`tool_use\` ids must be unique`);
        seenToolUse.add(block.id);
        toolUseIds.push(block.id);
      } else if (type === "tool_result") {
        usesToolBlocks = true;
        const id = block.tool_use_id;
        if (typeof id !== "string" || !ID_PATTERN.test(id)) {
          return anthropicError(`${bpath}.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
        }
        if (pending === undefined || pending.index !== i - 1 || !pending.ids.includes(id) || answered.has(id)) {
          return anthropicError(
            `${bpath}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
        answered.add(id);
        const inner = block.content;
        if (inner !== undefined && typeof inner !== "string") {
          if (!Array.isArray(inner)) return anthropicError(`${bpath}.tool_result.content: Input should be a valid list`);
          for (let k = 0; k < inner.length; k++) {
            const item: unknown = inner[k];
            const ipath = `${bpath}.tool_result.content.${k}`;
            if (!isRecord(item) || (item.type !== "text" && item.type !== "image")) {
              return anthropicError(`${ipath}: Input tag found using 'type' does not match any of the expected tags: 'text', 'image'`);
            }
            const problem =
              item.type === "text" ? (textProblem(item.text, ipath) ?? extraKey(item, "text", ipath)) : imageProblem(item, ipath);
            if (problem) return problem;
          }
        }
      } else if (type === "thinking") {
        if (typeof block.thinking !== "string") return anthropicError(`${bpath}.thinking.thinking: Field required`);
        if (typeof block.signature !== "string" || block.signature.length === 0) {
          return anthropicError(`${bpath}.thinking.signature: Field required`);
        }
        if (ctx.signatureOwner && ctx.signatureOwner(block.signature) !== modelId) {
          return anthropicError(`${bpath}: Invalid \`signature\` in \`thinking\` block`);
        }
      } else if (type === "redacted_thinking") {
        if (typeof block.data !== "string" || block.data.length === 0)
          return anthropicError(`${bpath}.redacted_thinking.data: Field required`);
        if (ctx.signatureOwner && ctx.signatureOwner(block.data) !== modelId) {
          return anthropicError(`${bpath}: Invalid \`data\` in \`redacted_thinking\` block`);
        }
      }
    }

    if (pending !== undefined) {
      // The previous assistant's tool_use ids must all be answered right here.
      const missing = pending.ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return anthropicError(
          `messages.${pending.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
      pending = undefined;
    }
    if (role === "assistant") {
      lastAssistant = i;
      if (toolUseIds.length > 0) pending = { index: i, ids: toolUseIds };
      if (isFinalAssistant) {
        const tail = blocks[blocks.length - 1];
        if (isRecord(tail) && tail.type === "text" && typeof tail.text === "string" && /\s$/.test(tail.text)) {
          return anthropicError("messages: final assistant content cannot end with trailing whitespace");
        }
      }
    }
  }
  if (pending !== undefined) {
    return anthropicError(
      `messages.${pending.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${pending.ids.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    );
  }
  if (usesToolBlocks && toolNames.size === 0)
    return anthropicError("Requests which include `tool_use` or `tool_result` blocks must define tools.");

  if (thinkingEnabled && lastAssistant >= 0) {
    const last = messages[lastAssistant] as Record<string, unknown>;
    const blocks = Array.isArray(last.content) ? (last.content as unknown[]) : [];
    const hasToolUse = blocks.some((b) => isRecord(b) && b.type === "tool_use");
    const first = blocks[0];
    const firstType = isRecord(first) ? String(first.type) : "text";
    if (hasToolUse && firstType !== "thinking" && firstType !== "redacted_thinking") {
      return anthropicError(
        `messages.${lastAssistant}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${firstType}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
      );
    }
  }
  return null;
}
