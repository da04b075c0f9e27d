/**
 * The catalog's single lookups (asked once per request by the loop) answer
 * exactly what a search of its full lists answers: extras replace bundled
 * entries, the demo is hidden without its server, base URLs from settings
 * apply, and a model whose provider is not offered is not found.
 */
import { describe, expect, it } from "vitest";
import type { ModelInfo, ProviderConfig } from "../../shared/models";
import { ModelCatalog } from "../../electron/core/api/model-catalog";
import { listModels, listProviders } from "../../electron/core/providers/registry";

const bundledSonnet = listModels().find((m) => m.provider === "anthropic" && m.id === "claude-sonnet-4-5");
if (!bundledSonnet) throw new Error("the registry lost claude-sonnet-4-5");
const cheaperSonnet: ModelInfo = {
  ...bundledSonnet,
  name: "Sonnet (custom price)",
  price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};
const orphan: ModelInfo = { ...bundledSonnet, provider: "nowhere", id: "orphan" };
const local: ProviderConfig = { key: "local-vllm", label: "vLLM", api: "openai-completions", baseUrl: "http://127.0.0.1:8000/v1" };
const localModel: ModelInfo = { ...bundledSonnet, provider: "local-vllm", api: "openai-completions", id: "qwen" };
const anthropicOverride: ProviderConfig = {
  ...(listProviders().find((p) => p.key === "anthropic") as ProviderConfig),
  label: "Anthropic (proxy)",
};

function catalogs(): Array<[string, ModelCatalog]> {
  const extras = { extraProviders: [local, anthropicOverride], extraModels: [cheaperSonnet, orphan, localModel] };
  return [
    ["bundled, no demo", new ModelCatalog({ extraProviders: [], extraModels: [], baseUrls: () => ({}), demo: false })],
    [
      "bundled with the demo and a base URL",
      new ModelCatalog({ extraProviders: [], extraModels: [], baseUrls: () => ({ openai: "http://127.0.0.1:1/v1" }), demo: true }),
    ],
    ["with extras", new ModelCatalog({ ...extras, baseUrls: () => ({ anthropic: "http://127.0.0.1:2" }), demo: false })],
  ];
}

describe("model catalog lookups", () => {
  for (const [name, catalog] of catalogs()) {
    it(`find and provider agree with the full lists (${name})`, () => {
      const models = catalog.models();
      const refs = [...listModels(), cheaperSonnet, orphan, localModel].map((m) => ({ provider: m.provider, api: m.api, id: m.id }));
      for (const ref of refs) {
        expect(catalog.find(ref)).toEqual(models.find((m) => m.provider === ref.provider && m.api === ref.api && m.id === ref.id));
      }
      const providers = catalog.providers();
      for (const key of [...listProviders().map((p) => p.key), local.key, "demo", "nowhere"]) {
        expect(catalog.provider(key)).toEqual(providers.find((p) => p.key === key));
      }
    });
  }

  it("an extra model replaces the bundled one and an orphan model is not offered", () => {
    const catalog = catalogs()[2][1];
    expect(catalog.find(cheaperSonnet)?.name).toBe("Sonnet (custom price)");
    expect(catalog.find(orphan)).toBeUndefined();
    expect(catalog.find(localModel)).toEqual(localModel);
    expect(catalog.provider("anthropic")).toMatchObject({ label: "Anthropic (proxy)", baseUrl: "http://127.0.0.1:2" });
    expect(catalogs()[0][1].provider("demo")).toBeUndefined();
  });

  it("a provider with a base URL is the same object until the URL changes (per-provider caches key on it)", () => {
    let urls: Record<string, string> = { anthropic: "http://127.0.0.1:2" };
    const catalog = new ModelCatalog({ extraProviders: [], extraModels: [], baseUrls: () => urls, demo: false });
    const first = catalog.provider("anthropic");
    expect(catalog.provider("anthropic")).toBe(first);
    urls = { anthropic: "http://127.0.0.1:3" };
    const moved = catalog.provider("anthropic");
    expect(moved).not.toBe(first);
    expect(moved?.baseUrl).toBe("http://127.0.0.1:3");
    expect(first?.baseUrl).toBe("http://127.0.0.1:2");
    urls = {};
    expect(catalog.provider("anthropic")?.baseUrl).toBe(listProviders().find((p) => p.key === "anthropic")?.baseUrl);
  });
});
