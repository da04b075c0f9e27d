/**
 * Recorded real responses (other SDKs' fixtures recorded from the live APIs;
 * test/providers/recordings/README.md) replayed through every adapter over the
 * faux provider's loopback server, each in its wire's real framing (SSE,
 * Gemini's data-only SSE, Bedrock event-stream frames, Converse JSON, HTTP
 * error bodies). Each stored message must say what the recording says (text,
 * reasoning, signatures byte for byte, tool calls, stop reason, usage), server
 * tools the app never asked for must neither crash the stream nor leak into
 * the message, and the next request built from the stored message must pass
 * the strict validator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFauxProvider, type FauxProvider } from "../../electron/core/faux";
import { buildRequest } from "../../electron/core/providers/requests";
import { resolveCompat } from "../../electron/core/providers/registry";
import { validateRequest } from "../../electron/core/providers/validate";
import type { AssistantMessage, Message, ToolCall } from "../../shared/protocol";
import { context, fakeAwsCredentials, run, toolResult, user, type Target } from "./adapters-fixtures";
import { bedrockJsonAsChunks, expectedOf, type Expected } from "./recorded-reference";
import { chunksOf, errorStep, FOLDERS, loadRecordings, replayStep, responsesOf, targetFor, type Recording } from "./recorded-replay";

const RECORDINGS = loadRecordings();
const RECORDED = RECORDINGS.filter((r) => !r.constructed).length;
let faux: FauxProvider;
let replayed = 0;

beforeAll(async () => {
  fakeAwsCredentials();
  faux = await startFauxProvider();
});
afterAll(async () => {
  console.log(
    `recorded real responses: ${RECORDED} recordings (+${RECORDINGS.length - RECORDED} constructed fixtures), ${replayed} responses replayed`,
  );
  await faux.close();
});

const callsOf = (m: AssistantMessage): ToolCall[] => m.content.filter((b): b is ToolCall => b.type === "toolCall");
const textOf = (m: AssistantMessage): string => m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
const thinkingOf = (m: AssistantMessage): string => m.content.map((b) => (b.type === "thinking" && !b.redacted ? b.thinking : "")).join("");
const signaturesOf = (m: AssistantMessage): string[] =>
  m.content.flatMap((b) => (b.type === "thinking" && b.signature ? [b.signature] : []));
const squash = (s: string): string => s.replace(/\s+/g, "");

function checkMessage(message: AssistantMessage, expected: Expected, wire: string): void {
  expect(message.stopReason).toBe(expected.stopReason);
  if (expected.retryable === true) return;
  expect(textOf(message)).toBe(expected.text);
  // No block that says nothing (Gemini ends every answer with an empty text part).
  expect(message.content.filter((b) => b.type === "text" && b.text === "")).toEqual([]);
  if (expected.stopDetails !== undefined) {
    expect(message.stopDetails).toMatchObject(expected.stopDetails);
    if (expected.stopDetails.explanation) expect(message.errorMessage).toContain(expected.stopDetails.explanation);
  }
  // Responses joins summary parts with a blank line; the others stream reasoning as it is.
  if (wire === "responses") expect(squash(thinkingOf(message))).toBe(squash(expected.thinking));
  else expect(thinkingOf(message)).toBe(expected.thinking);
  const stored = signaturesOf(message);
  for (const signature of expected.signatures) {
    // Responses keeps the whole reasoning item (its encrypted content inside) as the signature.
    expect(stored.some((s) => (wire === "responses" ? s.includes(signature) : s === signature))).toBe(true);
  }
  const calls = callsOf(message);
  expect(calls.map((c) => c.name)).toEqual(expected.calls.map((c) => c.name));
  calls.forEach((call, i) => {
    const want = expected.calls[i];
    if (typeof want.arguments === "object" && want.arguments !== null && "unparsable" in want.arguments)
      expect(call.argumentsError).toBeDefined();
    else expect(call.arguments).toEqual(want.arguments);
    if (want.id === undefined) expect(call.id).not.toBe("");
    else if (wire === "responses") expect(call.id.startsWith(`${want.id}|`)).toBe(true);
    else expect(call.id).toBe(want.id);
  });
  const { input, output, cacheRead, cacheWrite, reasoningTokens } = message.usage;
  expect({ input, output, cacheRead, cacheWrite }).toEqual({
    input: expected.usage.input,
    output: expected.usage.output,
    cacheRead: expected.usage.cacheRead,
    cacheWrite: expected.usage.cacheWrite,
  });
  if (expected.usage.reasoningTokens !== undefined) expect(reasoningTokens).toBe(expected.usage.reasoningTokens);
}

/** The next request after the stored message (its calls answered) must be one the provider accepts. */
function checkRoundTrip(target: Target, message: AssistantMessage, recording: Recording, stream: boolean): void {
  const history: Message[] = [user("Please help with this."), message];
  for (const call of callsOf(message)) history.push(toolResult(call.id, call.name, `result of ${call.name}`));
  if (callsOf(message).length === 0) history.push(user("Thanks. Go on."));
  const { model, provider } = target;
  const built = buildRequest(model, provider, context(history), { reasoning: "medium", sessionId: "session-recorded" });
  const compat = resolveCompat(model, provider);
  const rejection = validateRequest(model.api, built.body, {
    modelId: model.id,
    // The recorded signatures were issued to the model the recording is replayed for.
    signatureOwner: (signature) => (recording.raw.includes(signature) ? model.id : undefined),
    stream,
    mistral: target.route === "mistral",
    reasoningContentRequired: compat.reasoningContentOnToolCalls,
  });
  expect(rejection?.message ?? null).toBeNull();
}

function targetOf(recording: Recording, json: boolean): Target {
  const folder = FOLDERS[recording.folder];
  const { model, provider } = targetFor(folder, faux, json);
  return { route: folder.route, label: recording.folder, model, provider };
}

describe(`recorded real responses (${RECORDED} recordings)`, () => {
  it("covers every wire and provider the app speaks, with at least 80 recordings", () => {
    expect(RECORDED).toBeGreaterThanOrEqual(80);
    const folders = new Set(RECORDINGS.map((r) => r.folder));
    for (const folder of ["anthropic", "openai-responses", "openai-chat", "google", "bedrock", "mistral", "deepseek", "groq", "xai-chat"]) {
      expect(folders.has(folder), folder).toBe(true);
    }
    expect(RECORDINGS.some((r) => r.kind === "error")).toBe(true);
  });

  it.each(RECORDINGS.filter((r) => r.kind === "chunks").map((r) => [`${r.folder}/${r.file}`, r] as const))(
    "%s replays into the message it records, and the next request is accepted",
    async (_name, recording) => {
      const folder = FOLDERS[recording.folder];
      const target = targetOf(recording, false);
      const compat = resolveCompat(target.model, target.provider);
      for (const chunks of responsesOf(folder.wire, chunksOf(recording.raw))) {
        faux.reset();
        faux.script(replayStep(folder.wire, chunks));
        const { final, message } = await run(target, context([user("Please help with this.")]), { reasoning: "medium" });
        replayed++;
        const expected = expectedOf(folder.wire, chunks, compat.reasoningField);
        expect(final.type).toBe(expected.stopReason === "error" ? "error" : "done");
        if (expected.retryable === true) expect(final.type === "error" && final.retryable).toBe(true);
        checkMessage(message, expected, folder.wire);
        checkRoundTrip(target, message, recording, true);
      }
    },
  );

  it.each(RECORDINGS.filter((r) => r.kind === "json").map((r) => [`${r.folder}/${r.file}`, r] as const))(
    "%s (a whole answer) replays into the message it records, and the next request is accepted",
    async (_name, recording) => {
      const folder = FOLDERS[recording.folder];
      const body: unknown = JSON.parse(recording.raw);
      faux.reset();
      if (folder.wire === "bedrock") {
        // A Converse answer: the model's tool use does not stream, so a request with tools goes through Converse.
        const target = targetOf(recording, true);
        faux.script({ type: "recorded", json: body });
        const { message } = await run(target, context([user("Please help with this.")]), { reasoning: "medium" });
        replayed++;
        expect(faux.requests[0].path).toMatch(/\/converse$/);
        checkMessage(message, expectedOf("bedrock", bedrockJsonAsChunks(body)), "bedrock");
        checkRoundTrip(target, message, recording, false);
        return;
      }
      // Gemini's whole answer has the shape of one streamed chunk: it goes out as a one-event stream.
      const target = targetOf(recording, false);
      const chunks = [body as Record<string, unknown>];
      faux.script(replayStep(folder.wire, chunks));
      const { message } = await run(target, context([user("Please help with this.")]), { reasoning: "medium" });
      replayed++;
      checkMessage(message, expectedOf(folder.wire, chunks), folder.wire);
      checkRoundTrip(target, message, recording, true);
    },
  );

  it.each(RECORDINGS.filter((r) => r.kind === "error").map((r) => [`${r.folder}/${r.file}`, r] as const))(
    "%s (an error body) ends the turn with the provider's words, retryable only when waiting helps",
    async (_name, recording) => {
      const body = JSON.parse(recording.raw) as { error: { message: string; code?: unknown; type?: string } };
      const target = targetOf(recording, false);
      faux.reset();
      faux.script(errorStep(body));
      const { final, message } = await run(target, context([user("Please help with this.")]));
      replayed++;
      expect(final.type).toBe("error");
      if (final.type !== "error") return;
      expect(message.stopReason).toBe("error");
      expect(message.errorMessage).toContain(body.error.message.slice(0, 40));
      const quota = body.error.type === "insufficient_quota";
      expect(final.retryable).toBe(final.status === 429 && !quota);
      if (recording.file === "google-429-retry-info.json") expect(final.retryAfterMs).toBe(34_400);
      checkRoundTrip(target, message, recording, true);
    },
  );
});
