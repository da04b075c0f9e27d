/**
 * Node streams as the SDK's newline-delimited JSON-RPC stream, for both sides:
 * our agent on its own stdin/stdout, and an agent process we host.
 */
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

export function acpStdio(output: NodeJS.WritableStream, input: NodeJS.ReadableStream): acp.Stream {
  const writable = Writable.toWeb(output as Writable) as WritableStream<Uint8Array>;
  const readable = Readable.toWeb(input as Readable) as ReadableStream<Uint8Array>;
  return acp.ndJsonStream(writable, readable);
}
