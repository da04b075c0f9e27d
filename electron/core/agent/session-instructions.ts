/**
 * The AGENTS.md section of a session's system prompt: the instruction files
 * for the folders of the files its read/write/edit calls named, loaded again
 * when a new folder is touched and at the start of every turn (the user may
 * have edited them).
 */
import type { AssistantMessage, StoredEntry } from "../../../shared/protocol";
import { NO_INSTRUCTIONS, touchedPaths, type LoadedInstructions } from "./instructions";
import type { AgentDeps } from "./ports";

export class SessionInstructions {
  private readonly touched: Set<string>;
  private loaded: LoadedInstructions = NO_INSTRUCTIONS;
  private loadedFor: string | null = null;

  constructor(
    private readonly load: AgentDeps["instructions"],
    entries: readonly StoredEntry[],
  ) {
    this.touched = new Set(touchedPaths(entries));
  }

  get text(): string {
    return this.loaded.text;
  }

  /** The instruction files in the last system prompt, and those left out (loads them when none were yet). */
  async files(): Promise<Pick<LoadedInstructions, "files" | "skipped" | "skills">> {
    await this.refresh();
    return { files: this.loaded.files, skipped: this.loaded.skipped, skills: this.loaded.skills ?? [] };
  }

  /** A new turn: the files are read again. */
  async reload(): Promise<void> {
    this.loadedFor = null;
    await this.refresh();
  }

  /** The files `message` calls name; a file in a new folder brings that folder's AGENTS.md from the next request. */
  async noteCalls(message: AssistantMessage): Promise<void> {
    const before = this.touched.size;
    for (const path of touchedPaths([{ seq: 0, entry: { type: "message", message } }])) this.touched.add(path);
    if (this.touched.size !== before) await this.refresh();
  }

  private async refresh(): Promise<void> {
    if (!this.load) return;
    const key = [...this.touched].join("\u0000");
    if (key === this.loadedFor) return;
    // The loader treats unreadable files as absent; only a bug throws here, and it must not stop the turn.
    this.loaded = await this.load([...this.touched]).catch(() => NO_INSTRUCTIONS);
    this.loadedFor = key;
  }
}
