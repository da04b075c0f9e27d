/**
 * The recorded real responses (test/providers/recordings, see its README):
 * which wire each folder speaks, the model and provider it is replayed for,
 * how one file becomes the responses in it, and how a response goes over the
 * wire (SSE events, Bedrock event-stream frames, or a JSON body).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelInfo, ProviderConfig } from "../../shared/models";
import type { FauxProvider, FauxRoute, FauxStep } from "../../electron/core/faux";
import { findModel, findProvider } from "../../electron/core/providers/registry";

export const RECORDINGS_DIR = join(__dirname, "recordings");

export type Wire = "anthropic" | "responses" | "chat" | "gemini" | "bedrock";

export interface Folder {
  wire: Wire;
  route: FauxRoute;
  /** A registry model ("provider/id", api) or one of our own for a server the registry does not list. */
  model: { ref: string; api: ModelInfo["api"] } | ModelInfo;
  /** Bedrock JSON bodies are Converse answers: replayed on a model whose tool use does not stream. */
  jsonModel?: { ref: string; api: ModelInfo["api"] };
}

export const FOLDERS: Record<string, Folder> = {
  anthropic: { wire: "anthropic", route: "anthropic", model: { ref: "anthropic/claude-sonnet-4-6", api: "anthropic-messages" } },
  "openai-responses": { wire: "responses", route: "openai-responses", model: { ref: "openai/gpt-5", api: "openai-responses" } },
  "openai-chat": { wire: "chat", route: "openai-completions", model: { ref: "openai/gpt-4.1", api: "openai-completions" } },
  google: { wire: "gemini", route: "gemini", model: { ref: "google/gemini-3-pro-preview", api: "google-generative-ai" } },
  bedrock: {
    wire: "bedrock",
    route: "bedrock",
    model: { ref: "bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", api: "bedrock-converse-stream" },
    jsonModel: { ref: "bedrock/us.meta.llama3-3-70b-instruct-v1:0", api: "bedrock-converse-stream" },
  },
  mistral: { wire: "chat", route: "mistral", model: { ref: "mistral/magistral-medium-latest", api: "openai-completions" } },
  groq: { wire: "chat", route: "openai-completions", model: { ref: "groq/llama-3.3-70b-versatile", api: "openai-completions" } },
  deepseek: { wire: "chat", route: "openai-completions", model: { ref: "deepseek/deepseek-reasoner", api: "openai-completions" } },
  "xai-chat": { wire: "chat", route: "openai-completions", model: { ref: "xai/grok-3-mini", api: "openai-completions" } },
  "xai-responses": {
    wire: "responses",
    route: "openai-responses",
    model: {
      id: "grok-4",
      name: "Grok 4 (Responses)",
      provider: "xai",
      api: "openai-responses",
      contextWindow: 256_000,
      maxOutput: 64_000,
      input: ["text", "image"],
      reasoning: true,
      price: { input: 3, output: 15, cacheRead: 0.75, cacheWrite: 0 },
    },
  },
};

/**
 * The SDK's fixtures that its authors constructed from a reported stream rather
 * than recorded (README.md): replayed like the others, not counted as recordings.
 */
export const CONSTRUCTED: ReadonlySet<string> = new Set([
  "anthropic/duplicate-message-start.chunks.txt",
  "anthropic/spliced-message-start.chunks.txt",
  "anthropic/anthropic-fallback.chunks.txt",
  "anthropic/anthropic-refusal.chunks.txt",
  "openai-responses/openai-custom-tool.1.chunks.txt",
]);

export interface Recording {
  folder: string;
  file: string;
  /** Constructed by the SDK's authors, not recorded (see CONSTRUCTED). */
  constructed: boolean;
  /** The file as recorded. */
  raw: string;
  kind: "chunks" | "json" | "error";
}

/** Every recording, in a stable order. */
export function loadRecordings(): Recording[] {
  const out: Recording[] = [];
  for (const folder of Object.keys(FOLDERS)) {
    for (const file of readdirSync(join(RECORDINGS_DIR, folder)).sort()) {
      const raw = readFileSync(join(RECORDINGS_DIR, folder, file), "utf8");
      const kind = file.endsWith(".chunks.txt") ? "chunks" : /error/.test(file) ? "error" : "json";
      out.push({ folder, file, raw, kind, constructed: CONSTRUCTED.has(`${folder}/${file}`) });
    }
  }
  return out;
}

/** The chunks of a `.chunks.txt` file: one JSON value a line. */
export function chunksOf(raw: string): Record<string, unknown>[] {
  return raw
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function typeOf(chunk: Record<string, unknown>): string {
  return typeof chunk.type === "string" ? chunk.type : "";
}

/**
 * A file may hold several responses in a row (a multi-step run): a new one
 * begins where a response that had ended starts again. A second start while a
 * response is still open stays in it (that is what the adapter must handle).
 */
export function responsesOf(wire: Wire, chunks: Record<string, unknown>[]): Record<string, unknown>[][] {
  const out: Record<string, unknown>[][] = [];
  let current: Record<string, unknown>[] = [];
  let ended = false;
  for (const chunk of chunks) {
    if (ended && startsResponse(wire, chunk, current)) {
      out.push(current);
      current = [];
      ended = false;
    }
    current.push(chunk);
    if (endsResponse(wire, chunk)) ended = true;
  }
  if (current.length > 0) out.push(current);
  return out;
}

function startsResponse(wire: Wire, chunk: Record<string, unknown>, current: Record<string, unknown>[]): boolean {
  if (wire === "anthropic") return typeOf(chunk) === "message_start";
  if (wire === "responses") return typeOf(chunk) === "response.created";
  if (wire === "bedrock") return chunk.messageStart !== undefined;
  if (wire === "gemini") return chunk.responseId !== undefined && chunk.responseId !== current[0]?.responseId;
  return chunk.id !== undefined && chunk.id !== current[0]?.id;
}

function endsResponse(wire: Wire, chunk: Record<string, unknown>): boolean {
  if (wire === "anthropic") return typeOf(chunk) === "message_stop";
  if (wire === "responses") return ["response.completed", "response.incomplete", "response.failed"].includes(typeOf(chunk));
  if (wire === "bedrock") return chunk.metadata !== undefined;
  const candidates = chunk.candidates;
  if (wire === "gemini")
    return Array.isArray(candidates) && candidates.some((c) => typeof (c as { finishReason?: unknown }).finishReason === "string");
  const choices = chunk.choices;
  return Array.isArray(choices) && choices.some((c) => typeof (c as { finish_reason?: unknown }).finish_reason === "string");
}

/** One recorded response as the faux provider replays it, framed as its wire frames it. */
export function replayStep(wire: Wire, chunks: Record<string, unknown>[]): FauxStep {
  if (wire === "bedrock") {
    return {
      type: "recorded",
      events: chunks.map((chunk) => {
        const [name] = Object.keys(chunk);
        const exception = name.endsWith("Exception");
        const event = exception ? `exception:${name[0].toUpperCase()}${name.slice(1)}` : name;
        return { event, data: JSON.stringify(chunk[name]) };
      }),
    };
  }
  const named = wire === "anthropic" || wire === "responses";
  const events = chunks.map((chunk) => (named ? { event: typeOf(chunk), data: JSON.stringify(chunk) } : { data: JSON.stringify(chunk) }));
  // Chat Completions streams end with [DONE]; Anthropic, Responses and Gemini end with their last event.
  if (wire === "chat") events.push({ data: "[DONE]" });
  return { type: "recorded", events };
}

/** A recorded error body, answered with its HTTP status (from the body: Gemini's `code`, OpenAI's quota type). */
export function errorStep(body: unknown): FauxStep {
  const error = (body as { error?: { code?: unknown; type?: unknown } }).error;
  const status = typeof error?.code === "number" ? error.code : error?.type === "insufficient_quota" ? 429 : 400;
  return { type: "http", status, body };
}

export interface ReplayTarget {
  model: ModelInfo;
  provider: ProviderConfig;
}

/** The model and provider a folder's recordings are replayed for, pointed at the faux provider. */
export function targetFor(folder: Folder, faux: Pick<FauxProvider, "baseUrls">, json = false): ReplayTarget {
  const spec = json && folder.jsonModel ? folder.jsonModel : folder.model;
  const model = "ref" in spec ? findModel(spec.ref, spec.api) : spec;
  if (model === undefined) throw new Error(`registry lacks ${"ref" in spec ? spec.ref : spec.id}`);
  const registered = findProvider(model.provider);
  const base: ProviderConfig = registered ?? { key: model.provider, label: model.provider, api: model.api, baseUrl: "http://127.0.0.1:9" };
  const urls = faux.baseUrls;
  const baseUrl =
    folder.route === "anthropic"
      ? urls.anthropic
      : folder.route === "mistral"
        ? urls.mistral
        : folder.route === "gemini"
          ? urls.gemini
          : folder.route === "bedrock"
            ? urls.bedrock
            : urls.openai;
  return { model, provider: { ...base, api: model.api, baseUrl } };
}
