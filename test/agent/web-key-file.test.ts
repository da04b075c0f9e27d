/**
 * Web mode's key file: keys saved in Settings when there is no OS keychain,
 * as an alternative to environment variables. Owner-only (0600), never in
 * SQLite; a file other users may read is refused like ssh refuses one.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Workbench } from "../../electron/core/api/workbench";
import { createFileSecretStore, keyFileFor } from "../../electron/core/host/file-secret-store";
import { startCore } from "../../electron/core/host/start-core";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "awb-keys-"));
  dirs.push(d);
  return d;
}

const KEY = "sk-ant-keyfile-0123456789abcdef";

describe("the key file", () => {
  it("saves keys owner-only, reads, lists and removes them", async () => {
    const file = join(tempDir(), "data", "keys.json");
    const store = createFileSecretStore({ filePath: file });
    await Promise.all([store.set("anthropic", KEY), store.set("openai", "sk-openai-1")]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await store.get("anthropic")).toBe(KEY);
    expect((await store.list()).sort()).toEqual(["anthropic", "openai"]);
    await store.set("openai", null);
    expect(await store.list()).toEqual(["anthropic"]);
  });

  it("refuses a file other users may read (and will not overwrite it), and reports a damaged one without key material", async () => {
    const file = join(tempDir(), "keys.json");
    const problems: string[] = [];
    writeFileSync(file, JSON.stringify({ version: 1, keys: { anthropic: KEY } }), { mode: 0o644 });
    chmodSync(file, 0o644);
    const store = createFileSecretStore({ filePath: file, onProblem: (m) => problems.push(m) });
    expect(await store.get("anthropic")).toBeNull();
    expect(problems).toEqual([`the key file ${file} can be read by other users, so its keys are not used: run chmod 600 ${file}`]);
    await expect(store.set("openai", "sk-x")).rejects.toThrow(/chmod 600/);
    expect(readFileSync(file, "utf8")).toContain(KEY);

    writeFileSync(file, "{ not json", { mode: 0o600 });
    chmodSync(file, 0o600);
    expect(await store.list()).toEqual([]);
    expect(problems.at(-1)).toMatch(/is damaged; its keys are ignored until they are set again/);
    expect(problems.join("\n")).not.toContain(KEY);
  });
});

describe("web mode with the key file", () => {
  async function core(dbPath: string) {
    const keyFile = keyFileFor(dbPath);
    return startCore({
      dbPath,
      host: { mode: "web", secrets: createFileSecretStore({ filePath: keyFile }), secretsWhere: keyFile, notices: [] },
      version: "test",
      demo: false,
      env: {},
    });
  }
  const call = async <T>(wb: Workbench, method: Parameters<Workbench["handle"]>[0], params: unknown): Promise<T> => {
    const res = await wb.handle(method, params);
    if (!res.ok) throw new Error(`${method}: ${res.error.code} ${res.error.message}`);
    return res.result as T;
  };

  it(
    "a key saved in Settings is used after a restart, named by the app, and never stored in the database",
    async () => {
      const dir = tempDir();
      mkdirSync(join(dir, "data"));
      const dbPath = join(dir, "data", "workbench.db");
      const first = await core(dbPath);
      expect(await call(first.workbench, "app.info", {})).toMatchObject({ mode: "web", keyStore: keyFileFor(dbPath) });
      const saved = await call<{ keySource: string; keyHint: string }>(first.workbench, "secrets.setApiKey", {
        provider: "anthropic",
        apiKey: KEY,
      });
      expect(saved).toMatchObject({ keySource: "keychain", keyHint: "…cdef" });
      await first.close();

      for (const suffix of ["", "-wal"]) {
        const bytes = (() => {
          try {
            return readFileSync(`${dbPath}${suffix}`);
          } catch {
            return Buffer.alloc(0);
          }
        })();
        expect(bytes.includes(KEY)).toBe(false);
      }
      const second = await core(dbPath);
      try {
        const providers = await call<Array<{ key: string; keySource: string }>>(second.workbench, "providers.list", {});
        expect(providers.find((p) => p.key === "anthropic")?.keySource).toBe("keychain");
      } finally {
        await second.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
