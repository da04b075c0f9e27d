/**
 * API keys encrypted with Electron's safeStorage, kept as base64 blobs in one
 * JSON file under userData (never SQLite, never logs). The cipher is injected
 * so this module runs under plain Node in the tests.
 *
 * Electron 40 has only the synchronous safeStorage API; the asynchronous one
 * (Electron 42+, the sync one is removed in 46) is used whenever present, and
 * its ciphertext format is the same, so a file written by either still reads.
 *
 * Contract: methods never reject on a bad file or a failed decryption. An
 * unreadable entry reads as "no key" and is reported once through `onProblem`;
 * a write that cannot be encrypted or persisted rejects with a message that
 * never contains the key.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import type { SecretStore } from "../core/api/workbench";

/** The parts of Electron's SafeStorage this store uses; the async pair is optional. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  encryptStringAsync?: (plainText: string) => Promise<Buffer>;
  decryptStringAsync?: (encrypted: Buffer) => Promise<string | { result: string }>;
  getSelectedStorageBackend?: () => string;
}

const SecretsFileSchema = z.object({
  version: z.literal(1),
  keys: z.record(z.string(), z.string()),
});
type SecretsFile = z.infer<typeof SecretsFileSchema>;

export interface SafeStorageSecretStoreOptions {
  safeStorage: SafeStorageLike;
  filePath: string;
  /** A problem to show the user or log (no key material in it). */
  onProblem?: (message: string) => void;
}

async function encrypt(s: SafeStorageLike, plain: string): Promise<Buffer> {
  if (typeof s.encryptStringAsync === "function") return s.encryptStringAsync(plain);
  return s.encryptString(plain);
}

async function decrypt(s: SafeStorageLike, blob: Buffer): Promise<string> {
  if (typeof s.decryptStringAsync === "function") {
    const out = await s.decryptStringAsync(blob);
    return typeof out === "string" ? out : out.result;
  }
  return s.decryptString(blob);
}

export function createSafeStorageSecretStore(options: SafeStorageSecretStoreOptions): SecretStore {
  const { safeStorage, filePath } = options;
  const reported = new Set<string>();
  const problem = (message: string) => {
    if (reported.has(message)) return;
    reported.add(message);
    options.onProblem?.(message);
  };

  const read = (): SecretsFile => {
    let text: string;
    try {
      text = readFileSync(filePath, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") problem(`cannot read the key file ${filePath}`);
      return { version: 1, keys: {} };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    const parsed = SecretsFileSchema.safeParse(json);
    if (!parsed.success) {
      problem(`the key file ${filePath} is damaged; stored keys are ignored until they are set again`);
      return { version: 1, keys: {} };
    }
    return parsed.data;
  };

  const write = (file: SecretsFile): void => {
    mkdirSync(dirname(filePath), { recursive: true });
    const tmp = `${filePath}.${process.pid}.tmp`;
    // Owner-only: the blobs are encrypted, but on basic_text they are merely obfuscated.
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, filePath);
  };

  // Writes are serialised so two quick set() calls cannot lose one another's key.
  let queue: Promise<void> = Promise.resolve();

  return {
    async get(provider) {
      await queue;
      const blob = read().keys[provider];
      if (blob === undefined) return null;
      if (!safeStorage.isEncryptionAvailable()) {
        problem("the system keychain is not available; stored API keys cannot be read");
        return null;
      }
      try {
        return await decrypt(safeStorage, Buffer.from(blob, "base64"));
      } catch {
        problem(`the stored key for ${provider} cannot be decrypted (keychain changed?); set it again`);
        return null;
      }
    },
    set(provider, apiKey) {
      const run = async () => {
        const file = read();
        if (apiKey === null || apiKey === "") {
          delete file.keys[provider];
        } else {
          if (!safeStorage.isEncryptionAvailable()) {
            throw new Error("the system keychain is not available; the API key was not saved");
          }
          let blob: Buffer;
          try {
            blob = await encrypt(safeStorage, apiKey);
          } catch {
            throw new Error(`encrypting the API key for ${provider} failed; it was not saved`);
          }
          file.keys[provider] = blob.toString("base64");
        }
        try {
          write(file);
        } catch {
          throw new Error(`cannot write the key file ${filePath}`);
        }
      };
      const next = queue.then(run);
      queue = next.catch(() => undefined);
      return next;
    },
    async list() {
      await queue;
      return Object.keys(read().keys).sort();
    },
  };
}

/**
 * The notice for Linux without a keyring: safeStorage then encrypts with a
 * hard-coded password, which hides keys from a casual look only.
 */
export function storageBackendNotice(platform: NodeJS.Platform, backend: string | undefined): string | null {
  if (platform !== "linux") return null;
  if (backend !== "basic_text") return null;
  return "No system keyring was found (safeStorage backend: basic_text): API keys saved in the app are only obfuscated on disk, not encrypted. Install and unlock a Secret Service keyring (GNOME Keyring, KWallet) or use environment variables.";
}
