/**
 * Strict validator for Amazon Bedrock `ConverseStream` requests (the JSON the
 * service receives): the Converse API's rules and its `ValidationException`
 * texts (400). First problem, or null when the real service would accept it.
 */
import { isRecord, quoted, type ProviderRejection, type ValidateContext } from "./common";

type Problem = ProviderRejection | null;

export function bedrockError(message: string, status = 400, type = "ValidationException"): ProviderRejection {
  return { status, message, body: { message, __type: type } };
}

const TOP_LEVEL_KEYS = new Set([
  "messages",
  "system",
  "inferenceConfig",
  "toolConfig",
  "guardrailConfig",
  "additionalModelRequestFields",
  "promptVariables",
  "additionalModelResponseFieldPaths",
  "requestMetadata",
  "performanceConfig",
  "serviceTier",
]);
const USER_BLOCKS = new Set(["text", "image", "document", "video", "toolResult", "cachePoint", "guardContent"]);
const ASSISTANT_BLOCKS = new Set(["text", "toolUse", "reasoningContent", "cachePoint"]);
const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
const NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
const IMAGE_FORMATS = new Set(["png", "jpeg", "gif", "webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function constraint(value: string, at: string, rule: string): ProviderRejection {
  return bedrockError(`1 validation error detected: Value '${value}' at '${at}' failed to satisfy constraint: ${rule}`);
}

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (isRecord(value)) return Object.values(value).some(hasLoneSurrogate);
  return false;
}

/**
 * Per-model rules, as the service plays them for the model in the path: which
 * models stream tool use (AWS's model-feature table), take cache points, and
 * want Mistral's tool-call ids.
 */
const NO_STREAMING_TOOLS = /meta\.llama3-3|mistral\.mistral-large-2407/;
const CACHE_POINT_MODELS = /anthropic\.claude|amazon\.nova/;
const MISTRAL_MODELS = /(^|\.)mistral\./;
const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;
/** Anthropic's errors reach a Bedrock caller wrapped in this. */
const MODEL_ERRORS = "The model returned the following errors: ";

function cachePointProblem(block: Record<string, unknown>, path: string, modelId: string | undefined): Problem {
  const point = block.cachePoint;
  if (!isRecord(point) || point.type !== "default") {
    return bedrockError(
      `1 validation error detected: Value at '${path}.cachePoint.type' failed to satisfy constraint: Member must satisfy enum value set: [default]`,
    );
  }
  if (modelId !== undefined && !CACHE_POINT_MODELS.test(modelId)) {
    return bedrockError("This model doesn't support the cachePoint field. Remove cachePoint from the request and try again.");
  }
  return null;
}

function systemProblem(system: unknown, modelId: string | undefined): Problem {
  if (system === undefined) return null;
  if (!Array.isArray(system)) return bedrockError("The system field must be a list of SystemContentBlock objects.");
  for (let i = 0; i < system.length; i++) {
    const block = system[i] as unknown;
    const path = `system.${i}`;
    if (!isRecord(block) || Object.keys(block).length !== 1)
      return bedrockError(`The SystemContentBlock object at ${path} must hold exactly one member.`);
    if (block.text !== undefined) {
      const problem = textProblem(block.text, path);
      if (problem) return problem;
    } else if (block.cachePoint !== undefined) {
      if (i === 0) return bedrockError(`The cachePoint at ${path} must follow content to cache.`);
      const problem = cachePointProblem(block, path, modelId);
      if (problem) return problem;
    } else if (block.guardContent === undefined) return bedrockError(`The SystemContentBlock object at ${path} is not a known kind.`);
  }
  return null;
}

/** Claude's extended thinking on Bedrock: the Anthropic API's rules, in Bedrock's wrapping. */
function thinkingProblem(body: Record<string, unknown>, messages: unknown[]): Problem {
  const extra = body.additionalModelRequestFields;
  const thinking = isRecord(extra) ? extra.thinking : undefined;
  if (!isRecord(thinking) || thinking.type !== "enabled") return null;
  const budget = thinking.budget_tokens;
  if (typeof budget !== "number" || budget < 1024)
    return bedrockError(`${MODEL_ERRORS}thinking.enabled.budget_tokens: Input should be greater than or equal to 1024`);
  const maxTokens = isRecord(body.inferenceConfig) ? body.inferenceConfig.maxTokens : undefined;
  if (typeof maxTokens === "number" && maxTokens <= budget)
    return bedrockError(`${MODEL_ERRORS}\`max_tokens\` must be greater than \`thinking.budget_tokens\``);
  const choice = isRecord(body.toolConfig) ? body.toolConfig.toolChoice : undefined;
  if (isRecord(choice) && (choice.any !== undefined || choice.tool !== undefined))
    return bedrockError(`${MODEL_ERRORS}Thinking may not be enabled when tool_choice forces tool use.`);
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Record<string, unknown>;
    if (message.role !== "assistant") continue;
    const content = Array.isArray(message.content) ? (message.content as unknown[]) : [];
    const usesTools = content.some((b) => isRecord(b) && b.toolUse !== undefined);
    const first = content[0];
    const firstKind = isRecord(first) ? (Object.keys(first)[0] ?? "text") : "text";
    if (usesTools && firstKind !== "reasoningContent") {
      const found = firstKind === "toolUse" ? "tool_use" : firstKind;
      return bedrockError(
        `${MODEL_ERRORS}messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`,
      );
    }
    break;
  }
  return null;
}

function textProblem(text: unknown, path: string): Problem {
  if (typeof text !== "string") return bedrockError(`The text field in the ContentBlock object at ${path} is not a string.`);
  if (text.trim() === "")
    return bedrockError(`The text field in the ContentBlock object at ${path} is blank. Add text to the text field, and try again.`);
  return null;
}

function imageProblem(image: unknown, path: string): Problem {
  if (!isRecord(image) || typeof image.format !== "string" || !IMAGE_FORMATS.has(image.format)) {
    return bedrockError(
      `1 validation error detected: Value at '${path}.image.format' failed to satisfy constraint: Member must satisfy enum value set: [gif, jpeg, png, webp]`,
    );
  }
  const source = image.source;
  if (!isRecord(source) || typeof source.bytes !== "string" || !BASE64.test(source.bytes) || source.bytes.length === 0) {
    return bedrockError(`The image at ${path} is not valid base64 bytes.`);
  }
  return null;
}

function toolsProblem(toolConfig: unknown): { problem: Problem; names: Set<string> } {
  const names = new Set<string>();
  if (toolConfig === undefined) return { problem: null, names };
  if (!isRecord(toolConfig) || !Array.isArray(toolConfig.tools) || toolConfig.tools.length === 0) {
    return {
      problem: bedrockError(
        "1 validation error detected: Value at 'toolConfig.tools' failed to satisfy constraint: Member must have length greater than or equal to 1",
      ),
      names,
    };
  }
  for (let i = 0; i < toolConfig.tools.length; i++) {
    const spec = isRecord(toolConfig.tools[i]) ? (toolConfig.tools[i] as Record<string, unknown>).toolSpec : undefined;
    const at = `toolConfig.tools.${i + 1}.member.toolSpec`;
    if (!isRecord(spec)) return { problem: bedrockError(`The tool at ${at} has no toolSpec.`), names };
    const name = typeof spec.name === "string" ? spec.name : "";
    if (name.length < 1 || name.length > 64)
      return { problem: constraint(name, `${at}.name`, "Member must have length between 1 and 64"), names };
    if (!NAME_PATTERN.test(name))
      return { problem: constraint(name, `${at}.name`, "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+"), names };
    if (names.has(name)) return { problem: bedrockError(`The toolConfig field contains duplicate tool names: ${name}.`), names };
    names.add(name);
    const schema = isRecord(spec.inputSchema) ? spec.inputSchema.json : undefined;
    if (!isRecord(schema) || schema.type !== "object") {
      return { problem: bedrockError(`The value at ${at}.inputSchema.json.type must be 'object'.`), names };
    }
  }
  const choice = toolConfig.toolChoice;
  if (choice !== undefined) {
    if (!isRecord(choice) || Object.keys(choice).length !== 1 || !["auto", "any", "tool"].includes(Object.keys(choice)[0])) {
      return { problem: bedrockError("The toolChoice field must hold exactly one of auto, any, tool."), names };
    }
    if (isRecord(choice.tool) && !names.has(String(choice.tool.name))) {
      return { problem: bedrockError(`The tool ${String(choice.tool.name)} in toolChoice is not defined in toolConfig.`), names };
    }
  }
  return { problem: null, names };
}

export function validateBedrockRequest(body: unknown, ctx: ValidateContext = {}): Problem {
  if (!isRecord(body)) return bedrockError("The request body is not a JSON object.");
  if (hasLoneSurrogate(body)) return bedrockError("Invalid UTF-8 in request: the JSON body contains a lone surrogate.");
  for (const key of Object.keys(body)) {
    if (!TOP_LEVEL_KEYS.has(key) && key !== "modelId") return bedrockError(`Unrecognized field "${key}".`, 400, "SerializationException");
  }
  const inference = body.inferenceConfig;
  if (isRecord(inference) && inference.maxTokens !== undefined && (typeof inference.maxTokens !== "number" || inference.maxTokens < 1)) {
    return bedrockError(
      "1 validation error detected: Value at 'inferenceConfig.maxTokens' failed to satisfy constraint: Member must have value greater than or equal to 1",
    );
  }
  const { problem: toolProblem, names } = toolsProblem(body.toolConfig);
  if (toolProblem) return toolProblem;
  const modelId = ctx.modelId;
  if (ctx.stream === true && body.toolConfig !== undefined && modelId !== undefined && NO_STREAMING_TOOLS.test(modelId))
    return bedrockError("This model doesn't support tool use in streaming mode.");
  const sysProblem = systemProblem(body.system, modelId);
  if (sysProblem) return sysProblem;
  const mistralIds = modelId !== undefined && MISTRAL_MODELS.test(modelId);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return bedrockError("A conversation must start with a user message. Try again with a conversation that starts with a user message.");

  let openCalls: string[] = [];
  let usesTools = false;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as unknown;
    if (!isRecord(message) || (message.role !== "user" && message.role !== "assistant")) {
      return bedrockError(
        `1 validation error detected: Value at 'messages.${i + 1}.member.role' failed to satisfy constraint: Member must satisfy enum value set: [user, assistant]`,
      );
    }
    const role = message.role;
    if (i === 0 && role !== "user")
      return bedrockError("A conversation must start with a user message. Try again with a conversation that starts with a user message.");
    if (i > 0 && (messages[i - 1] as Record<string, unknown>).role === role) {
      return bedrockError(
        "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
      );
    }
    const content = message.content;
    if (!Array.isArray(content) || content.length === 0) {
      return bedrockError(
        `The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`,
      );
    }
    const results: string[] = [];
    const calls: string[] = [];
    for (let j = 0; j < content.length; j++) {
      const block = content[j] as unknown;
      const path = `messages.${i}.content.${j}`;
      const at = `messages.${i + 1}.member.content.${j + 1}.member`;
      if (!isRecord(block) || Object.keys(block).length !== 1)
        return bedrockError(`The ContentBlock object at ${path} must hold exactly one member.`);
      const kind = Object.keys(block)[0];
      if (!(role === "user" ? USER_BLOCKS : ASSISTANT_BLOCKS).has(kind))
        return bedrockError(`The ${kind} content block at ${path} is not allowed in a ${role} message.`);
      if (kind === "text") {
        const problem = textProblem(block.text, path);
        if (problem) return problem;
      } else if (kind === "image") {
        const problem = imageProblem(block.image, path);
        if (problem) return problem;
      } else if (kind === "cachePoint") {
        if (j === 0) return bedrockError(`The cachePoint at ${path} must follow content to cache.`);
        const problem = cachePointProblem(block, path, modelId);
        if (problem) return problem;
      } else if (kind === "toolUse" || kind === "toolResult") {
        usesTools = true;
        const inner = block[kind];
        const id = isRecord(inner) && typeof inner.toolUseId === "string" ? inner.toolUseId : "";
        if (mistralIds && !MISTRAL_ID.test(id))
          return bedrockError(`${MODEL_ERRORS}Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`);
        if (id.length < 1 || id.length > 64) return constraint(id, `${at}.${kind}.toolUseId`, "Member must have length between 1 and 64");
        if (!ID_PATTERN.test(id))
          return constraint(id, `${at}.${kind}.toolUseId`, "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+");
        if (kind === "toolUse") {
          const use = inner as Record<string, unknown>;
          if (typeof use.name !== "string" || !NAME_PATTERN.test(use.name))
            return constraint(String(use.name), `${at}.toolUse.name`, "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+");
          if (!isRecord(use.input)) return bedrockError(`The toolUse input at ${path} must be a JSON object.`);
          if (calls.includes(id)) return bedrockError(`Duplicate toolUseId ${id} at messages.${i}.content.`);
          calls.push(id);
        } else {
          const result = inner as Record<string, unknown>;
          if (!Array.isArray(result.content)) return bedrockError(`The toolResult content at ${path} must be a list.`);
          for (let k = 0; k < result.content.length; k++) {
            const part = result.content[k] as unknown;
            if (!isRecord(part)) return bedrockError(`The toolResult content block at ${path}.content.${k} is not an object.`);
            if (part.text !== undefined) {
              const problem = textProblem(part.text, `${path}.content.${k}`);
              if (problem) return problem;
            } else if (part.image !== undefined) {
              const problem = imageProblem(part.image, `${path}.content.${k}`);
              if (problem) return problem;
            } else if (part.json === undefined) return bedrockError(`The toolResult content block at ${path}.content.${k} is empty.`);
          }
          if (result.status !== undefined && result.status !== "success" && result.status !== "error") {
            return bedrockError(
              `1 validation error detected: Value '${quoted(result.status)}' at '${at}.toolResult.status' failed to satisfy constraint: Member must satisfy enum value set: [success, error]`,
            );
          }
          results.push(id);
        }
      } else if (kind === "reasoningContent") {
        const reasoning = block.reasoningContent;
        const signature = isRecord(reasoning) && isRecord(reasoning.reasoningText) ? reasoning.reasoningText.signature : undefined;
        const redacted = isRecord(reasoning) ? reasoning.redactedContent : undefined;
        const proof = typeof signature === "string" ? signature : typeof redacted === "string" ? redacted : undefined;
        if (proof === undefined)
          return bedrockError(`The model returned the following errors: ${path}.reasoningContent.reasoningText.signature: Field required`);
        if (ctx.signatureOwner !== undefined && ctx.modelId !== undefined && ctx.signatureOwner(proof) !== ctx.modelId) {
          return bedrockError(`The model returned the following errors: ${path}: Invalid \`signature\` in \`thinking\` block`);
        }
      }
    }
    if (role === "user") {
      if (results.length > openCalls.length) {
        return bedrockError(
          `The number of toolResult blocks at messages.${i}.content exceeds the number of toolUse blocks of previous turn.`,
        );
      }
      const missing = openCalls.filter((id) => !results.includes(id));
      if (missing.length > 0)
        return bedrockError(`Expected toolResult blocks at messages.${i}.content for the following Ids: ${missing.join(", ")}`);
      openCalls = [];
    } else {
      openCalls = calls;
    }
  }
  if (usesTools && names.size === 0)
    return bedrockError("The toolConfig field must be defined when using toolUse and toolResult content blocks.");
  return thinkingProblem(body, messages);
}
