/**
 * Ids and signatures the faux provider hands out, shaped like the real ones.
 * Signatures are remembered with the model that issued them, so the strict
 * validator can refuse them from any other model ("Invalid `signature` in
 * `thinking` block").
 */
import { createHash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function base62(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[bytes[i] % 62];
  return out;
}

export function hex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString("hex")
    .slice(0, length);
}

export const newIds = {
  anthropicMessage: () => `msg_01${base62(22)}`,
  anthropicToolUse: () => `toolu_01${base62(22)}`,
  chatCompletion: () => `chatcmpl-${base62(29)}`,
  chatToolCall: () => `call_${base62(24)}`,
  mistralToolCall: () => base62(9),
  response: () => `resp_${hex(48)}`,
  responseMessage: () => `msg_${hex(48)}`,
  responseReasoning: () => `rs_${hex(48)}`,
  responseFunctionCall: () => `fc_${hex(48)}`,
  responseCallId: () => `call_${base62(24)}`,
  request: () => `req_${base62(24)}`,
};

export class SignatureRegistry {
  private readonly owners = new Map<string, string>();

  /** A fresh opaque signature bound to `modelId` (Anthropic thinking, redacted data, encrypted reasoning). */
  issue(modelId: string, content: string, style: "anthropic" | "encrypted" = "anthropic"): string {
    const digest = createHash("sha256").update(modelId).update("\0").update(content).update(randomBytes(16)).digest();
    const body = Buffer.concat([randomBytes(24), digest]).toString("base64");
    const signature = style === "encrypted" ? `gAAAAAB${body}` : `Eq${body}`;
    this.owners.set(signature, modelId);
    return signature;
  }

  /** The model that issued `signature`, or undefined for one this server never issued. */
  ownerOf(signature: string): string | undefined {
    return this.owners.get(signature);
  }
}
