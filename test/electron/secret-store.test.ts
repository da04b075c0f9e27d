/**
 * The safeStorage key store with a stand-in cipher: keys survive a restart,
 * never appear in clear on disk, and a damaged file or keychain does not crash.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSafeStorageSecretStore, storageBackendNotice, type SafeStorageLike } from "../../electron/main/secret-store";

/** XOR "cipher" with a marker: enough to prove the store never writes plaintext. */
function fakeSafeStorage(opts: { available?: boolean; async?: boolean } = {}): SafeStorageLike & { asyncCalls: number } {
  const enc = (s: string) => Buffer.concat([Buffer.from("ENC:"), Buffer.from(s, "utf8").map((b) => b ^ 0x5a)]);
  const dec = (b: Buffer) => {
    if (!b.subarray(0, 4).equals(Buffer.from("ENC:"))) throw new Error("bad ciphertext");
    return Buffer.from(b.subarray(4).map((x) => x ^ 0x5a)).toString("utf8");
  };
  const s: SafeStorageLike & { asyncCalls: number } = {
    asyncCalls: 0,
    isEncryptionAvailable: () => opts.available ?? true,
    encryptString: enc,
    decryptString: dec,
  };
  if (opts.async) {
    s.encryptStringAsync = async (p) => {
      s.asyncCalls++;
      return enc(p);
    };
    s.decryptStringAsync = async (b) => {
      s.asyncCalls++;
      return { result: dec(b) };
    };
  }
  return s;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "wb-secrets-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("safeStorage secret store", () => {
  it("keeps a key across restarts without writing it in clear", async () => {
    const filePath = join(dir, "secrets.json");
    const key = "sk-ant-api03-VERYSECRET";
    await createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), filePath }).set("anthropic", key);
    const reopened = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), filePath });
    expect(await reopened.get("anthropic")).toBe(key);
    expect(await reopened.list()).toEqual(["anthropic"]);
    const disk = readFileSync(filePath, "utf8");
    expect(disk).not.toContain("VERYSECRET");
    if (process.platform !== "win32") expect(statSync(filePath).mode & 0o777).toBe(0o600);
  });

  it("uses the async safeStorage API when the Electron version has it", async () => {
    const storage = fakeSafeStorage({ async: true });
    const store = createSafeStorageSecretStore({ safeStorage: storage, filePath: join(dir, "s.json") });
    await store.set("openai", "sk-1");
    expect(await store.get("openai")).toBe("sk-1");
    expect(storage.asyncCalls).toBe(2);
  });

  it("reads keys written with the sync API after an upgrade to the async one", async () => {
    const filePath = join(dir, "s.json");
    await createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), filePath }).set("openai", "sk-old");
    const upgraded = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage({ async: true }), filePath });
    expect(await upgraded.get("openai")).toBe("sk-old");
  });

  it("removes a key when it is set to null or empty", async () => {
    const store = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), filePath: join(dir, "s.json") });
    await store.set("a", "1");
    await store.set("b", "2");
    await store.set("a", null);
    await store.set("b", "");
    expect(await store.list()).toEqual([]);
    expect(await store.get("a")).toBeNull();
  });

  it("keeps both keys when two are set at once", async () => {
    const store = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage({ async: true }), filePath: join(dir, "s.json") });
    await Promise.all([store.set("a", "1"), store.set("b", "2"), store.set("c", "3")]);
    expect(await store.list()).toEqual(["a", "b", "c"]);
  });

  it("refuses to save when no keychain is available, without echoing the key", async () => {
    const store = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage({ available: false }), filePath: join(dir, "s.json") });
    const err = await store.set("openai", "sk-LEAK").then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err instanceof Error ? err.message : "").toMatch(/not available/);
    expect(err instanceof Error ? err.message : "").not.toContain("sk-LEAK");
    expect(await store.list()).toEqual([]);
  });

  it("treats a damaged file as no keys and reports it once", async () => {
    const filePath = join(dir, "s.json");
    writeFileSync(filePath, "{not json");
    const problems: string[] = [];
    const store = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), filePath, onProblem: (m) => problems.push(m) });
    expect(await store.get("openai")).toBeNull();
    expect(await store.list()).toEqual([]);
    expect(problems).toHaveLength(1);
    // Setting a key again repairs the file.
    await store.set("openai", "sk-new");
    expect(await store.get("openai")).toBe("sk-new");
  });

  it("reads a key that no longer decrypts (keychain reset) as absent", async () => {
    const filePath = join(dir, "s.json");
    writeFileSync(filePath, JSON.stringify({ version: 1, keys: { openai: Buffer.from("garbage").toString("base64") } }));
    const problems: string[] = [];
    const store = createSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), filePath, onProblem: (m) => problems.push(m) });
    expect(await store.get("openai")).toBeNull();
    expect(problems[0]).toMatch(/cannot be decrypted/);
  });
});

describe("keyring notice", () => {
  it("tells Linux users without a keyring that keys are only obfuscated", () => {
    expect(storageBackendNotice("linux", "basic_text")).toMatch(/only obfuscated/);
  });

  it("says nothing when a real keyring or another OS protects the keys", () => {
    expect(storageBackendNotice("linux", "gnome_libsecret")).toBeNull();
    expect(storageBackendNotice("linux", "kwallet6")).toBeNull();
    expect(storageBackendNotice("darwin", undefined)).toBeNull();
    expect(storageBackendNotice("win32", undefined)).toBeNull();
  });
});
