/**
 * The snapshot generator reads models.dev's TOML as models.dev's build does
 * (base models merged, omitted paths removed, nested model ids kept) and
 * refuses TOML it does not understand instead of skewing the catalog.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSnapshot } from "../../scripts/models-dev-snapshot";
import { parseToml, TomlError } from "../../scripts/toml-subset";
import { parseModelsDev } from "../../electron/core/providers/catalog/models-dev";
import { MODELS_DEV_PROVIDERS } from "../../electron/core/providers/catalog/overrides";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function checkout(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "wb-modelsdev-"));
  dirs.push(root);
  for (const id of MODELS_DEV_PROVIDERS) files[`providers/${id}/provider.toml`] ??= `name = "${id}"\nenv = ["${id.toUpperCase()}_KEY"]\n`;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const MODEL = `name = "Own Model"
family = "gpt"
release_date = "2026-01-01"
last_updated = "2026-01-01"
attachment = true
reasoning = true
reasoning_options = [{ type = "effort", values = ["minimal", "low", "medium", "high"] }]
tool_call = true
open_weights = false

[cost]
input = 1.25
output = 10.00

[[cost.tiers]]
tier = { size = 272_000 }
input = 2.5
output = 20

[limit]
context = 400_000
output = 128_000

[modalities]
input = ["text", "image"]  # a comment
output = ["text"]

[[benchmarks]]
name = "x"
score = 1
`;

describe("the models.dev snapshot generator", () => {
  it("merges a base model under the provider's own fields, drops omitted paths, and keeps nested ids", () => {
    const root = checkout({
      "models/openai/gpt-x.toml": MODEL,
      "providers/openai/models/gpt-x.toml": `base_model = "openai/gpt-x"\nbase_model_omit = ["cost.tiers"]\n\n[limit]\ncontext = 272_000\n`,
      "providers/groq/models/openai/gpt-oss-9.toml": MODEL.replace('family = "gpt"', 'family = "gpt-oss"'),
    });
    const snapshot = buildSnapshot(root) as Record<string, { models: Record<string, Record<string, unknown>> }>;
    const merged = snapshot.openai.models["gpt-x"];
    expect(merged).toMatchObject({ id: "gpt-x", name: "Own Model", family: "gpt", limit: { context: 272_000, output: 128_000 } });
    expect(merged.cost).toEqual({ input: 1.25, output: 10 });
    // Only the fields the app reads are carried.
    expect(merged.benchmarks).toBeUndefined();
    expect(snapshot.groq.models["openai/gpt-oss-9"]).toMatchObject({ id: "openai/gpt-oss-9", family: "gpt-oss" });
    // And the app's parser takes every model the generator wrote.
    const parsed = parseModelsDev(snapshot, MODELS_DEV_PROVIDERS);
    expect(Object.keys(parsed.openai.models)).toEqual(["gpt-x"]);
    expect(parsed.openai.models["gpt-x"].reasoning_options).toEqual([{ type: "effort", values: ["minimal", "low", "medium", "high"] }]);
  });

  it("fails on a base model that is not there", () => {
    const root = checkout({ "providers/openai/models/gpt-y.toml": `base_model = "openai/missing"\n` });
    expect(() => buildSnapshot(root)).toThrow(/base_model openai\/missing not found/);
  });

  it("parses the TOML models.dev writes, and names the line of anything else", () => {
    expect(
      parseToml(`a.b = 1_000\n"quoted key" = 'lit\\eral'\n[t]\nx = [1, 2.5, -3e2]\n[[t.list]]\ny = true\n[[t.list]]\ny = false\n`),
    ).toEqual({
      a: { b: 1000 },
      "quoted key": "lit\\eral",
      t: { x: [1, 2.5, -300], list: [{ y: true }, { y: false }] },
    });
    expect(parseToml(`s = "tab\\tnew\\nline \\u00e9"`)).toEqual({ s: "tab\tnew\nline é" });
    for (const bad of [`d = 2026-01-01`, `s = """multi"""`, `x = 1\nx = 2`, `x = [1, 2`, `x = "open`, `x = 1 y = 2`]) {
      expect(() => parseToml(bad)).toThrow(TomlError);
    }
    expect(() => parseToml(`ok = 1\nbad = 2026-01-01`)).toThrow(/^line 2: /);
  });
});
