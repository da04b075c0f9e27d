/**
 * The core as the transports see it: one request handler and one event stream.
 * Both the Electron IPC adapter and the web-mode WebSocket adapter wrap this.
 *
 * Contract: `handle` never throws or rejects. An unknown method or a payload
 * that fails its zod schema answers `{ ok: false, error }` with a typed code.
 */
import type { ApiResponse, EventName, EventPayload } from "../../../shared/api";

export type WorkbenchEventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** Host-specific capabilities the core cannot provide itself (dialogs, keychain). */
export interface HostServices {
  mode: "electron" | "web";
  /** Native folder picker; null when the user cancelled or the host has none. */
  pickFolder?: () => Promise<string | null>;
  /** Secrets store (Electron safeStorage; web mode's owner-only key file). Without one, keys come from environment variables only. */
  secrets?: SecretStore;
  /** Where `secrets` keeps keys, in words for Settings ("the OS keychain", the key file's path). */
  secretsWhere?: string;
  /** One-line notices shown to the user at start (e.g. "keys are only obfuscated"). */
  notices?: string[];
}

export interface SecretStore {
  get(provider: string): Promise<string | null>;
  set(provider: string, apiKey: string | null): Promise<void>;
  /** Providers that have a stored key. */
  list(): Promise<string[]>;
}

export interface Workbench {
  handle(method: string, params: unknown): Promise<ApiResponse<unknown>>;
  onEvent(listener: WorkbenchEventListener): () => void;
  /** Tells the user something about the app as a whole (an `app.notice` now, and in `app.info`'s notices later). */
  notice?(level: "warning" | "error", message: string): void;
  close(): Promise<void>;
}
