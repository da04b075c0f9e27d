/**
 * What the user sends while a turn runs (docs/sub-agents.md#steering-and-follow-ups):
 * a follow-up waits for the turn to end and starts the next one; a steering
 * message, and an edit of the plan, join the conversation at the next tool
 * boundary (after the current batch's results, before the next request), so a
 * tool call and its result are never separated.
 */
import type { TurnState } from "../../../shared/api";
import type { UserMessage } from "../../../shared/protocol";
import type { TodoItem } from "../../../shared/todo";
import type { SessionJournal } from "./session-journal";

export class TurnQueues {
  private readonly followUps: UserMessage[] = [];
  private readonly steering: UserMessage[] = [];
  private planEdit: TodoItem[] | null = null;

  followUp(message: UserMessage): void {
    this.followUps.push(message);
  }

  steer(message: UserMessage): void {
    this.steering.push(message);
  }

  /** The user's edit of the plan while the turn runs (the latest wins). */
  editPlan(items: TodoItem[]): void {
    this.planEdit = items;
  }

  /** The next follow-up, which starts the next turn. */
  nextFollowUp(): UserMessage | undefined {
    return this.followUps.shift();
  }

  /** A follow-up the store refused: first in line again. */
  putBack(message: UserMessage): void {
    this.followUps.unshift(message);
  }

  /**
   * At a tool boundary: stores the plan edit and the steering messages, in
   * that order, each leaving the queue once stored (a store that refuses one
   * keeps it and the rest queued, and throws); true when a steering message was stored.
   */
  deliver(journal: SessionJournal, now: number): boolean {
    if (this.planEdit !== null) {
      journal.append({ type: "planEdit", items: this.planEdit, timestamp: now });
      this.planEdit = null;
    }
    let steered = false;
    while (this.steering.length > 0) {
      journal.appendMessage(this.steering[0]);
      this.steering.shift();
      steered = true;
    }
    return steered;
  }

  /**
   * The turn ended without another boundary (an error, a stop, the budget):
   * a plan edit is stored at once (every call is answered by now), and
   * steering messages go first in line for the next turn.
   */
  settle(journal: SessionJournal, now: number): void {
    const plan = this.planEdit;
    this.planEdit = null;
    if (plan !== null) journal.append({ type: "planEdit", items: plan, timestamp: now });
    this.followUps.unshift(...this.steering.splice(0));
  }

  /** Stop: nothing queued is delivered (the composer gives the texts back). */
  clear(): void {
    this.followUps.length = 0;
    this.steering.length = 0;
  }

  busy(): boolean {
    return this.followUps.length > 0 || this.steering.length > 0 || this.planEdit !== null;
  }

  state(): Pick<TurnState, "queued" | "steering" | "pendingPlan"> {
    return {
      queued: this.followUps.map(textOf),
      ...(this.steering.length > 0 ? { steering: this.steering.map(textOf) } : {}),
      ...(this.planEdit !== null ? { pendingPlan: this.planEdit } : {}),
    };
  }
}

function textOf(message: UserMessage): string {
  return message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
}
