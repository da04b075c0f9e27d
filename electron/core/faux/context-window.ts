/**
 * The faux provider's context windows. Every model request is counted (the
 * same count its usage reports as input tokens), and one over its model's
 * window is refused with that provider's real overflow status and error text,
 * as the real API would, so the agent's compaction is tested against the
 * errors it meets in the field.
 *
 * The count is a stand-in for a tokenizer: 4 characters of the request body a
 * token, except media (base64 images and documents), which count 1,600 tokens
 * each, as providers count an image by its pixels, not its encoding.
 * Windows come from the model registry by model id; tests add or change them.
 */
import { listModels } from "../providers/registry";
import { anthropicError } from "./encode-anthropic";
import { mistralError, openaiError } from "./encode-openai-completions";
import type { FauxRejection, FauxRoute } from "./types";

const CHARS_PER_TOKEN = 4;
const TOKENS_PER_IMAGE = 1_600;
const BASE64_MIN_CHARS = 1_000;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
/** Where the wire formats carry media bytes: Anthropic and Gemini `data`, Bedrock `bytes`; OpenAI a data: URL anywhere. */
const MEDIA_KEYS: ReadonlySet<string> = new Set(["data", "bytes"]);

function isMedia(key: string, value: string): boolean {
  if (value.length < BASE64_MIN_CHARS) return false;
  if (value.startsWith("data:")) return /^data:[a-z]+\/[a-z0-9.+-]+;base64,/.test(value);
  return MEDIA_KEYS.has(key) && BASE64.test(value);
}

/** Tokens in a request: its raw body length / 4, media (images, documents) 1,600 tokens each. */
export function requestTokens(raw: string, body: unknown): number {
  let chars = raw.length;
  let media = 0;
  const visit = (key: string, node: unknown): void => {
    if (typeof node === "string") {
      if (isMedia(key, node)) {
        chars -= node.length;
        media++;
      }
    } else if (Array.isArray(node)) {
      for (const item of node) visit(key, item);
    } else if (typeof node === "object" && node !== null) {
      for (const [k, value] of Object.entries(node)) visit(k, value);
    }
  };
  visit("", body);
  return Math.max(1, Math.ceil(Math.max(0, chars) / CHARS_PER_TOKEN) + media * TOKENS_PER_IMAGE);
}

/** Context windows by model id: the registry's, with the test's own on top (null: no limit). */
export class ContextWindows {
  private readonly windows = new Map<string, number | null>();

  constructor(extra: Readonly<Record<string, number | null>> = {}) {
    for (const model of listModels()) if (!this.windows.has(model.id)) this.windows.set(model.id, model.contextWindow);
    for (const [id, tokens] of Object.entries(extra)) this.windows.set(id, tokens);
  }

  /** The window of `model`, or undefined when there is none (an unknown model takes any size). */
  of(model: string | undefined): number | undefined {
    if (model === undefined) return undefined;
    return this.windows.get(model) ?? undefined;
  }

  set(model: string, tokens: number | null): void {
    this.windows.set(model, tokens);
  }
}

/** The provider's own refusal of a request of `tokens` for a window of `window` tokens. */
export function overflowRejection(route: FauxRoute, tokens: number, window: number): FauxRejection {
  switch (route) {
    case "anthropic": {
      const message = `prompt is too long: ${tokens} tokens > ${window} maximum`;
      return { status: 400, body: anthropicError("invalid_request_error", message), message };
    }
    case "openai-completions": {
      const message = `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`;
      return { status: 400, body: openaiError(message, "invalid_request_error", "context_length_exceeded", "messages"), message };
    }
    case "openai-responses": {
      const message = "Your input exceeds the context window of this model. Please adjust your input and try again.";
      return { status: 400, body: openaiError(message, "invalid_request_error", "context_length_exceeded", "input"), message };
    }
    case "mistral": {
      const message = `Prompt contains ${tokens} tokens and 0 draft tokens, too large for model with ${window} maximum context length`;
      return { status: 400, body: mistralError(message, "invalid_request_message_error", "3051"), message };
    }
    case "gemini": {
      const message = `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`;
      return { status: 400, body: { error: { code: 400, message, status: "INVALID_ARGUMENT" } }, message };
    }
    case "bedrock": {
      const message = "Input is too long for requested model.";
      return { status: 400, body: { message, __type: "ValidationException" }, message };
    }
  }
}
