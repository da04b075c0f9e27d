/**
 * Strict validator for OpenAI Responses requests (stateless use: the whole
 * history in `input`). OpenAI's rules and error texts; first problem, or null.
 */
import {
  isRecord,
  quoted,
  openaiError,
  openaiImageTypeProblem,
  openaiNameProblem,
  openaiSchemaProblem,
  openaiSurrogateProblem,
  tooLong,
  type ProviderRejection,
  type ValidateContext,
} from "./common";

const MESSAGE_ROLES = new Set(["user", "assistant", "system", "developer"]);

function toolsProblem(tools: unknown): { problem: ProviderRejection | null; names: Set<string> } {
  const names = new Set<string>();
  if (tools === undefined) return { problem: null, names };
  if (!Array.isArray(tools))
    return { problem: openaiError("Invalid type for 'tools': expected an array.", "tools", "invalid_type"), names };
  for (let i = 0; i < tools.length; i++) {
    const tool: unknown = tools[i];
    const param = `tools[${i}]`;
    if (!isRecord(tool) || tool.type !== "function") {
      return {
        problem: openaiError(
          `Invalid value: '${isRecord(tool) ? String(tool.type) : "None"}'. Supported values are: 'function', 'file_search', 'web_search', 'computer_use_preview', 'mcp', 'code_interpreter', 'image_generation', 'local_shell', 'custom'.`,
          `${param}.type`,
          "invalid_value",
        ),
        names,
      };
    }
    const nameProblem = openaiNameProblem(tool.name, `${param}.name`);
    if (nameProblem) return { problem: nameProblem, names };
    const name = tool.name as string;
    // Responses function tools are strict unless `strict: false` is sent.
    const schemaProblem = openaiSchemaProblem(name, tool.parameters, tool.strict !== false, `${param}.parameters`);
    if (schemaProblem) return { problem: schemaProblem, names };
    names.add(name);
  }
  return { problem: null, names };
}

function messageProblem(item: Record<string, unknown>, param: string): ProviderRejection | null {
  const role = item.role;
  if (typeof role !== "string" || !MESSAGE_ROLES.has(role)) {
    return openaiError(
      `Invalid value: '${String(role)}'. Supported values are: 'user', 'assistant', 'system', and 'developer'.`,
      `${param}.role`,
      "invalid_value",
    );
  }
  const content = item.content;
  if (typeof content === "string") return null;
  if (!Array.isArray(content))
    return openaiError(`Missing required parameter: '${param}.content'.`, `${param}.content`, "missing_required_parameter");
  for (let k = 0; k < content.length; k++) {
    const part: unknown = content[k];
    const ppath = `${param}.content[${k}]`;
    const type = isRecord(part) ? part.type : undefined;
    const allowed = role === "assistant" ? ["output_text", "refusal"] : ["input_text", "input_image", "input_file"];
    if (!isRecord(part) || typeof type !== "string" || !allowed.includes(type)) {
      return openaiError(
        `Invalid value: '${String(type)}'. Supported values are: ${allowed.map((a) => `'${a}'`).join(", ")}.`,
        `${ppath}.type`,
        "invalid_value",
      );
    }
    if ((type === "input_text" || type === "output_text") && typeof part.text !== "string") {
      return openaiError(`Missing required parameter: '${ppath}.text'.`, `${ppath}.text`, "missing_required_parameter");
    }
    if (type === "input_image" && typeof part.image_url !== "string" && typeof part.file_id !== "string") {
      return openaiError(`Missing required parameter: '${ppath}.image_url'.`, `${ppath}.image_url`, "missing_required_parameter");
    }
  }
  return null;
}

export function validateOpenAIResponsesRequest(body: unknown, ctx: ValidateContext = {}): ProviderRejection | null {
  if (!isRecord(body)) return openaiError("We could not parse the JSON body of your request.", null, null);
  const unparsable = openaiSurrogateProblem(body) ?? openaiImageTypeProblem(body);
  if (unparsable) return unparsable;
  if (typeof body.model !== "string" || body.model.length === 0)
    return openaiError("Missing required parameter: 'model'.", "model", "missing_required_parameter");
  const modelId = ctx.modelId ?? body.model;
  const cacheKey = body.prompt_cache_key;
  if (cacheKey !== undefined) {
    if (typeof cacheKey !== "string")
      return openaiError("Invalid type for 'prompt_cache_key': expected a string.", "prompt_cache_key", "invalid_type");
    if (cacheKey.length > 64) return tooLong("prompt_cache_key", 64, cacheKey.length);
  }

  const { problem: toolProblem, names } = toolsProblem(body.tools);
  if (toolProblem) return toolProblem;
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== "auto" && choice !== "none") {
    if (names.size === 0) {
      return openaiError("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", "tool_choice", null);
    }
    if (isRecord(choice)) {
      if (choice.type !== "function" || typeof choice.name !== "string") {
        return openaiError("Missing required parameter: 'tool_choice.name'.", "tool_choice.name", "missing_required_parameter");
      }
      if (!names.has(choice.name)) return openaiError(`Tool choice '${choice.name}' not found in 'tools' parameter.`, "tool_choice", null);
    } else if (choice !== "required") {
      return openaiError(
        `Invalid value: '${quoted(choice)}'. Supported values are: 'none', 'auto', and 'required'.`,
        "tool_choice",
        "invalid_value",
      );
    }
  }

  const input = body.input;
  if (input === undefined || typeof input === "string") return null;
  if (!Array.isArray(input))
    return openaiError("Invalid type for 'input': expected one of a string or array of input items.", "input", "invalid_type");

  const calls = new Set<string>();
  const answered = new Set<string>();
  const itemIds = new Set<string>();
  for (let i = 0; i < input.length; i++) {
    const item: unknown = input[i];
    const param = `input[${i}]`;
    if (!isRecord(item)) return openaiError(`Invalid type for '${param}': expected an object.`, param, "invalid_type");
    const type = item.type ?? "message";
    if (typeof item.id === "string") {
      if (itemIds.has(item.id)) {
        return openaiError(`Duplicate item found with id ${item.id}. Remove duplicate items from your input and try again.`, "input", null);
      }
      itemIds.add(item.id);
    }

    if (type === "message") {
      const problem = messageProblem(item, param);
      if (problem) return problem;
    } else if (type === "function_call") {
      const callId = item.call_id;
      if (typeof callId !== "string" || callId.length === 0) {
        return openaiError(`Missing required parameter: '${param}.call_id'.`, `${param}.call_id`, "missing_required_parameter");
      }
      if (callId.length > 64) return tooLong(`${param}.call_id`, 64, callId.length);
      if (item.id !== undefined && (typeof item.id !== "string" || !item.id.startsWith("fc"))) {
        return openaiError(
          `Invalid '${param}.id': '${quoted(item.id)}'. Expected an ID that begins with 'fc'.`,
          `${param}.id`,
          "invalid_value",
        );
      }
      const nameProblem = openaiNameProblem(item.name, `${param}.name`);
      if (nameProblem) return nameProblem;
      if (typeof item.arguments !== "string") {
        return openaiError(`Missing required parameter: '${param}.arguments'.`, `${param}.arguments`, "missing_required_parameter");
      }
      calls.add(callId);
    } else if (type === "function_call_output") {
      const callId = item.call_id;
      if (typeof callId !== "string")
        return openaiError(`Missing required parameter: '${param}.call_id'.`, `${param}.call_id`, "missing_required_parameter");
      if (callId.length > 64) return tooLong(`${param}.call_id`, 64, callId.length);
      // "No tool call found for function call output with call_id …" (continue #9927)
      if (!calls.has(callId)) return openaiError(`No tool call found for function call output with call_id ${callId}.`, "input", null);
      answered.add(callId);
      const output = item.output;
      if (typeof output !== "string" && !Array.isArray(output)) {
        return openaiError(`Missing required parameter: '${param}.output'.`, `${param}.output`, "missing_required_parameter");
      }
    } else if (type === "reasoning") {
      const id = item.id;
      if (typeof id !== "string" || !id.startsWith("rs")) {
        return openaiError(`Invalid '${param}.id': '${String(id)}'. Expected an ID that begins with 'rs'.`, `${param}.id`, "invalid_value");
      }
      if (!Array.isArray(item.summary))
        return openaiError(`Missing required parameter: '${param}.summary'.`, `${param}.summary`, "missing_required_parameter");
      const encrypted = item.encrypted_content;
      if (body.store === false && (typeof encrypted !== "string" || encrypted.length === 0)) {
        // Nothing is kept server-side with store: false, so an item is only usable with its encrypted content.
        return openaiError(
          `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
          "input",
          null,
          404,
        );
      }
      if (typeof encrypted === "string" && ctx.signatureOwner && ctx.signatureOwner(encrypted) !== modelId) {
        return openaiError(`The encrypted content for item ${id} could not be verified.`, null, "invalid_encrypted_content");
      }
      const next: unknown = input[i + 1];
      const nextType = isRecord(next) ? (next.type ?? "message") : undefined;
      const followed =
        isRecord(next) &&
        (nextType === "function_call" || nextType === "reasoning" || (nextType === "message" && next.role === "assistant"));
      if (!followed) {
        return openaiError(`Item '${id}' of type 'reasoning' was provided without its required following item.`, "input", null);
      }
    } else {
      return openaiError(
        `Invalid value: '${quoted(type)}'. Supported values are: 'message', 'function_call', 'function_call_output', 'reasoning', and others.`,
        `${param}.type`,
        "invalid_value",
      );
    }
  }
  for (const callId of calls) {
    if (!answered.has(callId)) return openaiError(`No tool output found for function call ${callId}.`, "input", null);
  }
  return null;
}
