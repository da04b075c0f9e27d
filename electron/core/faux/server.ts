/**
 * The faux provider: an HTTP server on 127.0.0.1 that speaks Anthropic
 * Messages, OpenAI Chat Completions, OpenAI Responses and Mistral's Chat
 * Completions well enough for the real SDKs, validates every request as
 * strictly as the real providers (their rules and their context windows,
 * context-window.ts), and answers from a script.
 *
 * Contract: every request is recorded with its verdict; a rejected request is
 * answered with the provider's real status and error body and never consumes
 * a scripted step.
 */
import { performance } from "node:perf_hooks";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { SignatureRegistry, newIds } from "./ids";
import { serializeSse, type EncodeInput, type Encoded, type SseEvent } from "./encode-common";
import { anthropicError, encodeAnthropic } from "./encode-anthropic";
import { encodeOpenAICompletions, mistralError, openaiError } from "./encode-openai-completions";
import { encodeOpenAIResponses } from "./encode-openai-responses";
import { encodeGemini } from "./encode-gemini";
import { bedrockFrame, encodeBedrock } from "./encode-bedrock";
import { errorBody } from "./faults-google-aws";
import { faultAnswer, streamErrorEvent, type HttpAnswer } from "./faults";
import { readTranscript } from "./transcript";
import { validateRequest } from "./validation";
import { ContextWindows, overflowRejection, requestTokens } from "./context-window";
import type { FauxFault, FauxRecordedRequest, FauxReply, FauxRequest, FauxResponder, FauxRoute, FauxStep } from "./types";

export interface FauxProviderOptions {
  /** Default 0: a random free port. */
  port?: number;
  /** Called for each request once it has been judged (before it is answered). */
  onRequest?: (request: FauxRecordedRequest) => void;
  /** Keep each request's body in `requests` (default true; benchmarks turn it off to measure the client's memory). */
  recordBodies?: boolean;
  /** Called with each model request's body as received, before it is parsed (benchmarks replay them elsewhere). */
  onRawBody?: (raw: string) => void;
  /** Also record the CPU time this process spent on each request (benchmarks: wall time includes being descheduled). */
  recordCpu?: boolean;
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP. */
  tls?: { key: string; cert: string };
  /** Context windows by model id on top of the registry's (null: no limit); a request over its window is refused. */
  contextWindows?: Record<string, number | null>;
}

export interface FauxProvider {
  /** Base URLs to put in a ProviderConfig (or pass as the SDKs' `baseURL`). */
  baseUrls: { anthropic: string; openai: string; mistral: string; gemini: string; bedrock: string };
  /** Appends steps to the queue; each request takes the next one. */
  script(steps: FauxStep | readonly FauxStep[]): void;
  /** Steps not yet used. */
  pending(): number;
  /** Answers requests once the queue is empty (null: answer "nothing scripted"). */
  setDefaultResponder(responder: FauxResponder | null): void;
  /** Every request received, in order, with its validation verdict. */
  readonly requests: FauxRecordedRequest[];
  /** Resolves once `count` requests have been received in total. */
  waitForRequests(count: number): Promise<void>;
  /** The model a signature was issued for (undefined: never issued here). */
  signatureOwner(signature: string): string | undefined;
  /** Sets a model's context window (null: no limit) from the next request on. */
  setContextWindow(model: string, tokens: number | null): void;
  /** The ids `GET …/v1/models` lists on the OpenAI-style routes (default: none), as a local server lists its installed models. */
  setModels(ids: readonly string[]): void;
  /**
   * The ids the Anthropic (`GET /anthropic/v1/models`) or Gemini (`GET /gemini/v1beta/models`)
   * models endpoint lists, in that API's own shape (default: none).
   */
  setListedModels(api: ListingApi, ids: readonly string[]): void;
  /** Clears the queue and the recorded requests (signatures are kept). */
  reset(): void;
  close(): Promise<void>;
}

export type ListingApi = "anthropic" | "gemini";

/** A models endpoint's answer in its API's real shape. */
function modelListBody(api: ListingApi, ids: readonly string[]): unknown {
  if (api === "anthropic") {
    const data = ids.map((id) => ({
      type: "model",
      id,
      display_name: id,
      created_at: "2026-01-01T00:00:00Z",
      lifecycle: "active",
      max_input_tokens: 200_000,
      max_tokens: 32_000,
    }));
    return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids[ids.length - 1] ?? null };
  }
  return {
    models: ids.map((id) => ({
      name: `models/${id}`,
      version: "001",
      displayName: id,
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 65_536,
      supportedGenerationMethods: ["generateContent", "countTokens"],
    })),
  };
}

const LISTING_PATHS: Record<string, ListingApi> = { "/anthropic/v1/models": "anthropic", "/gemini/v1beta/models": "gemini" };

const ROUTES: Record<string, FauxRoute> = {
  "/anthropic/v1/messages": "anthropic",
  "/openai/v1/chat/completions": "openai-completions",
  "/openai/v1/responses": "openai-responses",
  "/mistral/v1/chat/completions": "mistral",
};

/** Gemini and Bedrock name the model in the path; `stream` tells the streaming method from the other. */
const PATH_ROUTES: Array<{ pattern: RegExp; route: FauxRoute; stream: boolean }> = [
  { pattern: /^\/gemini\/v1beta\/models\/([^/:]+):streamGenerateContent$/, route: "gemini", stream: true },
  { pattern: /^\/gemini\/v1beta\/models\/([^/:]+):generateContent$/, route: "gemini", stream: false },
  { pattern: /^\/bedrock\/model\/([^/]+)\/converse-stream$/, route: "bedrock", stream: true },
  { pattern: /^\/bedrock\/model\/([^/]+)\/converse$/, route: "bedrock", stream: false },
];

function routeOf(path: string): { route: FauxRoute; model?: string; stream?: boolean } | undefined {
  const fixed = ROUTES[path];
  if (fixed !== undefined) return { route: fixed };
  for (const r of PATH_ROUTES) {
    const m = r.pattern.exec(path);
    if (m) return { route: r.route, model: decodeURIComponent(m[1]), stream: r.stream };
  }
  return undefined;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

const BodyHead = z.looseObject({
  model: z.string().optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  thinking: z.looseObject({ type: z.string() }).nullish(),
  include: z.array(z.string()).nullish(),
});

type BodyHead = z.infer<typeof BodyHead>;

/**
 * What the real API would actually send for this request: Anthropic returns
 * thinking only when the request enabled it.
 */
function fitToRequest(route: FauxRoute, reply: FauxReply, head: BodyHead | undefined, body: unknown): FauxReply {
  const withoutThinking = { ...reply, content: reply.content.filter((b) => b.type !== "thinking") };
  if (route === "anthropic" && head?.thinking?.type !== "enabled" && head?.thinking?.type !== "adaptive") return withoutThinking;
  // Gemini sends thought parts only with `includeThoughts`; Bedrock reasoning only when it was requested.
  if (route === "gemini" && !hasPath(body, ["generationConfig", "thinkingConfig", "includeThoughts"], true)) return withoutThinking;
  if (
    route === "bedrock" &&
    !hasPath(body, ["additionalModelRequestFields", "thinking", "type"], "enabled") &&
    !hasPath(body, ["additionalModelRequestFields", "reasoningConfig", "type"], "enabled")
  ) {
    return withoutThinking;
  }
  return reply;
}

function hasPath(value: unknown, path: readonly string[], expected: unknown): boolean {
  let node = value;
  for (const key of path) {
    if (typeof node !== "object" || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node === expected;
}

export async function startFauxProvider(options: FauxProviderOptions = {}): Promise<FauxProvider> {
  const signatures = new SignatureRegistry();
  const queue: FauxStep[] = [];
  const requests: FauxRecordedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const closing = new AbortController();
  let defaultResponder: FauxResponder | null = null;
  const windows = new ContextWindows(options.contextWindows);
  let modelIds: readonly string[] = [];
  const listed: Record<ListingApi, readonly string[]> = { anthropic: [], gemini: [] };
  let seq = 0;

  const notify = () => {
    for (const w of [...waiters]) {
      if (requests.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const cpuAtStart = options.recordCpu === true ? process.cpuUsage() : undefined;
    handle(req, res)
      .then((record) => {
        if (!record) return;
        record.endedAt = performance.now();
        if (cpuAtStart !== undefined) {
          const used = process.cpuUsage(cpuAtStart);
          record.cpuMs = (used.user + used.system) / 1000;
        }
      })
      .catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, {}, { error: { message: `faux provider crashed: ${String(err)}`, type: "faux_error" } });
        else res.destroy();
      });
  };
  // HTTPS with the caller's certificate: tests of certificate trust (the base URLs become https://).
  const server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, onRequest) : createServer(onRequest);

  /** Answers one request; returns its record once the whole response is written (undefined for an unknown URL or a bad body). */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<FauxRecordedRequest | undefined> {
    const receivedAt = performance.now();
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && (path === "/openai/v1/models" || path === "/mistral/v1/models")) {
      // OpenAI's model list; not recorded as a request (it is no model call).
      sendJson(res, 200, {}, { object: "list", data: modelIds.map((id) => ({ id, object: "model", created: 0, owned_by: "faux" })) });
      return;
    }
    const listing = req.method === "GET" ? LISTING_PATHS[path] : undefined;
    if (listing !== undefined) {
      sendJson(res, 200, requestIdHeader(listing), modelListBody(listing, listed[listing]));
      return;
    }
    const matched = routeOf(path);
    if (req.method !== "POST" || matched === undefined) {
      sendJson(res, 404, {}, openaiError(`Unknown request URL: ${req.method} ${path}`, "invalid_request_error", "unknown_url"));
      return;
    }
    const route = matched.route;
    const raw = await readBody(req);
    options.onRawBody?.(raw);
    const headers = headerRecord(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      sendJson(res, 400, {}, invalidJsonBody(route));
      return;
    }
    const head = BodyHead.safeParse(body);
    const model = matched.model ?? (head.success ? head.data.model : undefined);
    const stream = matched.stream ?? (head.success && head.data.stream === true);
    const tokens = requestTokens(raw, body);
    const window = windows.of(model);
    const rejection =
      validateRequest(route, body, { signatureOwner: (s) => signatures.ownerOf(s), modelId: model, stream }) ??
      (window !== undefined && tokens > window ? overflowRejection(route, tokens, window) : null);
    const record: FauxRecordedRequest = {
      seq: ++seq,
      route,
      path,
      headers,
      body: options.recordBodies === false ? null : body,
      model,
      stream,
      tokens,
      accepted: rejection === null,
      rejection,
      outcome: rejection === null ? "pending" : "rejected",
      receivedAt,
      respondedAt: null,
      endedAt: null,
      cpuMs: null,
    };
    res.on("finish", () => {
      record.respondedAt = performance.now();
    });
    requests.push(record);
    notify();
    options.onRequest?.(record);
    if (rejection !== null) {
      sendJson(res, rejection.status, requestIdHeader(route), rejection.body);
      return record;
    }

    const step = queue.length > 0 ? queue.shift() : (defaultResponder ?? undefined);
    if (step === undefined) {
      record.outcome = "unscripted";
      const message = `faux provider: nothing scripted for request #${record.seq} (${route})`;
      sendJson(
        res,
        400,
        {},
        errorBody(route, message) ??
          (route === "anthropic" ? anthropicError("invalid_request_error", message) : openaiError(message, "invalid_request_error")),
      );
      return record;
    }
    let answer: FauxReply | FauxFault;
    if (typeof step === "function") {
      const { turns, tools } = readTranscript(route, body);
      const request: FauxRequest = {
        seq: record.seq,
        route,
        model: model ?? "",
        stream,
        body,
        headers,
        turns,
        tools,
        lastTurn: turns.length > 0 ? turns[turns.length - 1] : null,
      };
      try {
        answer = await step(request);
      } catch (err) {
        answer = { type: "serverError" };
        record.outcome = "fault";
        console.error(`faux provider: responder threw on request #${record.seq}:`, err);
      }
    } else {
      answer = step;
    }

    const headData = head.success ? head.data : undefined;
    const encodeInput = (reply: FauxReply): EncodeInput => ({
      reply: fitToRequest(route, reply, headData, body),
      model: model ?? "",
      signatures,
      requestTokens: tokens,
    });
    const flags: EncodeFlags = {
      includeUsage: headData?.stream_options?.include_usage === true,
      // Responses returns encrypted reasoning only when asked (`include: ["reasoning.encrypted_content"]`).
      encryptedReasoning: headData?.include?.includes("reasoning.encrypted_content") === true,
    };
    const encode = (reply: FauxReply) => encodeFor(route, encodeInput(reply), flags);

    if (answer.type === "reply") {
      record.outcome = "reply";
      const encoded = encode(answer);
      if (!stream) {
        if (answer.cut || answer.hangAfterEvents !== undefined) {
          res.socket?.destroy();
          return record;
        }
        sendJson(res, 200, requestIdHeader(route), encoded.json);
        return record;
      }
      await writeStream(res, route, encoded.events, answer);
      return record;
    }
    record.outcome = "fault";
    if (answer.type === "recorded") {
      record.outcome = "reply";
      if (stream) await writeStream(res, route, [...(answer.events ?? [])], { type: "reply", content: [] });
      else sendJson(res, 200, requestIdHeader(route), answer.json ?? {});
      return record;
    }
    if (answer.type === "streamError") {
      const reply = answer.reply ?? { type: "reply", content: [{ type: "text", text: "Working on it" }] };
      const events = encode(reply).events;
      const keep = Math.min(answer.afterEvents ?? 3, Math.max(0, events.length - 1));
      const errorEvent = streamErrorEvent(route, answer.errorType ?? "overloaded", keep);
      await writeStream(res, route, [...events.slice(0, keep), errorEvent], { ...reply, cut: undefined, hangAfterEvents: undefined });
      return record;
    }
    const apiKey = headers["x-api-key"] ?? headers["x-goog-api-key"] ?? (headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    const http: HttpAnswer = faultAnswer(route, answer, { model: model ?? "", apiKey });
    sendJson(res, http.status, { ...requestIdHeader(route), ...http.headers }, http.body);
    return record;
  }

  async function writeStream(res: ServerResponse, route: FauxRoute, events: SseEvent[], reply: FauxReply): Promise<void> {
    // Bedrock streams AWS event-stream frames; the others Server-Sent Events.
    const binary = route === "bedrock";
    res.writeHead(200, {
      "content-type": binary ? "application/vnd.amazon.eventstream" : "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...requestIdHeader(route),
    });
    const gone = new Promise<void>((resolve) => {
      const onClosing = () => resolve();
      closing.signal.addEventListener("abort", onClosing, { once: true });
      res.once("close", () => {
        closing.signal.removeEventListener("abort", onClosing);
        resolve();
      });
    });
    let flushed: Promise<void> = Promise.resolve();
    for (let i = 0; i < events.length; i++) {
      if (res.destroyed || closing.signal.aborted) return;
      if (reply.cut && i === reply.cut.afterEvents) {
        if (reply.cut.how === "drop") {
          // Let what was written reach the client first: the break is mid-stream, not before it.
          await Promise.race([flushed, gone]);
          res.socket?.destroy();
        } else res.end();
        return;
      }
      if (reply.hangAfterEvents !== undefined && i === reply.hangAfterEvents) {
        await gone;
        if (!res.destroyed) res.destroy();
        return;
      }
      if (i > 0 && reply.chunkDelayMs) await Promise.race([delay(reply.chunkDelayMs), gone]);
      if (res.destroyed) return;
      const frame = binary ? bedrockFrame(events[i]) : serializeSse(events[i]);
      flushed = new Promise<void>((resolve) => res.write(frame, () => resolve()));
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `${options.tls ? "https" : "http"}://127.0.0.1:${port}`;

  return {
    baseUrls: {
      anthropic: `${origin}/anthropic`,
      openai: `${origin}/openai/v1`,
      mistral: `${origin}/mistral/v1`,
      gemini: `${origin}/gemini`,
      bedrock: `${origin}/bedrock`,
    },
    script(steps) {
      if (Array.isArray(steps)) queue.push(...(steps as readonly FauxStep[]));
      else queue.push(steps as FauxStep);
    },
    pending: () => queue.length,
    setDefaultResponder(responder) {
      defaultResponder = responder;
    },
    requests,
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
    signatureOwner: (signature) => signatures.ownerOf(signature),
    setContextWindow: (model, tokens) => windows.set(model, tokens),
    setModels(ids) {
      modelIds = [...ids];
    },
    setListedModels(api, ids) {
      listed[api] = [...ids];
    },
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    close() {
      closing.abort();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface EncodeFlags {
  includeUsage: boolean;
  encryptedReasoning: boolean;
}

function encodeFor(route: FauxRoute, input: EncodeInput, flags: EncodeFlags): Encoded {
  switch (route) {
    case "anthropic":
      return encodeAnthropic(input);
    case "openai-responses":
      return encodeOpenAIResponses(input, { encryptedReasoning: flags.encryptedReasoning });
    case "openai-completions":
      return encodeOpenAICompletions(input, { includeUsage: flags.includeUsage, mistral: false });
    case "mistral":
      return encodeOpenAICompletions(input, { includeUsage: flags.includeUsage, mistral: true });
    case "gemini":
      return encodeGemini(input);
    case "bedrock":
      return encodeBedrock(input);
  }
}

function invalidJsonBody(route: FauxRoute): unknown {
  const own = errorBody(route, "Invalid JSON payload received.");
  if (own !== undefined) return own;
  if (route === "anthropic") return anthropicError("invalid_request_error", "There was an error parsing the body of your request.");
  if (route === "mistral") return mistralError("Invalid JSON body", "invalid_request_error");
  return openaiError(
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
    "invalid_request_error",
  );
}

function requestIdHeader(route: FauxRoute): Record<string, string> {
  if (route === "bedrock") return { "x-amzn-requestid": newIds.request() };
  return route === "anthropic" ? { "request-id": newIds.request() } : { "x-request-id": newIds.request() };
}

function sendJson(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        req.destroy();
        return;
      }
      parts.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A request's headers as one string each (names are lower case in Node; repeated values joined with ", "). */
function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") out[name] = value;
    else if (Array.isArray(value)) out[name] = value.join(", ");
  }
  return out;
}
