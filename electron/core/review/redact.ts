/**
 * Secret redaction for exports. Every string in the payload (text, tool
 * arguments, results, details, thinking, error messages, notes, object keys)
 * goes through `redactText`, except the base64 of image blocks; string values
 * under secret-named keys (`apiKey`, `password`, `Authorization` …) are
 * replaced whole. `redactText` removes token shapes (keys of AI providers,
 * GitHub, GitLab, AWS, Slack, npm, Stripe; JWTs; private key blocks),
 * `Bearer`/`Basic` credentials, passwords inside URLs and secret-named
 * assignments.
 *
 * Contract: idempotent (redacting redacted text changes nothing, so export →
 * import → export stays byte-identical) and structure-preserving (only string
 * contents change, so a redacted entry still validates), down to
 * MAX_EXPORT_DEPTH levels.
 */
export const REDACTED = "[REDACTED]";
/**
 * Deeper than this, a value is left out of an export: nothing the app writes
 * comes near it, and it keeps this walk and the export's JSON.stringify clear
 * of the stack's limit, which a stored entry nested a few thousand levels deep
 * (say, a tool server's result) would otherwise hit and fail the export with.
 */
export const MAX_EXPORT_DEPTH = 1000;
export const TOO_DEEP = "[nested too deeply to export]";

/** Provider and service token shapes, matched anywhere in a string. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  // PEM and PGP private keys, including a block cut off before its END line.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
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
  // npm access tokens
  /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
  // GitLab personal, project and group tokens
  /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g,
  // Stripe secret and restricted keys
  /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
];

/**
 * The userinfo of a URL, read right after its `://`: `user:password@` or
 * `user@`, followed by a host. The password may hold `@` (unencoded): the
 * userinfo ends at the last `@` before the host.
 */
const USERINFO = /([^\s:@/?#"'`<>]*)(?::([^\s/?#"'`<>]+))?@(?=[^\s@/?#"'`<>]+(?:[/?#:\s"'`<>]|$))/y;
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;

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
  const walk = (v: unknown, key: string | null, depth: number): unknown => {
    if (typeof v === "string") return key !== null && SECRET_KEY.test(key) && v.length > 0 && v !== REDACTED ? REDACTED : text(v);
    if (v === null || typeof v !== "object") return v;
    if (depth >= MAX_EXPORT_DEPTH) return TOO_DEEP;
    if (Array.isArray(v)) return v.map((x) => walk(x, null, depth + 1));
    const out: Record<string, unknown> = {};
    // An image's base64 is bytes, not text: a run in it that happens to look like a key must stay, or the image breaks.
    const image = isImageBlock(v);
    for (const [k, x] of Object.entries(v)) out[text(k)] = image && k === "data" ? x : walk(x, k, depth + 1);
    return out;
  };
  return { text, value: <T>(v: T) => walk(v, null, 0) as T };
}

export function redactText(input: string, exact: readonly string[] = []): string {
  let s = input;
  for (const secret of exact) if (s.includes(secret)) s = s.split(secret).join(REDACTED);
  for (const re of TOKEN_PATTERNS) s = s.replace(re, REDACTED);
  s = redactUrlCredentials(s);
  s = s.replace(AUTH_SCHEME, (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
  s = s.replace(ASSIGNMENT, (match: string, name: string, kind: string, sep: string, value: string) => {
    if (value === REDACTED || value.startsWith("[REDACTED]")) return match;
    const always = /pass|pwd|secret|credential/i.test(kind);
    if (always ? value.length >= 4 : looksRandom(value)) return `${name}${sep}${REDACTED}`;
    return match;
  });
  return s;
}

/**
 * `scheme://user:password@host`, also inside longer text: the password goes,
 * and the user too when it looks like a token (`https://<token>@host`); the
 * scheme and host stay. Found from each "://" (one indexOf), not by a pattern
 * tried at every position of every string.
 */
function redactUrlCredentials(s: string): string {
  let at = s.indexOf("://");
  if (at < 0) return s;
  let out = "";
  let copied = 0;
  for (; at >= 0; at = s.indexOf("://", at + 3)) {
    if (at === 0 || !SCHEME_CHAR.test(s[at - 1])) continue;
    USERINFO.lastIndex = at + 3;
    const m = USERINFO.exec(s);
    if (m === null) continue;
    const [whole, user, password] = m;
    const hideUser = looksRandom(user);
    if (password === undefined && !hideUser) continue;
    const shown = `${hideUser ? REDACTED : user}${password === undefined ? "" : `:${REDACTED}`}@`;
    out += s.slice(copied, at + 3) + shown;
    copied = at + 3 + whole.length;
    at = copied - 3;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

function isImageBlock(v: object): boolean {
  const block = v as { type?: unknown; data?: unknown; mimeType?: unknown };
  return block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string";
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
