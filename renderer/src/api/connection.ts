import type { RequestMethod } from "../../../shared/api";

/** Connection state shared by the transports, shown in the UI when not "open". */
export type ConnectionStatus = "connecting" | "open" | "reconnecting";

export interface ConnectionInfo {
  status: ConnectionStatus;
  /** Incremented on every successful (re)connection, so stores can resync. */
  generation: number;
}

export interface ConnectionAware {
  connection(): ConnectionInfo;
  onConnection(listener: (info: ConnectionInfo) => void): () => void;
}

/**
 * For results too large to validate in one go (a 10,000-entry session): the
 * result as received, which the caller must validate before use.
 */
export interface UnvalidatedCalls {
  callUnvalidated(method: RequestMethod, params: unknown): Promise<unknown>;
}
