/**
 * API keys: from the host's secret store (Electron safeStorage) or, in web
 * mode, from environment variables. Keys live only in memory here; they never
 * reach SQLite, logs, events or API results (only a four-character hint).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ProviderConfig } from "../../../shared/models";
import type { SecretStore } from "./workbench";

export type KeySource = "keychain" | "env" | "none" | "notNeeded" | "awsChain" | "awsMissing";

/**
 * Whether the AWS SDK's standard credential chain has something to read:
 * environment keys, a profile, web identity, a container role, or the shared
 * files. Only presence is checked; the credentials themselves stay with the SDK.
 */
export function awsCredentialsFound(env: Record<string, string | undefined>, home: string = homedir()): boolean {
  const vars = [
    "AWS_ACCESS_KEY_ID",
    "AWS_PROFILE",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  ];
  if (vars.some((v) => Boolean(env[v]))) return true;
  const files = [env.AWS_SHARED_CREDENTIALS_FILE ?? join(home, ".aws", "credentials"), env.AWS_CONFIG_FILE ?? join(home, ".aws", "config")];
  return files.some((f) => existsSync(f));
}

export class KeyRing {
  private readonly stored = new Map<string, string>();

  constructor(
    private readonly env: Record<string, string | undefined>,
    private readonly secrets: SecretStore | undefined,
  ) {}

  /** Loads stored keys once at start (the secret store is async). */
  async load(): Promise<void> {
    if (!this.secrets) return;
    for (const provider of await this.secrets.list()) {
      const key = await this.secrets.get(provider);
      if (key) this.stored.set(provider, key);
    }
  }

  canStore(): boolean {
    return this.secrets !== undefined;
  }

  async set(provider: string, apiKey: string | null): Promise<void> {
    if (!this.secrets) throw new Error("this host has no secret store; set the provider's environment variable instead");
    await this.secrets.set(provider, apiKey);
    if (apiKey) this.stored.set(provider, apiKey);
    else this.stored.delete(provider);
  }

  get(provider: ProviderConfig): string | null {
    const stored = this.stored.get(provider.key);
    if (stored) return stored;
    if (provider.apiKeyEnv) {
      const fromEnv = this.env[provider.apiKeyEnv];
      if (fromEnv) return fromEnv;
    }
    return null;
  }

  source(provider: ProviderConfig): KeySource {
    if (provider.awsCredentials) return awsCredentialsFound(this.env) ? "awsChain" : "awsMissing";
    if (this.stored.has(provider.key)) return "keychain";
    if (provider.apiKeyEnv && this.env[provider.apiKeyEnv]) return "env";
    return needsKey(provider) ? "none" : "notNeeded";
  }

  hint(provider: ProviderConfig): string | null {
    const key = this.get(provider);
    return key && key.length >= 12 ? `…${key.slice(-4)}` : key ? "…" : null;
  }

  /** Whether a call to this provider can be made now: its key is known, it needs none, or the AWS chain has credentials. */
  ready(provider: ProviderConfig): boolean {
    if (provider.awsCredentials) return awsCredentialsFound(this.env);
    return !needsKey(provider) || this.get(provider) !== null;
  }
}

/** Local servers and the demo need no key: they have no apiKeyEnv. */
export function needsKey(provider: ProviderConfig): boolean {
  return provider.apiKeyEnv !== undefined;
}

/** Every key value known, for redaction in logs and errors. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join("[redacted]");
  return out;
}

/**
 * Moves the provider keys out of `env` (process.env at start): the returned
 * copy is what the key ring reads; `env` keeps none of them, so no child
 * process spawned later inherits them. The start-up environment the kernel
 * shows in /proc/<pid>/environ is wiped by host/startup-environ.ts
 * (docs/tool-sandbox.md#keys-out-of-reach-of-tools).
 */
export function takeKeysFromEnv(env: Record<string, string | undefined>, names: readonly string[]): Record<string, string | undefined> {
  const copy = { ...env };
  for (const name of names) delete env[name];
  return copy;
}
