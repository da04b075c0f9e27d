/**
 * The catalog the app offers: models.dev facts from the bundled snapshot,
 * genai-prices prices, and our quirk flags keyed by api and family.
 */
import { describe, expect, it } from "vitest";
import { catalogModels, inferenceProfileModel } from "../../electron/core/providers/catalog/build-models";
import { ModelsDevError, parseModelsDev } from "../../electron/core/providers/catalog/models-dev";
import { MODELS_DEV_PROVIDERS } from "../../electron/core/providers/catalog/overrides";
import { bundledCatalog } from "../../electron/core/providers/catalog/snapshot";
import { computeCost, findModel, listModels, listProviders } from "../../electron/core/providers/registry";
import type { ModelInfo } from "../../shared/models";

const model = (ref: string, api?: ModelInfo["api"]): ModelInfo => {
  const m = findModel(ref, api);
  if (!m) throw new Error(`the catalog lacks ${ref}`);
  return m;
};

/** A models.dev model entry as api.json has it. */
function entry(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: id.toUpperCase(),
    reasoning: false,
    tool_call: true,
    release_date: "2026-01-01",
    modalities: { input: ["text"], output: ["text"] },
    limit: { context: 100_000, output: 10_000 },
    ...extra,
  };
}

const catalogOf = (provider: string, models: Record<string, unknown>[]) =>
  parseModelsDev(
    { [provider]: { id: provider, name: provider, models: Object.fromEntries(models.map((m) => [m.id, m])) } },
    MODELS_DEV_PROVIDERS,
  );

describe("the bundled models.dev snapshot", () => {
  it("offers the 2026 models with the limits, input kinds and reasoning models.dev gives", () => {
    const sonnet5 = model("anthropic/claude-sonnet-5");
    expect(sonnet5).toMatchObject({
      contextWindow: 1_000_000,
      maxOutput: 128_000,
      input: ["text", "image"],
      reasoning: true,
      family: "claude-sonnet",
    });
    expect(model("anthropic/claude-opus-4-7")).toMatchObject({ family: "claude-opus", reasoning: true });
    expect(model("openai/gpt-5.4")).toMatchObject({ contextWindow: 1_050_000, maxOutput: 128_000, api: "openai-responses" });
    expect(model("openai/gpt-5.1-codex")).toMatchObject({ family: "gpt-codex", api: "openai-responses" });
    expect(model("google/gemini-3.1-pro-preview")).toMatchObject({ contextWindow: 1_048_576, maxOutput: 65_536 });
    expect(model("google/gemini-3-flash-preview").reasoning).toBe(true);
    expect(model("mistral/magistral-medium-latest")).toMatchObject({ family: "magistral-medium", reasoning: true });
    expect(model("xai/grok-4.3")).toMatchObject({ api: "openai-completions", family: "grok", contextWindow: 1_000_000 });
  });

  it("leaves out what cannot run the agent: models without tool calling or text output", () => {
    const ids = new Set(listModels().map((m) => `${m.provider}/${m.id}`));
    // Embeddings, image generators and speech models are in models.dev, not in the switcher.
    expect(ids.has("openai/text-embedding-3-large")).toBe(false);
    expect(ids.has("openai/gpt-image-1")).toBe(false);
    expect(ids.has("xai/grok-imagine-image")).toBe(false);
    expect(ids.has("groq/whisper-large-v3")).toBe(false);
  });

  it("keeps every model of the app's providers that the parser accepts, from every provider the app names", () => {
    const catalog = bundledCatalog();
    expect(Object.keys(catalog).sort()).toEqual([...MODELS_DEV_PROVIDERS].sort());
    for (const provider of Object.values(catalog)) expect(Object.keys(provider.models).length).toBeGreaterThan(0);
    const providers = new Set(listProviders().map((p) => p.key));
    for (const m of listModels()) expect(providers.has(m.provider)).toBe(true);
  });

  it("drops a malformed model entry alone, and refuses a document that is not a catalog", () => {
    const catalog = catalogOf("openai", [entry("good-model"), { ...entry("bad-model"), limit: { context: "lots" } }, entry("spoofed-id")]);
    expect(Object.keys(catalog.openai.models)).toEqual(["good-model", "spoofed-id"]);
    // An entry filed under another id than its own is not taken at its word.
    const renamed = parseModelsDev(
      { openai: { id: "openai", name: "OpenAI", models: { "gpt-5": entry("something-else"), ok: entry("ok") } } },
      MODELS_DEV_PROVIDERS,
    );
    expect(Object.keys(renamed.openai.models)).toEqual(["ok"]);
    for (const notCatalog of [null, [], "models", { openai: "x" }, { unrelated: { id: "u", name: "U", models: { a: entry("a") } } }]) {
      expect(() => parseModelsDev(notCatalog, MODELS_DEV_PROVIDERS)).toThrow(ModelsDevError);
    }
  });
});

describe("prices from genai-prices", () => {
  it("prices the 2026 models from genai-prices, not from the catalog's own cost", () => {
    // The catalog says 99/99; genai-prices knows Claude Sonnet 5 at $2 / $10 per million.
    const catalog = catalogOf("anthropic", [entry("claude-sonnet-5", { family: "claude-sonnet", cost: { input: 99, output: 99 } })]);
    const [sonnet5] = catalogModels(catalog, listProviders());
    expect(sonnet5.priceSource).toBe("genai-prices");
    expect(sonnet5.price).toEqual({ input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 });

    expect(model("anthropic/claude-opus-4-7").price).toMatchObject({ input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 });
    expect(model("openai/gpt-5.4").price).toMatchObject({ input: 2.5, output: 15, cacheRead: 0.25 });
    expect(model("google/gemini-3.1-pro-preview").price).toMatchObject({ input: 2, output: 12, cacheRead: 0.2 });
    expect(model("google/gemini-3-flash-preview").price).toMatchObject({ input: 0.5, output: 3, cacheRead: 0.05 });
    expect(model("mistral/magistral-medium-latest").price).toMatchObject({ input: 2, output: 5 });
    expect(model("xai/grok-4.3").price).toMatchObject({ input: 1.25, output: 2.5, cacheRead: 0.2 });
    for (const ref of ["anthropic/claude-sonnet-5", "openai/gpt-5.4", "google/gemini-3.1-pro-preview", "xai/grok-4.3"]) {
      expect(model(ref).priceSource).toBe("genai-prices");
    }
  });

  it("costs a long prompt at the long-context tier genai-prices lists", () => {
    const gpt54 = model("openai/gpt-5.4");
    const short = computeCost(gpt54, { input: 100_000, output: 10_000, cacheRead: 0, cacheWrite: 0 });
    expect(short.input).toBeCloseTo(0.25);
    expect(short.output).toBeCloseTo(0.15);
    // Past 272k tokens of prompt the whole request is priced at $5 / $22.50.
    const long = computeCost(gpt54, { input: 300_000, output: 10_000, cacheRead: 0, cacheWrite: 0 });
    expect(long.input).toBeCloseTo(1.5);
    expect(long.output).toBeCloseTo(0.225);
    expect(long.total).toBeCloseTo(1.725);
  });

  it("falls back to the catalog's cost where genai-prices has no entry, and marks a model nobody prices as unknown", () => {
    const catalog = catalogOf("openai", [entry("zz-house-model-1", { cost: { input: 1, output: 4 } }), entry("zz-house-model-2")]);
    const [priced, unpriced] = catalogModels(catalog, listProviders()).filter((m) => m.api === "openai-responses");
    expect(priced).toMatchObject({ priceSource: "models.dev", price: { input: 1, output: 4, cacheRead: 1, cacheWrite: 1 } });
    expect(priced.priceUnknown).toBeUndefined();
    expect(unpriced.priceUnknown).toBe(true);
    expect(computeCost(unpriced, { input: 1_000, output: 1_000, cacheRead: 0, cacheWrite: 0 })).toMatchObject({ total: 0, unknown: true });
    expect(computeCost(priced, { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 })).toEqual({
      input: 1,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      total: 1,
    });
  });
});

describe("quirk overrides keyed by api and family", () => {
  const built = (provider: string, models: Record<string, unknown>[]) => catalogModels(catalogOf(provider, models), listProviders());

  it("gives a Gemini 3 model its thought signatures by family and thinking levels, whatever its id", () => {
    const effort = { reasoning: true, reasoning_options: [{ type: "effort", values: ["low", "high"] }] };
    const [pro, flash, other] = built("google", [
      entry("zz-next-pro", { family: "gemini-pro", release_date: "2026-03-01", ...effort }),
      entry("zz-next-flash", {
        family: "gemini-flash",
        release_date: "2026-02-01",
        reasoning: true,
        reasoning_options: [{ type: "toggle" }, { type: "budget_tokens", min: 0 }],
      }),
      // Named like Gemini 3 Pro, but not in a Gemini family: no Gemini quirk.
      entry("gemini-3-pro-preview", { family: "gemma", release_date: "2026-01-01", ...effort }),
    ]);
    expect(pro.compat).toEqual({ thinkingRequired: true, thoughtSignatures: true, thinkingLevels: ["low", "high"] });
    expect(flash.compat).toBeUndefined();
    expect(other.compat).toBeUndefined();
  });

  it("offers codex models on Responses only, by family, and an id with 'codex' in it in the gpt family on both", () => {
    const models = built("openai", [entry("zz-plain", { family: "gpt-codex" }), entry("zz-codex-lookalike", { family: "gpt" })]);
    const offered = models.map((m) => `${m.id} ${m.api}`);
    expect(offered).toContain("zz-plain openai-responses");
    expect(offered).not.toContain("zz-plain openai-completions");
    expect(offered).toContain("zz-codex-lookalike openai-completions");
  });

  it("derives Anthropic adaptive thinking and GPT-5's 'minimal' off from the catalog's reasoning options", () => {
    expect(model("anthropic/claude-opus-4-7").compat).toEqual({ anthropicThinking: "adaptive" });
    expect(model("anthropic/claude-sonnet-4-5").compat).toBeUndefined();
    expect(model("openai/gpt-5").compat).toEqual({ reasoningOff: "minimal" });
    expect(model("openai/gpt-5", "openai-completions").compat).toEqual({
      systemRole: "developer",
      reasoningEffort: true,
      reasoningOff: "minimal",
    });
    // On OpenRouter the same family gets no OpenAI-server flags.
    expect(model("openrouter/openai/gpt-5").compat).toBeUndefined();
    expect(model("bedrock/global.anthropic.claude-sonnet-5").compat).toEqual({ bedrockReasoning: "anthropic-thinking" });
    expect(model("deepseek/deepseek-reasoner").compat).toEqual({ reasoningContentOnToolCalls: true });
  });
});

describe("the order a new session's default is taken from", () => {
  const firstOf = (provider: string, api?: ModelInfo["api"]) =>
    listModels().find((m) => m.provider === provider && (api === undefined || m.api === api));

  it("puts each provider's newest model of its preferred families first, and deprecated models last", () => {
    expect(firstOf("anthropic")?.id).toBe("claude-sonnet-5");
    // The newest "gpt" model, not a pro or codex one released the same day.
    expect(firstOf("openai", "openai-responses")?.id).toBe("gpt-5.5");
    expect(firstOf("google")?.family).toBe("gemini-pro");
    const anthropic = listModels()
      .filter((m) => m.provider === "anthropic")
      .map((m) => m.id);
    // Claude 3 Haiku is deprecated in the catalog: still resolvable for old sessions, listed last.
    expect(anthropic.indexOf("claude-3-haiku-20240307")).toBeGreaterThan(anthropic.indexOf("claude-haiku-4-5"));
    expect(findModel("anthropic/claude-3-haiku-20240307")).toBeDefined();
  });

  it("a newer model of the preferred family in a fresher catalog comes first", () => {
    const catalog = catalogOf("anthropic", [
      entry("claude-sonnet-5", { family: "claude-sonnet", release_date: "2026-06-30" }),
      entry("zz-newer-haiku", { family: "claude-haiku", release_date: "2027-02-01" }),
      entry("zz-newer-sonnet", { family: "claude-sonnet", release_date: "2027-01-01" }),
    ]);
    expect(catalogModels(catalog, listProviders()).map((m) => m.id)).toEqual(["zz-newer-sonnet", "claude-sonnet-5", "zz-newer-haiku"]);
  });
});

describe("Bedrock inference profiles", () => {
  it("resolves a profile the catalog does not list to its foundation model, under the profile's id", () => {
    const llama = model("bedrock/us.meta.llama3-3-70b-instruct-v1:0");
    expect(llama).toMatchObject({ id: "us.meta.llama3-3-70b-instruct-v1:0", family: "llama", contextWindow: 128_000 });
    expect(inferenceProfileModel(listModels(), "bedrock", "bedrock-converse-stream", "zz.meta.llama3-3-70b-instruct-v1:0")).toBeUndefined();
    expect(inferenceProfileModel(listModels(), "bedrock", "bedrock-converse-stream", "us.nothing-like-this")).toBeUndefined();
  });
});
