/**
 * Tool-call id rules per wire target, and the per-request allocator that maps
 * stored ids to wire ids (call and result together, since both read the same
 * allocation). Stored ids are opaque: this module only checks them against the
 * target's rule and, when they fail it, derives a new one by hashing.
 */
import { hash62x9 } from "./hash";

export type IdRule = "anthropic" | "openai40" | "responses" | "mistral9" | "gemini" | "bedrock";

interface RuleSpec {
  max: number;
  valid: RegExp;
}

// Anthropic: "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'" (we also cap at 64).
// OpenAI Chat: "string too long. Expected a string with maximum length 40".
// Responses: call_id over 64 characters is rejected (pi #2328).
// Mistral: "Tool call id was X but must be a-z, A-Z, 0-9, with a length of 9."
// Gemini: ids are optional and matched by name and order; we send paired ids of the same shape as Anthropic's.
// Bedrock: "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+" (toolUseId, 1 to 64 characters).
const RULES: Record<IdRule, RuleSpec> = {
  anthropic: { max: 64, valid: /^[a-zA-Z0-9_-]{1,64}$/ },
  openai40: { max: 40, valid: /^[a-zA-Z0-9_-]{1,40}$/ },
  responses: { max: 64, valid: /^[a-zA-Z0-9_-]{1,64}$/ },
  mistral9: { max: 9, valid: /^[a-zA-Z0-9]{9}$/ },
  gemini: { max: 64, valid: /^[a-zA-Z0-9_-]{1,64}$/ },
  bedrock: { max: 64, valid: /^[a-zA-Z0-9_-]{1,64}$/ },
};

const INVALID_ID_CHARS = /[^a-zA-Z0-9_-]/g;

export function isValidWireId(id: string, rule: IdRule): boolean {
  const spec = RULES[rule];
  return id.length <= spec.max && spec.valid.test(id);
}

/**
 * First-choice rewrites (`cleaned` or the attempt-0 derivation) are pure
 * functions of (rule, stored id), and every request re-sends the same history,
 * so they are memoised across requests; the cache is dropped when it grows past
 * a bound (ids are small; 20k entries is a few MB at most).
 */
const CACHE_LIMIT = 20_000;
const firstChoiceCache: Record<IdRule, Map<string, string>> = {
  anthropic: new Map(),
  openai40: new Map(),
  responses: new Map(),
  mistral9: new Map(),
  gemini: new Map(),
  bedrock: new Map(),
};

/** Empties the memo (the benchmark uses it to time a first request). */
export function clearWireIdCache(): void {
  for (const cache of Object.values(firstChoiceCache)) cache.clear();
}

function firstChoice(stored: string, rule: IdRule): string {
  const cache = firstChoiceCache[rule];
  let wire = cache.get(stored);
  if (wire === undefined) {
    const cleaned = rule === "mistral9" ? "" : stored.replace(INVALID_ID_CHARS, "_");
    wire = cleaned.length > 0 && cleaned.length <= RULES[rule].max ? cleaned : derive(stored, rule, 0);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(stored, wire);
  }
  return wire;
}

/** Derived id for the `attempt`-th try: readable prefix + hash (or pure hash for Mistral). */
function derive(stored: string, rule: IdRule, attempt: number): string {
  const seed = attempt === 0 ? stored : `${stored}\u0000${attempt}`;
  const hash = hash62x9(seed);
  // Mistral: exactly 9 alphanumerics, by hashing, never by cutting (cutting `toolu_01…` keeps 2 random chars).
  if (rule === "mistral9") return hash;
  const prefix = stored.replace(INVALID_ID_CHARS, "_").slice(0, RULES[rule].max - 10);
  return prefix.length > 0 ? `${prefix}_${hash}` : `call_${hash}`;
}

/**
 * Contract: `allocate` returns a wire id valid for the rule and unused in this
 * request; an id already valid and unused passes through unchanged; the result
 * depends only on the stored ids seen so far (deterministic, prefix-stable).
 */
export class IdAllocator {
  /**
   * wire id -> stored id, also the set of wire ids used. A Map, not an object:
   * ids are arbitrary strings (`__proto__` is a plain key), and every object
   * key would be interned in V8's string table, which cost more than the rest
   * of the transform on a long history.
   */
  readonly idMap = new Map<string, string>();

  constructor(readonly rule: IdRule) {}

  /** `preferred`: the id to try first instead of `stored` (the call_id part of a Responses id). */
  allocate(stored: string, preferred?: string): string {
    const used = this.idMap;
    const first = preferred ?? stored;
    let wire: string | undefined;
    if (isValidWireId(first, this.rule) && !used.has(first)) wire = first;
    else {
      const choice = firstChoice(first, this.rule);
      if (!used.has(choice)) wire = choice;
    }
    for (let attempt = 1; wire === undefined; attempt++) {
      const candidate = derive(stored, this.rule, attempt);
      if (!used.has(candidate)) wire = candidate;
    }
    used.set(wire, stored);
    return wire;
  }
}
