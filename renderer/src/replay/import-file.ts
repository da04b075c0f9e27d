/**
 * Sends a session export to the core in chunks (`review.import.begin`,
 * `.chunk`, `.finish`): the file is read slice by slice and no request grows
 * with it, so a large file neither passes web mode's frame limit nor has to be
 * held as one string. UTF-8 is decoded across slice boundaries. A failure
 * cancels the import, which leaves nothing behind.
 */
import type { RequestMethod, RequestParams, RequestResult, SessionSummary } from "../../../shared/api";

export interface ImportClient {
  call<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
}

/** `onProgress`: the share of the file sent so far (0..1). */
export async function importFile(
  api: ImportClient,
  file: Blob,
  workspaceId: string,
  onProgress?: (sent: number) => void,
): Promise<SessionSummary> {
  const { importId, chunkChars } = await api.call("review.import.begin", { workspaceId, bytes: file.size });
  try {
    // A slice of n bytes decodes to at most n characters, plus one the decoder held back from the slice before.
    const step = Math.max(1, chunkChars - 4);
    const decoder = new TextDecoder("utf-8");
    let index = 0;
    const send = async (text: string) => {
      if (text.length > 0) await api.call("review.import.chunk", { importId, index: index++, text });
    };
    for (let at = 0; at < file.size; at += step) {
      const bytes = new Uint8Array(await file.slice(at, at + step).arrayBuffer());
      await send(decoder.decode(bytes, { stream: true }));
      onProgress?.(Math.min(1, (at + step) / file.size));
    }
    await send(decoder.decode());
    return await api.call("review.import.finish", { importId });
  } catch (err) {
    // Best effort: the core also drops an import left idle.
    api.call("review.import.cancel", { importId }).catch(() => undefined);
    throw err;
  }
}
