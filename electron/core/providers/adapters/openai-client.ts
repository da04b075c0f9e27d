/** The OpenAI SDK client both OpenAI wire adapters use (Chat Completions and Responses). */
import OpenAI from "openai";
import type { ProviderConfig } from "../../../../shared/models";
import type { StreamOptions } from "../types";
import { baseUrlOf } from "./common";

export function openAIClient(provider: ProviderConfig, options: StreamOptions, fetch: typeof globalThis.fetch): OpenAI {
  return new OpenAI({
    // Local servers need no key, but the SDK insists on one.
    apiKey: options.apiKey || "no-key",
    baseURL: baseUrlOf(provider, options),
    organization: null,
    project: null,
    maxRetries: 0, // the agent loop owns retries
    fetch,
    defaultHeaders: options.headers,
    logLevel: "off",
  });
}
