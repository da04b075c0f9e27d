import { describe, expect, it } from "vitest";
import { DEMO_BASE_URL_PLACEHOLDER } from "../../electron/core/providers/registry-data";
import {
  computeCost,
  findModel,
  listModels,
  listProviders,
  ModelRegistry,
  resolveCompat,
  usageWithCost,
} from "../../electron/core/providers/registry";
import { ModelInfoSchema, ProviderConfigSchema } from "../../shared/models";

describe("model registry", () => {
  it("bundles valid entries whose providers all exist", () => {
    const providers = new Set(listProviders().map((p) => p.key));
    for (const p of listProviders()) expect(ProviderConfigSchema.safeParse(p).success).toBe(true);
    for (const m of listModels()) {
      expect(ModelInfoSchema.safeParse(m).success).toBe(true);
      expect(providers.has(m.provider)).toBe(true);
    }
  });

  it("names the key variable for hosted providers and none for local ones, which are free", () => {
    const byKey = new Map(listProviders().map((p) => [p.key, p]));
    expect(byKey.get("anthropic")?.apiKeyEnv).toBe("ANTHROPIC_API_KEY");
    expect(byKey.get("openai")?.apiKeyEnv).toBe("OPENAI_API_KEY");
    expect(byKey.get("mistral")?.apiKeyEnv).toBe("MISTRAL_API_KEY");
    for (const local of ["ollama", "lmstudio"]) {
      expect(byKey.get(local)?.apiKeyEnv).toBeUndefined();
      for (const m of listModels().filter((x) => x.provider === local))
        expect(m.price).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    }
  });

  it("has an offline demo model whose base URL is a placeholder to replace at runtime", () => {
    const demo = listModels().find((m) => m.demo);
    expect(demo?.provider).toBe("demo");
    expect(listProviders().find((p) => p.key === "demo")?.baseUrl).toBe(DEMO_BASE_URL_PLACEHOLDER);
  });

  it("finds models by provider/id (ids may contain slashes), preferring the provider's default api", () => {
    expect(findModel("openai/gpt-5")?.api).toBe("openai-responses");
    expect(findModel("openai/gpt-5", "openai-completions")?.api).toBe("openai-completions");
    expect(findModel("groq/openai/gpt-oss-120b")?.id).toBe("openai/gpt-oss-120b");
    expect(findModel({ provider: "anthropic", api: "anthropic-messages", id: "claude-haiku-4-5" })?.name).toBe("Claude Haiku 4.5 (latest)");
    expect(findModel("nope/x")).toBeUndefined();
    expect(findModel("no-slash")).toBeUndefined();
  });

  it("resolves compat flags with defaults, the model's overriding the provider's", () => {
    const mistral = findModel("mistral/mistral-large-latest");
    const mistralProvider = listProviders().find((p) => p.key === "mistral");
    if (!mistral || !mistralProvider) throw new Error("registry lacks mistral");
    expect(resolveCompat(mistral, mistralProvider)).toMatchObject({
      toolCallIdRule: "mistral9",
      assistantAfterToolResult: true,
      maxTokensField: "max_tokens",
      systemRole: "system",
    });
    const gpt5 = findModel("openai/gpt-5", "openai-completions");
    const openai = listProviders().find((p) => p.key === "openai");
    if (!gpt5 || !openai) throw new Error("registry lacks gpt-5");
    expect(resolveCompat(gpt5, openai)).toMatchObject({
      systemRole: "developer",
      maxTokensField: "max_completion_tokens",
      strictTools: true,
      toolCallIdRule: "openai40",
    });
  });

  it("prices usage per million tokens", () => {
    const sonnet = findModel("anthropic/claude-sonnet-4-5");
    if (!sonnet) throw new Error("registry lacks sonnet");
    // A prompt under the 200k long-context threshold: list prices.
    const counts = { input: 100_000, output: 20_000, cacheRead: 50_000, cacheWrite: 10_000 };
    const cost = computeCost(sonnet, counts);
    expect(cost.input).toBeCloseTo(0.3);
    expect(cost.output).toBeCloseTo(0.3);
    expect(cost.cacheRead).toBeCloseTo(0.015);
    expect(cost.cacheWrite).toBeCloseTo(0.0375);
    expect(cost.total).toBeCloseTo(0.6525);
    expect(usageWithCost(sonnet, counts)).toMatchObject({ totalTokens: 180_000, cost });
  });

  it("accepts user-added models after validation and rejects malformed ones with a reason", () => {
    const registry = new ModelRegistry();
    const custom = {
      id: "qwen2.5-coder:32b",
      name: "Qwen Coder (my Ollama)",
      provider: "ollama",
      api: "openai-completions",
      contextWindow: 32_768,
      maxOutput: 8_192,
      input: ["text"],
      reasoning: false,
      price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    };
    expect(registry.registerCustomModels([custom])).toMatchObject({ ok: true });
    expect(registry.findModel("ollama/qwen2.5-coder:32b")?.name).toBe("Qwen Coder (my Ollama)");
    const bad = registry.registerCustomModels([{ ...custom, contextWindow: -1 }]);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/contextWindow/);
    const orphan = registry.registerCustomModels([{ ...custom, provider: "nowhere" }]);
    expect(orphan).toEqual({ ok: false, error: 'custom model "qwen2.5-coder:32b" names unknown provider "nowhere"' });
    expect(
      registry.registerCustomProviders([{ key: "vllm", label: "vLLM", api: "openai-completions", baseUrl: "http://127.0.0.1:8000/v1" }]),
    ).toMatchObject({ ok: true });
    expect(registry.registerCustomModels([{ ...custom, provider: "vllm" }])).toMatchObject({ ok: true });
    expect(findModel("vllm/qwen2.5-coder:32b")).toBeUndefined(); // the default registry is untouched
  });
});
