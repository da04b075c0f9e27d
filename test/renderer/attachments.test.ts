import { describe, expect, it } from "vitest";
import { addImageFiles, MAX_IMAGES } from "../../renderer/src/lib/attachments";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
/** `new Uint8Array(x)` copies into a plain ArrayBuffer, which is what File takes. */
const file = (name: string, type: string, bytes: Uint8Array | number) =>
  new File([typeof bytes === "number" ? new Uint8Array(bytes) : new Uint8Array(bytes)], name, { type });

describe("image attachments", () => {
  it("reads images as base64 with their type, and refuses other files and oversized ones, saying why", async () => {
    const { images, refused } = await addImageFiles(
      [],
      [
        file("shot.png", "image/png", PNG),
        file("notes.txt", "text/plain", 10),
        file("huge.jpg", "image/jpeg", 5 * 1024 * 1024 + 1),
        file("anim.svg", "image/svg+xml", 10),
      ],
    );
    expect(images).toEqual([{ type: "image", mimeType: "image/png", data: Buffer.from(PNG).toString("base64") }]);
    expect(refused).toEqual([
      "notes.txt: not a PNG, JPEG, GIF or WebP image",
      "huge.jpg: larger than 5 MB",
      "anim.svg: not a PNG, JPEG, GIF or WebP image",
    ]);
  });

  it("keeps what is already attached and stops at the per-message count and total size", async () => {
    const first = await addImageFiles(
      [],
      Array.from({ length: MAX_IMAGES }, (_, i) => file(`${i}.png`, "image/png", PNG)),
    );
    const more = await addImageFiles(first.images, [file("one-too-many.png", "image/png", PNG)]);
    expect(more.images).toHaveLength(MAX_IMAGES);
    expect(more.refused).toEqual([`one-too-many.png: a message carries at most ${MAX_IMAGES} images`]);

    const big = await addImageFiles(
      [],
      Array.from({ length: 5 }, (_, i) => file(`big${i}.webp`, "image/webp", 4.5 * 1024 * 1024)),
    );
    expect(big.images).toHaveLength(4);
    expect(big.refused).toEqual(["big4.webp: the message's images would pass 20 MB together"]);
  });

  it("encodes large images correctly (chunked base64)", async () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 256);
    const { images } = await addImageFiles([], [file("a.gif", "image/gif", bytes)]);
    expect(Buffer.from(images[0].data, "base64").equals(Buffer.from(bytes))).toBe(true);
  });
});
