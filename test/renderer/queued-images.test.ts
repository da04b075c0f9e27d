/** Images of queued messages: Stop gives back only those of messages never sent, however the queue drains. */
import { describe, expect, it } from "vitest";
import type { ImageContent } from "../../shared/protocol";
import { QueuedImages } from "../../renderer/src/lib/queued-images";

const img = (data: string): ImageContent => ({ type: "image", mimeType: "image/png", data });

describe("images of queued messages", () => {
  it("after an errored turn the queue starts one message at a time (2 → 1): the sent one's image does not come back", () => {
    const q = new QueuedImages();
    q.push([img("first")]);
    q.sync(1);
    q.push([img("second")]);
    q.sync(2);
    q.sync(1); // the first queued message became the next turn
    expect(q.takeAll()).toEqual([img("second")]);
  });

  it("a message without images keeps its place, so the images stay with their own message", () => {
    const q = new QueuedImages();
    q.push([]);
    q.push([img("b1"), img("b2")]);
    q.sync(2);
    q.sync(1);
    expect(q.takeAll()).toEqual([img("b1"), img("b2")]);
  });

  it("all delivered between steps: nothing comes back, and nothing is given twice", () => {
    const q = new QueuedImages();
    q.push([img("a")]);
    q.sync(0);
    expect(q.takeAll()).toEqual([]);
    q.push([img("c")]);
    expect(q.takeAll()).toEqual([img("c")]);
    expect(q.takeAll()).toEqual([]);
  });
});
