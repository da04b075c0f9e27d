/**
 * Images of the messages queued behind a running turn, one slot per queued
 * message in queue order. The core delivers queued messages from the front
 * (follow-ups one at a time as new turns, steering messages all at once at a
 * tool boundary), so when a queue shrinks the slots of delivered messages go first: Stop
 * gives back only the images of messages that were never sent.
 */
import type { ImageContent } from "../../../shared/protocol";

export class QueuedImages {
  private slots: ImageContent[][] = [];

  /** A message was queued (with or without images). */
  push(images: readonly ImageContent[]): void {
    this.slots.push([...images]);
  }

  /** The core's queue now holds `queued` messages: drop the slots of those delivered. */
  sync(queued: number): void {
    if (this.slots.length > queued) this.slots = this.slots.slice(this.slots.length - queued);
  }

  /** The images of the messages still queued, emptied (Stop). */
  takeAll(): ImageContent[] {
    const all = this.slots.flat();
    this.slots = [];
    return all;
  }
}
