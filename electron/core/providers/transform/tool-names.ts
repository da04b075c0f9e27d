/**
 * Tool names valid on every API: `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`
 * (Anthropic `^[a-zA-Z0-9_-]{1,64}$`, OpenAI `^[a-zA-Z0-9_-]+$` ≤ 64, Gemini must start with a letter or `_`).
 */
import { hash62x9 } from "./hash";

export const PORTABLE_TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
const INVALID_NAME_CHARS = /[^a-zA-Z0-9_-]/g;

function portableName(name: string): string {
  if (PORTABLE_TOOL_NAME.test(name)) return name;
  let cleaned = name.replace(INVALID_NAME_CHARS, "_");
  if (cleaned.length === 0) cleaned = "tool";
  if (!/^[a-zA-Z_]/.test(cleaned)) cleaned = `_${cleaned}`;
  if (cleaned.length > 64) cleaned = `${cleaned.slice(0, 54)}_${hash62x9(name)}`;
  return cleaned;
}

/**
 * Per-request tool-name mapping. Offered tools get unique portable names first;
 * names seen only in history map to portable names too (they need not be unique
 * against each other, only valid). `toStored` lets an adapter map a name the
 * model calls back to the app's tool.
 */
export class ToolNames {
  private readonly wireByStored = new Map<string, string>();
  readonly toStored: Record<string, string> = Object.create(null) as Record<string, string>;
  /** Equal for two instances exactly when they map every name alike (the mapping depends only on `offered`). */
  readonly key: string;

  constructor(offered: readonly string[]) {
    this.key = offered.join("\u0000");
    const taken = new Set<string>();
    for (const name of offered) {
      if (this.wireByStored.has(name)) continue;
      let wire = portableName(name);
      for (let attempt = 1; taken.has(wire); attempt++) {
        wire = `${wire.slice(0, 54)}_${hash62x9(`${name}\u0000${attempt}`)}`;
      }
      taken.add(wire);
      this.wireByStored.set(name, wire);
      this.toStored[wire] = name;
    }
  }

  wire(stored: string): string {
    let wire = this.wireByStored.get(stored);
    if (wire === undefined) {
      wire = portableName(stored);
      this.wireByStored.set(stored, wire);
    }
    return wire;
  }
}
