/** Reading an HTTP body with a size cap: a server must not make the app buffer without bound. */

export class BodyTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes / 1024 / 1024} MB`);
    this.name = "BodyTooLarge";
  }
}

/** The body as UTF-8 text; throws BodyTooLarge past `maxBytes` (and cancels the rest). */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
