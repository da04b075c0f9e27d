/**
 * A fast, deterministic, non-cryptographic string hash (cyrb53) and a base62
 * encoding of it. Used to derive wire ids and tool names; never for security.
 */

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** 53-bit hash of a string (exact in a JS number). */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Exactly 9 base62 characters (62^9 > 2^53, so every hash value fits). */
export function hash62x9(text: string): string {
  let n = hash53(text);
  let out = "";
  for (let i = 0; i < 9; i++) {
    out += BASE62[n % 62];
    n = Math.floor(n / 62);
  }
  return out;
}
