/**
 * Strict validator for Chat Completions requests: OpenAI's rules and error
 * texts, plus Mistral's (`ctx.mistral`: exactly-9-alphanumeric ids, role order,
 * last role) with Mistral's error body. First problem found, or null.
 */
import {
  isRecord,
  mistralError,
  openaiError,
  openaiImageTypeProblem,
  openaiSurrogateProblem,
  openaiNameProblem,
  openaiSchemaProblem,
  tooLong,
  type ProviderRejection,
  type ValidateContext,
} from "./common";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);
const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;

// mistral-common's message-order rule: which roles may follow which.
const MISTRAL_NEXT: Record<string, ReadonlySet<string>> = {
  system: new Set(["system", "user", "assistant"]),
  user: new Set(["user", "assistant", "system"]),
  assistant: new Set(["assistant", "user", "tool"]),
  tool: new Set(["tool", "assistant"]),
};

function mistralIdProblem(id: string): ProviderRejection {
  return mistralError(`Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`, "invalid_function_call", "3280");
}

function contentProblem(content: unknown, param: string, textOnly: boolean): ProviderRejection | null {
  if (typeof content === "string") return null;
  if (!Array.isArray(content))
    return openaiError(
      `Invalid type for '${param}': expected one of a string or array of objects, but got ${content === null ? "null" : typeof content} instead.`,
      param,
      "invalid_type",
    );
  if (content.length === 0) {
    return openaiError(
      `Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
      param,
      "empty_array",
    );
  }
  for (let k = 0; k < content.length; k++) {
    const part: unknown = content[k];
    const ppath = `${param}[${k}]`;
    if (!isRecord(part)) return openaiError(`Invalid type for '${ppath}': expected an object.`, ppath, "invalid_type");
    if (part.type === "text") {
      if (typeof part.text !== "string")
        return openaiError(`Missing required parameter: '${ppath}.text'.`, `${ppath}.text`, "missing_required_parameter");
    } else if (part.type === "image_url" && !textOnly) {
      if (!isRecord(part.image_url) || typeof part.image_url.url !== "string") {
        return openaiError(`Missing required parameter: '${ppath}.image_url.url'.`, `${ppath}.image_url.url`, "missing_required_parameter");
      }
    } else {
      const supported = textOnly ? "'text'" : "'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'";
      return openaiError(`Invalid value: '${String(part.type)}'. Supported values are: ${supported}.`, `${ppath}.type`, "invalid_value");
    }
  }
  return null;
}

function toolsProblem(tools: unknown): { problem: ProviderRejection | null; names: Set<string> } {
  const names = new Set<string>();
  if (tools === undefined) return { problem: null, names };
  if (!Array.isArray(tools))
    return { problem: openaiError("Invalid type for 'tools': expected an array.", "tools", "invalid_type"), names };
  if (tools.length === 0) {
    // "Invalid 'tools': empty array" (continue #3403): tools toggled off must mean no `tools` key.
    return {
      problem: openaiError(
        "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        "tools",
        "empty_array",
      ),
      names,
    };
  }
  if (tools.length > 128) {
    return {
      problem: openaiError(
        `Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length ${tools.length} instead.`,
        "tools",
        "array_above_max_length",
      ),
      names,
    };
  }
  for (let i = 0; i < tools.length; i++) {
    const tool: unknown = tools[i];
    const param = `tools[${i}]`;
    if (!isRecord(tool) || tool.type !== "function" || !isRecord(tool.function)) {
      return {
        problem: openaiError(`Missing required parameter: '${param}.function'.`, `${param}.function`, "missing_required_parameter"),
        names,
      };
    }
    const fn = tool.function;
    const nameProblem = openaiNameProblem(fn.name, `${param}.function.name`);
    if (nameProblem) return { problem: nameProblem, names };
    const name = fn.name as string;
    if (fn.parameters !== undefined) {
      const schemaProblem = openaiSchemaProblem(name, fn.parameters, fn.strict === true, `${param}.function.parameters`);
      if (schemaProblem) return { problem: schemaProblem, names };
    }
    names.add(name);
  }
  return { problem: null, names };
}

export function validateOpenAICompletionsRequest(body: unknown, ctx: ValidateContext = {}): ProviderRejection | null {
  if (!isRecord(body)) return openaiError("We could not parse the JSON body of your request.", null, null);
  const unparsable = openaiSurrogateProblem(body) ?? openaiImageTypeProblem(body);
  if (unparsable) return unparsable;
  if (typeof body.model !== "string" || body.model.length === 0) return openaiError("you must provide a model parameter", null, null);
  if (body.stream_options !== undefined && body.stream !== true) {
    return openaiError("The 'stream_options' parameter is only allowed when 'stream' is set to true.", "stream_options", null);
  }

  const { problem: toolProblem, names } = toolsProblem(body.tools);
  if (toolProblem) return toolProblem;
  const choice = body.tool_choice;
  if (choice !== undefined) {
    if (names.size === 0) {
      return openaiError("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", "tool_choice", null);
    }
    if (typeof choice === "string") {
      if (!["none", "auto", "required"].includes(choice)) {
        return openaiError(
          `Invalid value: '${choice}'. Supported values are: 'none', 'auto', and 'required'.`,
          "tool_choice",
          "invalid_value",
        );
      }
    } else if (!isRecord(choice) || choice.type !== "function" || !isRecord(choice.function) || typeof choice.function.name !== "string") {
      return openaiError("Missing required parameter: 'tool_choice.function'.", "tool_choice.function", "missing_required_parameter");
    } else if (!names.has(choice.function.name)) {
      return openaiError(`Invalid value for 'tool_choice': function '${choice.function.name}' not found in 'tools'.`, "tool_choice", null);
    }
  }

  const messages = body.messages;
  if (messages === undefined) return openaiError("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  if (!Array.isArray(messages)) return openaiError("Invalid type for 'messages': expected an array.", "messages", "invalid_type");
  if (messages.length === 0) {
    return openaiError(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      "messages",
      "empty_array",
    );
  }

  let pending: { index: number; ids: Set<string> } | undefined;
  let previousRole: string | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    const param = `messages[${i}]`;
    if (!isRecord(message)) return openaiError(`Invalid type for '${param}': expected an object.`, param, "invalid_type");
    const role = message.role;
    if (typeof role !== "string" || !ROLES.has(role)) {
      return openaiError(
        `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'.`,
        `${param}.role`,
        "invalid_value",
      );
    }
    if (ctx.mistral && previousRole !== undefined && !MISTRAL_NEXT[previousRole]?.has(role)) {
      return mistralError(`Unexpected role '${role}' after role '${previousRole}'`, "invalid_request_message_order", "3230");
    }

    if (role === "tool") {
      const id = message.tool_call_id;
      if (pending === undefined) {
        return openaiError(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
          null,
        );
      }
      if (typeof id !== "string")
        return openaiError(`Missing required parameter: '${param}.tool_call_id'.`, `${param}.tool_call_id`, "missing_required_parameter");
      if (ctx.mistral && !MISTRAL_ID.test(id)) return mistralIdProblem(id);
      if (!pending.ids.has(id)) {
        return openaiError(
          `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`,
          `messages.[${i}].tool_call_id`,
          null,
        );
      }
      pending.ids.delete(id);
      const problem = contentProblem(message.content, `${param}.content`, true);
      if (problem) return problem;
      previousRole = role;
      continue;
    }

    if (pending !== undefined && pending.ids.size > 0) {
      return openaiError(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending.ids].join(", ")}`,
        `messages.[${i}].role`,
        null,
      );
    }
    pending = undefined;

    if (role === "assistant") {
      const calls = message.tool_calls;
      const hasCalls = Array.isArray(calls) && calls.length > 0;
      if ((message.content === null || message.content === undefined) && !hasCalls) {
        return openaiError("Invalid value for 'content': expected a string, got null.", `messages.[${i}].content`, null);
      }
      if (message.content !== null && message.content !== undefined) {
        const problem = contentProblem(message.content, `${param}.content`, true);
        if (problem) return problem;
      }
      if (calls !== undefined) {
        if (!Array.isArray(calls))
          return openaiError(`Invalid type for '${param}.tool_calls': expected an array.`, `${param}.tool_calls`, "invalid_type");
        if (calls.length === 0) {
          return openaiError(
            `Invalid '${param}.tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
            `${param}.tool_calls`,
            "empty_array",
          );
        }
        const ids = new Set<string>();
        for (let j = 0; j < calls.length; j++) {
          const call: unknown = calls[j];
          const cparam = `${param}.tool_calls[${j}]`;
          if (!isRecord(call) || call.type !== "function" || !isRecord(call.function)) {
            return openaiError(`Missing required parameter: '${cparam}.function'.`, `${cparam}.function`, "missing_required_parameter");
          }
          if (typeof call.id !== "string")
            return openaiError(`Missing required parameter: '${cparam}.id'.`, `${cparam}.id`, "missing_required_parameter");
          // "Invalid 'messages[i].tool_calls[j].id': string too long. Expected a string with maximum length 40 …"
          if (call.id.length > 40) return tooLong(`${cparam}.id`, 40, call.id.length);
          if (ctx.mistral && !MISTRAL_ID.test(call.id)) return mistralIdProblem(call.id);
          const nameProblem = openaiNameProblem(call.function.name, `${cparam}.function.name`);
          if (nameProblem) return nameProblem;
          if (typeof call.function.arguments !== "string") {
            return openaiError(
              `Missing required parameter: '${cparam}.function.arguments'.`,
              `${cparam}.function.arguments`,
              "missing_required_parameter",
            );
          }
          ids.add(call.id);
        }
        pending = { index: i, ids };
      }
    } else {
      const problem = contentProblem(message.content, `${param}.content`, role !== "user");
      if (problem) return problem;
    }
    previousRole = role;
  }
  if (pending !== undefined && pending.ids.size > 0) {
    return openaiError(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending.ids].join(", ")}`,
      `messages.[${messages.length}].role`,
      null,
    );
  }
  if (ctx.reasoningContentRequired) {
    const problem = reasoningContentProblem(messages);
    if (problem) return problem;
  }
  if (ctx.mistral && previousRole !== "user" && previousRole !== "tool") {
    return mistralError(
      `Expected last role User or Tool (or Assistant with prefix True) for serving but got ${previousRole ?? "none"}`,
      "invalid_request_message_order",
      "3230",
    );
  }
  return null;
}

/**
 * DeepSeek / Kimi thinking mode: in the current tool loop (after the last user
 * message) every assistant message with tool calls carries `reasoning_content`,
 * whoever wrote it (api-docs.deepseek.com, thinking mode, tool calls).
 */
function reasoningContentProblem(messages: readonly unknown[]): ProviderRejection | null {
  let loopStart = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (isRecord(m) && m.role === "user") {
      loopStart = i + 1;
      break;
    }
  }
  for (let i = loopStart; i < messages.length; i++) {
    const m = messages[i];
    if (!isRecord(m) || m.role !== "assistant" || !Array.isArray(m.tool_calls) || m.tool_calls.length === 0) continue;
    if (typeof m.reasoning_content !== "string") {
      return openaiError(
        `Missing \`reasoning_content\` field in the assistant message at message index ${i}`,
        null,
        "invalid_request_error",
      );
    }
  }
  return null;
}
