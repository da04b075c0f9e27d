/**
 * The models a keyless OpenAI-compatible server (Ollama, LM Studio, a vLLM
 * box) has installed, read from its `GET {baseUrl}/models`, so the switcher
 * offers what is really there and not only the bundled examples.
 *
 * Such servers do not say a model's context window; discovered models assume
 * DISCOVERED_CONTEXT_WINDOW (compaction and the overflow detection handle a
 * model that holds less). Any model id of a local server also resolves without
 * discovery (`discoveredModel`), so a session keeps its model across restarts
 * and while the server is down.
 */
import { z } from "zod";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import { BodyTooLarge, readCapped } from "../network/read-capped";

export const DISCOVERED_CONTEXT_WINDOW = 32_768;
export const DISCOVERED_MAX_OUTPUT = 8_192;
/** A listing is cut here: the switcher is for picking, not browsing a hub. */
export const MAX_DISCOVERED_MODELS = 200;
/**
 * Generous: the switcher shows its list at once and adds what a server lists when it answers, so waiting
 * costs nothing, while giving up too early marks a slow server (busy, or a loaded machine: 1.5 s was
 * passed at load 20) as not running and hides its models until the switcher is opened again.
 */
export const DISCOVERY_TIMEOUT_MS = 10_000;
/** A list of even a few hundred models is far smaller; past this the server is not what it claims. */
export const MAX_LIST_BYTES = 2 * 1024 * 1024;

const ModelList = z.object({ data: z.array(z.object({ id: z.string().min(1).max(300) })) });

/** A server the app talks to without a key over Chat Completions: the ones that list their installed models. */
export function isLocalServer(provider: ProviderConfig): boolean {
  return provider.api === "openai-completions" && !provider.apiKeyEnv && provider.key !== "demo";
}

export function discoveredModel(provider: ProviderConfig, id: string): ModelInfo {
  return {
    id,
    name: `${id} (${provider.label.replace(/\s*\(local\)$/i, "")})`,
    provider: provider.key,
    api: provider.api,
    contextWindow: DISCOVERED_CONTEXT_WINDOW,
    maxOutput: DISCOVERED_MAX_OUTPUT,
    input: ["text"],
    reasoning: false,
    price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
}

/** Thrown when the server cannot be asked or answers something else than a model list. */
export class ModelListError extends Error {
  constructor(provider: ProviderConfig, detail: string) {
    super(`could not list the models of ${provider.label} at ${provider.baseUrl}: ${detail}`);
    this.name = "ModelListError";
  }
}

/** The ids `GET {baseUrl}/models` lists in OpenAI's shape (with the key as a bearer token where there is one); throws ModelListError. */
export async function listOpenAIModels(
  provider: ProviderConfig,
  options: { apiKey?: string | null; timeoutMs?: number; fetch?: typeof globalThis.fetch } = {},
): Promise<Array<{ id: string }>> {
  let body: unknown;
  try {
    const res = await (options.fetch ?? globalThis.fetch)(`${provider.baseUrl.replace(/\/+$/, "")}/models`, {
      headers: { accept: "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      signal: AbortSignal.timeout(options.timeoutMs ?? DISCOVERY_TIMEOUT_MS),
      redirect: "error",
    });
    if (!res.ok) throw new ModelListError(provider, `HTTP ${res.status}`);
    body = JSON.parse(await readCapped(res, MAX_LIST_BYTES));
  } catch (err) {
    if (err instanceof ModelListError) throw err;
    if (err instanceof BodyTooLarge) throw new ModelListError(provider, err.message);
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : "";
    throw new ModelListError(provider, cause || (err instanceof Error ? err.message : String(err)));
  }
  const parsed = ModelList.safeParse(body);
  if (!parsed.success) throw new ModelListError(provider, "the answer is not an OpenAI model list");
  return [...new Set(parsed.data.data.map((m) => m.id))].slice(0, MAX_DISCOVERED_MODELS).map((id) => ({ id }));
}

/** The server's models, in its order, without duplicates; throws ModelListError. */
export async function listServerModels(provider: ProviderConfig, timeoutMs = DISCOVERY_TIMEOUT_MS): Promise<ModelInfo[]> {
  const listed = await listOpenAIModels(provider, { timeoutMs });
  return listed.map((m) => discoveredModel(provider, m.id));
}
