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
