/**
 * Secret redaction for exports. Every string in the payload (text, tool
 * arguments, results, details, thinking, error messages, notes, object keys)
 * goes through `redactText`; string values under secret-named keys
 * (`apiKey`, `password`, `Authorization` …) are replaced whole.
 *
 * Contract: idempotent (redacting redacted text changes nothing, so export →
 * import → export stays byte-identical) and structure-preserving (only string
 * contents change, so a redacted entry still validates).
 */
export const REDACTED = "[REDACTED]";

/** Provider and service token shapes, matched anywhere in a string. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  // PEM private keys, including a block cut off before its END line.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  // Anthropic sk-ant-…, OpenAI sk-…, sk-proj-…
  /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{10,}/g,
  // AWS access key ids
  /(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  // GitHub tokens
  /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g,
  /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g,
  // Slack tokens
  /(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9-]{10,}/g,
  // Google API keys
  /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{30,}/g,
  // JSON Web Tokens
  /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** `Bearer <token>` and `Basic <token>` in headers, curl commands, logs. */
const AUTH_SCHEME = /\b(Bearer|Basic|Token)(\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi;

/**
 * `name=value` / `name: value` / `"name": "value"` where the name says secret.
 * Passwords and secrets are redacted whatever they look like; keys and tokens
 * only when the value looks random (to spare `max_tokens=4096` and the like).
 */
const ASSIGNMENT =
  /([A-Za-z0-9_.-]*?(pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth|credential|key)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)([^\s"'`,;&<>()[\]{}]+)/gi;

/** Object keys whose string values are secrets, whatever they look like. */
const SECRET_KEY =
  /^(?:.*[_-])?(?:api[_-]?key|apikey|secret|client[_-]?secret|password|passwd|passphrase|pwd|token|access[_-]?token|refresh[_-]?token|auth[_-]?token|authorization|private[_-]?key|credentials?)$|(?:ApiKey|Secret|Password|Token)$/i;

export interface Redactor {
  text(value: string): string;
  /** Deep copy with every string redacted. */
  value<T>(value: T): T;
}

/** `known`: exact secrets to remove too (the configured API keys); values shorter than 8 are ignored. */
export function createRedactor(known: readonly string[] = []): Redactor {
  const exact = [...new Set(known.filter((k) => k.length >= 8))].sort((a, b) => b.length - a.length);
  const text = (value: string): string => redactText(value, exact);
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === "string") return key !== null && SECRET_KEY.test(key) && v.length > 0 && v !== REDACTED ? REDACTED : text(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, null));
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[text(k)] = walk(x, k);
      return out;
    }
    return v;
  };
  return { text, value: <T>(v: T) => walk(v, null) as T };
}

export function redactText(input: string, exact: readonly string[] = []): string {
  let s = input;
  for (const secret of exact) if (s.includes(secret)) s = s.split(secret).join(REDACTED);
  for (const re of TOKEN_PATTERNS) s = s.replace(re, REDACTED);
  s = s.replace(AUTH_SCHEME, (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
  s = s.replace(ASSIGNMENT, (match: string, name: string, kind: string, sep: string, value: string) => {
    if (value === REDACTED || value.startsWith("[REDACTED]")) return match;
    const always = /pass|pwd|secret|credential/i.test(kind);
    if (always ? value.length >= 4 : looksRandom(value)) return `${name}${sep}${REDACTED}`;
    return match;
  });
  return s;
}

/** Long, mixed and high in entropy: an opaque token rather than a word or a number. */
export function looksRandom(value: string): boolean {
  if (value.length < 16) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  if (classes < 2) return false;
  return shannonBits(value) >= 3.2;
}

function shannonBits(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
