/**
 * Web mode's key file: API keys saved from Settings when there is no OS
 * keychain to hold them (web mode and the headless commands run in plain
 * Node), as an alternative to environment variables. One JSON file next to
 * the sessions database, owner-only (0600) like `~/.ssh` keys or gh's hosts
 * file; never SQLite, never logs. The folder is hidden from sandboxed bash
 * with the rest of the app's data (docs/tool-sandbox.md).
 *
 * Contract: methods never reject on a bad file. A file that other users may
 * read, or that cannot be parsed, reads as "no keys" and is reported once
 * through `onProblem` (no key material in the message); writes are atomic
 * (temp file + rename) and serialised.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { SecretStore } from "../api/workbench";

export const KEY_FILE = "keys.json";

/** The key file that goes with a sessions database. */
export function keyFileFor(dbPath: string): string {
  return join(dirname(dbPath), KEY_FILE);
}

const KeyFileSchema = z.object({ version: z.literal(1), keys: z.record(z.string(), z.string()) }).strict();
type KeyFile = z.infer<typeof KeyFileSchema>;

export function createFileSecretStore(options: { filePath: string; onProblem?: (message: string) => void }): SecretStore {
  const { filePath } = options;
  const reported = new Set<string>();
  const problem = (message: string) => {
    if (reported.has(message)) return;
    reported.add(message);
    options.onProblem?.(message);
  };

  const exposedMessage = `the key file ${filePath} can be read by other users, so its keys are not used: run chmod 600 ${filePath}`;
  const exposed = (): boolean => {
    try {
      return process.platform !== "win32" && (statSync(filePath).mode & 0o077) !== 0;
    } catch {
      return false;
    }
  };

  const read = (): KeyFile => {
    let text: string;
    try {
      // Like ssh: a key file others may read is not used (the user fixes the mode; we do not guess).
      if (exposed()) {
        problem(exposedMessage);
        return { version: 1, keys: {} };
      }
      text = readFileSync(filePath, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") problem(`cannot read the key file ${filePath}`);
      return { version: 1, keys: {} };
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Reported below with the schema failure: the same message either way.
    }
    const parsed = KeyFileSchema.safeParse(json);
    if (!parsed.success) {
      problem(`the key file ${filePath} is damaged; its keys are ignored until they are set again in Settings`);
      return { version: 1, keys: {} };
    }
    return parsed.data;
  };

  const write = (file: KeyFile): void => {
    mkdirSync(dirname(filePath), { recursive: true, mode: 0o700 });
    const tmp = `${filePath}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    // The mode given to writeFileSync is masked by the umask: make sure.
    chmodSync(tmp, 0o600);
    renameSync(tmp, filePath);
  };

  let queue: Promise<void> = Promise.resolve();
  return {
    async get(provider) {
      await queue;
      return read().keys[provider] ?? null;
    },
    set(provider, apiKey) {
      const run = (): void => {
        // Rewriting an exposed file would drop the keys we refused to read: the user fixes the mode first.
        if (exposed()) throw new Error(exposedMessage);
        const file = read();
        if (apiKey) file.keys[provider] = apiKey;
        else delete file.keys[provider];
        try {
          write(file);
        } catch (e) {
          throw new Error(`cannot save the key file ${filePath} (${(e as NodeJS.ErrnoException).code ?? "error"})`, { cause: e });
        }
      };
      const next = queue.then(run, run);
      queue = next.catch(() => undefined);
      return next;
    },
    async list() {
      await queue;
      return Object.keys(read().keys);
    },
  };
}
