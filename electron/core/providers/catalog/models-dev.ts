/**
 * The models.dev catalog in its `api.json` shape (provider id → provider with
 * its models by id), read the same way from the bundled snapshot, the cached
 * copy and a fresh download. Only the fields the app uses are validated; a
 * model entry that fails is dropped alone, so one odd entry upstream does not
 * cost the user the whole catalog, while a document that is not a catalog at
 * all is refused (the caller keeps what it had).
 */
import { z } from "zod";

const ReasoningOptionSchema = z.union([
  z.object({ type: z.literal("toggle") }),
  z.object({ type: z.literal("effort"), values: z.array(z.string().nullable()) }),
  z.object({ type: z.literal("budget_tokens"), min: z.number().optional(), max: z.number().optional() }),
]);
export type ReasoningOption = z.infer<typeof ReasoningOptionSchema>;

const CostSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  reasoning: z.number().nonnegative().optional(),
  cache_read: z.number().nonnegative().optional(),
  cache_write: z.number().nonnegative().optional(),
});

export const ModelsDevModelSchema = z.object({
  id: z.string().min(1).max(300),
  name: z.string().min(1).max(300),
  family: z.string().max(100).optional(),
  reasoning: z.boolean(),
  /** Options this catalog does not know yet are dropped, not fatal: the model is still usable. */
  reasoning_options: z
    .array(z.unknown())
    .transform((options) =>
      options.flatMap((o) => {
        const option = ReasoningOptionSchema.safeParse(o);
        return option.success ? [option.data] : [];
      }),
    )
    .optional(),
  tool_call: z.boolean(),
  release_date: z.string().max(40).optional(),
  modalities: z.object({ input: z.array(z.string()), output: z.array(z.string()) }),
  limit: z.object({ context: z.number().nonnegative(), output: z.number().nonnegative().optional() }),
  status: z.string().max(40).optional(),
  cost: CostSchema.optional(),
});
export type ModelsDevModel = z.infer<typeof ModelsDevModelSchema>;

const ProviderSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(300),
  models: z.record(z.string(), z.unknown()),
});

const CatalogSchema = z.record(z.string(), z.unknown());

export interface ModelsDevProvider {
  id: string;
  name: string;
  models: Record<string, ModelsDevModel>;
}

/** Provider id → provider, only the providers asked for. */
export type ModelsDevCatalog = Record<string, ModelsDevProvider>;

export class ModelsDevError extends Error {
  constructor(detail: string) {
    super(`not a models.dev catalog: ${detail}`);
    this.name = "ModelsDevError";
  }
}

/**
 * The providers in `wanted` from an api.json document; throws ModelsDevError
 * when the document is not a catalog or holds none of them with a valid model.
 */
export function parseModelsDev(document: unknown, wanted: readonly string[]): ModelsDevCatalog {
  const root = CatalogSchema.safeParse(document);
  if (!root.success || Array.isArray(document)) throw new ModelsDevError("expected an object of providers");
  const out: ModelsDevCatalog = {};
  let models = 0;
  for (const id of wanted) {
    if (!Object.hasOwn(root.data, id)) continue;
    const provider = ProviderSchema.safeParse(root.data[id]);
    if (!provider.success) continue;
    const kept: Record<string, ModelsDevModel> = {};
    for (const [key, raw] of Object.entries(provider.data.models)) {
      const model = ModelsDevModelSchema.safeParse(raw);
      if (model.success && model.data.id === key) kept[key] = model.data;
    }
    out[id] = { id: provider.data.id, name: provider.data.name, models: kept };
    models += Object.keys(kept).length;
  }
  if (models === 0) throw new ModelsDevError("none of the app's providers has a valid model");
  return out;
}
