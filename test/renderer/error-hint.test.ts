/**
 * The hint under a failed request. The error texts are made the way the app
 * stores them: real provider error bodies through the SDK's error classes and
 * the adapters' `describeFailure`, so a change of wording there shows here.
 */
import { APIConnectionError, APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { waitTooLongNote } from "../../electron/core/agent/retry";
import { describeFailure } from "../../electron/core/providers/adapters/errors";
import { errorHint, type ProviderFacts } from "../../renderer/src/lib/error-hint";

const stored = (status: number, body: unknown) => {
  const err = APIError.generate(status, body as object, undefined, new Headers());
  return describeFailure(err, ["sk-ant-secret-key-123456"], JSON.stringify(body)).message;
};
/** What the SDK throws when fetch fails: "Connection error." over undici's "fetch failed" over the socket's error. */
const network = (cause: string) => {
  const socket = Object.assign(new Error(cause), { code: /\b(E[A-Z]+)\b/.exec(cause)?.[1] });
  return describeFailure(new APIConnectionError({ cause: new TypeError("fetch failed", { cause: socket }) }), []).message;
};

const anthropic = (keySource: ProviderFacts["keySource"]): ProviderFacts => ({
  key: "anthropic",
  label: "Anthropic",
  baseUrl: "https://api.anthropic.com",
  keySource,
  keyHint: keySource === "keychain" ? "3456" : null,
  apiKeyEnv: "ANTHROPIC_API_KEY",
});
const openai: ProviderFacts = {
  key: "openai",
  label: "OpenAI",
  baseUrl: "https://api.openai.com/v1",
  keySource: "env",
  keyHint: null,
  apiKeyEnv: "OPENAI_API_KEY",
};
const ollama: ProviderFacts = {
  key: "ollama",
  label: "Ollama",
  baseUrl: "http://localhost:11434/v1",
  keySource: "notNeeded",
  keyHint: null,
  apiKeyEnv: null,
};

const anthropic401 = () => stored(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });

describe("error hints", () => {
  it("a refused key points to where that key comes from", () => {
    expect(errorHint(anthropic401(), "claude-sonnet-4-5", anthropic("keychain"))).toEqual({
      text: "Anthropic refused the saved key (ending 3456). Replace it in Settings.",
      opensSettings: true,
    });
    expect(errorHint(anthropic401(), "claude-sonnet-4-5", anthropic("env"))?.text).toBe(
      "Anthropic refused the key in ANTHROPIC_API_KEY. Check its value, then restart the app.",
    );
    expect(errorHint(anthropic401(), "claude-sonnet-4-5", anthropic("none"))?.opensSettings).toBe(true);
    const openai401 = stored(401, {
      error: { message: "Incorrect API key provided: sk-abc***def.", type: "invalid_request_error", param: null, code: "invalid_api_key" },
    });
    expect(errorHint(openai401, "gpt-4.1", openai)?.text).toContain("OPENAI_API_KEY");
  });

  it("a key without access to the model is not called a bad key", () => {
    const text = stored(403, {
      type: "error",
      error: { type: "permission_error", message: "Your API key does not have permission to use the specified resource." },
    });
    const hint = errorHint(text, "claude-opus-4-1", anthropic("keychain"));
    expect(hint?.text).toBe(
      "Anthropic accepted the key but does not let it use claude-opus-4-1. Pick another model, or check the account's access.",
    );
    expect(hint?.opensSettings).toBe(false);
  });

  it("a model Ollama has not pulled gets the command that installs it", () => {
    const text = stored(404, {
      error: { message: 'model "qwen3:8b" not found, try pulling it first', type: "api_error", param: null, code: null },
    });
    expect(errorHint(text, "qwen3:8b", ollama)?.text).toBe("Ollama does not have qwen3:8b yet. Install it with: ollama pull qwen3:8b");
    const anthropic404 = stored(404, { type: "error", error: { type: "not_found_error", message: "model: claude-nope" } });
    expect(errorHint(anthropic404, "claude-nope", anthropic("env"))?.text).toBe(
      "Anthropic does not know the model claude-nope. Pick another model.",
    );
  });

  it("a local server that is not running is named, with how to start Ollama", () => {
    expect(errorHint(network("connect ECONNREFUSED 127.0.0.1:11434"), "qwen3:8b", ollama)?.text).toBe(
      "Nothing is listening at http://localhost:11434/v1. Is Ollama running? Start it with: ollama serve",
    );
    // The address the request used, when the provider's details name another (a base URL saved since).
    expect(errorHint(network("connect ECONNREFUSED 127.0.0.1:45999"), "qwen3:8b", ollama)?.text).toBe(
      "Nothing is listening at 127.0.0.1:45999. Is Ollama running? Start it with: ollama serve",
    );
    // A remote provider refusing is a network problem, not a server to start.
    expect(errorHint(network("connect ECONNREFUSED 1.2.3.4:443"), "gpt-4.1", openai)?.text).toBe(
      "The connection to OpenAI failed, also when retried. Check the network, then Retry.",
    );
    expect(errorHint(network("getaddrinfo ENOTFOUND api.openai.com"), "gpt-4.1", openai)?.opensSettings).toBe(true);
  });

  it("quota, rate limits and server trouble each say what to expect", () => {
    const quota = stored(429, {
      error: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    });
    expect(errorHint(quota, "gpt-4.1", openai)?.text).toBe("The OpenAI account is out of credit or over its spending limit.");
    const rate = stored(429, {
      type: "error",
      error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" },
    });
    expect(errorHint(rate, "claude-sonnet-4-5", anthropic("env"))?.text).toMatch(/^Anthropic is limiting the request rate/);
    const overloaded = stored(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    expect(errorHint(overloaded, "claude-sonnet-4-5", anthropic("env"))?.text).toMatch(/^Anthropic had a problem on its side/);
  });

  it("a rate limit the app did not wait out says how long the provider asked for, not that retries failed", () => {
    const rate = stored(429, {
      type: "error",
      error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit" },
    });
    const text = `${rate} ${waitTooLongNote(3_600_000, Date.parse("2026-03-01T12:00:00Z"))}`;
    expect(errorHint(text, "claude-sonnet-4-6", anthropic("env"))?.text).toBe(
      "Anthropic asks to wait 1 h before the next request. Retry after that.",
    );
  });

  it("says nothing where it has nothing useful to add", () => {
    const invalid = stored(400, {
      type: "error",
      error: { type: "invalid_request_error", message: "messages.1: tool_use ids must be unique" },
    });
    expect(errorHint(invalid, "claude-sonnet-4-5", anthropic("env"))).toBeNull();
    expect(errorHint("aborted while waiting to retry", "claude-sonnet-4-5", anthropic("env"))).toBeNull();
  });
});
