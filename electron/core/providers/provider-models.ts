/**
 * What a provider's own models endpoint lists, through its SDK where it has
 * one: Anthropic `models.list()`, Gemini `models.list()`, and the OpenAI
 * shape `GET {baseUrl}/models` for OpenAI and every compatible server (the
 * local ones included: local-models.ts). A model the catalog does not know is
 * offered from this with the limits the endpoint gives, else assumed ones,
 * and its price unknown unless genai-prices has it.
 */
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import { listPrice } from "./catalog/prices";
import {
  DISCOVERED_CONTEXT_WINDOW,
  DISCOVERED_MAX_OUTPUT,
  DISCOVERY_TIMEOUT_MS,
  listOpenAIModels,
  MAX_DISCOVERED_MODELS,
  ModelListError,
} from "./local-models";

/** One model as a models endpoint describes it. */
export interface ListedModel {
  id: string;
  name?: string;
  contextWindow?: number;
  maxOutput?: number;
}

export interface ListOptions {
  apiKey: string | null;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

const positive = (n: number | null | undefined): number | undefined =>
  typeof n === "number" && Number.isInteger(n) && n > 0 ? n : undefined;

async function listAnthropic(provider: ProviderConfig, options: ListOptions): Promise<ListedModel[]> {
  const client = new Anthropic({
    apiKey: options.apiKey ?? "",
    authToken: null,
    baseURL: provider.baseUrl,
    maxRetries: 0,
    timeout: options.timeoutMs ?? DISCOVERY_TIMEOUT_MS,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const out: ListedModel[] = [];
  for await (const m of client.models.list({ limit: 1000 })) {
    if (m.lifecycle === "retired") continue;
    out.push({ id: m.id, name: m.display_name, contextWindow: positive(m.max_input_tokens), maxOutput: positive(m.max_tokens) });
    if (out.length >= MAX_DISCOVERED_MODELS) break;
  }
  return out;
}

async function listGemini(provider: ProviderConfig, options: ListOptions): Promise<ListedModel[]> {
  const ai = new GoogleGenAI({
    apiKey: options.apiKey ?? "",
    httpOptions: {
      baseUrl: provider.baseUrl,
      timeout: options.timeoutMs ?? DISCOVERY_TIMEOUT_MS,
      retryOptions: { attempts: 1 },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
  const out: ListedModel[] = [];
  const pager = await ai.models.list({ config: { pageSize: 1000 } });
  for await (const m of pager) {
    // Embedding, image and speech models do not generate content: the agent cannot run on them.
    if (!m.name || !(m.supportedActions ?? []).includes("generateContent")) continue;
    out.push({
      id: m.name.replace(/^models\//, ""),
      name: m.displayName,
      contextWindow: positive(m.inputTokenLimit),
      maxOutput: positive(m.outputTokenLimit),
    });
    if (out.length >= MAX_DISCOVERED_MODELS) break;
  }
  return out;
}

/** The provider's models, in its order, without duplicates; throws ModelListError. */
export async function listProviderModels(provider: ProviderConfig, options: ListOptions): Promise<ListedModel[]> {
  let listed: ListedModel[];
  try {
    if (provider.api === "anthropic-messages") listed = await listAnthropic(provider, options);
    else if (provider.api === "google-generative-ai") listed = await listGemini(provider, options);
    else if (provider.api === "bedrock-converse-stream") throw new ModelListError(provider, "listing Bedrock models is not supported yet");
    else listed = await listOpenAIModels(provider, { apiKey: options.apiKey, timeoutMs: options.timeoutMs, fetch: options.fetch });
  } catch (err) {
    if (err instanceof ModelListError) throw err;
    throw new ModelListError(provider, err instanceof Error ? err.message : String(err));
  }
  const seen = new Set<string>();
  return listed.filter((m) => m.id.length > 0 && m.id.length <= 300 && !seen.has(m.id) && seen.add(m.id));
}

/** A listed model the catalog does not know: usable, with the endpoint's limits or assumed ones, priced if genai-prices knows it. */
export function listedModelInfo(provider: ProviderConfig, listed: ListedModel): ModelInfo {
  const contextWindow = listed.contextWindow ?? DISCOVERED_CONTEXT_WINDOW;
  const price = listPrice(provider.key, listed.id);
  return {
    id: listed.id,
    name: listed.name && listed.name !== listed.id ? listed.name : listed.id,
    provider: provider.key,
    api: provider.api,
    contextWindow,
    maxOutput: Math.min(listed.maxOutput ?? DISCOVERED_MAX_OUTPUT, contextWindow),
    input: ["text"],
    reasoning: false,
    discovered: true,
    ...(price
      ? { price, priceSource: "genai-prices" as const }
      : { price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, priceUnknown: true }),
  };
}
