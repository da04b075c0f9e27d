/** What every real-CLI test checks of an imported session. */
import { expect } from "vitest";
import type { AssistantMessage, SessionEntry, ToolCall } from "../../shared/protocol";

export interface ImportedShape {
  user: number;
  assistant: number;
  toolResult: number;
  calls: ToolCall[];
  models: string[];
  input: number;
  output: number;
}

export function shapeOf(entries: readonly SessionEntry[]): ImportedShape {
  const out: ImportedShape = { user: 0, assistant: 0, toolResult: 0, calls: [], models: [], input: 0, output: 0 };
  for (const e of entries) {
    if (e.type !== "message") continue;
    const m = e.message;
    if (m.role === "user") out.user++;
    else if (m.role === "toolResult") out.toolResult++;
    else {
      out.assistant++;
      out.models.push(m.model.id);
      out.input += m.usage.input + m.usage.cacheRead + m.usage.cacheWrite;
      out.output += m.usage.output;
      for (const b of m.content) if (b.type === "toolCall") out.calls.push(b);
    }
  }
  return out;
}

/** Each call has exactly one result, after it, with its id and name. */
export function expectCallsPaired(entries: readonly SessionEntry[]): void {
  const open = new Map<string, string>();
  const answered = new Set<string>();
  for (const e of entries) {
    if (e.type !== "message") continue;
    const m = e.message;
    if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall") open.set(b.id, b.name);
    if (m.role === "toolResult") {
      expect(open.get(m.toolCallId), `result ${m.toolCallId} follows its call`).toBe(m.toolName);
      expect(answered.has(m.toolCallId), `one result for ${m.toolCallId}`).toBe(false);
      answered.add(m.toolCallId);
    }
  }
  expect([...open.keys()].filter((id) => !answered.has(id))).toEqual([]);
}

export function assistants(entries: readonly SessionEntry[]): AssistantMessage[] {
  return entries.flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? [e.message] : []));
}
