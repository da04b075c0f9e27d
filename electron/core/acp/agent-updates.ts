/**
 * Our transcript as ACP `session/update` notifications (docs/acp.md#acp-agent):
 * the same mapping serves a live turn (entries as the store appends them) and
 * `session/load` (the stored entries replayed in order). Pure: no I/O.
 */
import { isAbsolute, join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import type { ModelOption, PendingApproval } from "../../../shared/api";
import type { ModelRef, ReasoningLevel, SessionEntry, UserContent } from "../../../shared/protocol";

/** The longest tool output sent back as text in one update: the client shows it, the model already read it. */
export const MAX_TOOL_OUTPUT_CHARS = 20_000;

export function toolKind(name: string): acp.ToolKind {
  switch (name) {
    case "read":
    case "list":
      return "read";
    case "write":
    case "edit":
      return "edit";
    case "grep":
    case "glob":
      return "search";
    case "bash":
      return "execute";
    default:
      return name.startsWith("web") || name === "fetch" ? "fetch" : "other";
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

export function toolTitle(name: string, args: Record<string, unknown>): string {
  const target = str(args.path) ?? str(args.pattern) ?? str(args.command) ?? str(args.query);
  const short = target && target.length > 120 ? `${target.slice(0, 117)}…` : target;
  return short ? `${name} ${short}` : name;
}

export function toolLocations(args: Record<string, unknown>, root: string): acp.ToolCallLocation[] {
  const path = str(args.path);
  if (!path) return [];
  const line = typeof args.offset === "number" && Number.isSafeInteger(args.offset) && args.offset > 0 ? args.offset : undefined;
  return [{ path: isAbsolute(path) ? path : join(root, path), ...(line ? { line } : {}) }];
}

/** An approval card's preview as ACP tool call content: a diff for file changes, the command as text. */
export function previewContent(preview: PendingApproval["preview"], root: string): acp.ToolCallContent[] {
  if (preview.kind === "diff") {
    const path = isAbsolute(preview.path) ? preview.path : join(root, preview.path);
    return [{ type: "diff", path, oldText: preview.before, newText: preview.after }];
  }
  if (preview.kind === "command") return [{ type: "content", content: { type: "text", text: `$ ${preview.command}` } }];
  return [];
}

function userBlocks(content: readonly UserContent[]): acp.ContentBlock[] {
  return content.map((b) => (b.type === "text" ? { type: "text", text: b.text } : { type: "image", data: b.data, mimeType: b.mimeType }));
}

function clip(text: string): string {
  return text.length > MAX_TOOL_OUTPUT_CHARS ? `${text.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n… (${text.length} characters)` : text;
}

/**
 * One stored entry as the updates a client renders. `streamed`: the assistant text and thinking already went out
 * as chunks while the message streamed, so only its tool calls are announced here.
 */
export function entryUpdates(entry: SessionEntry, root: string, streamed = false): acp.SessionUpdate[] {
  if (entry.type === "message") {
    const m = entry.message;
    if (m.role === "user") {
      return userBlocks(m.content).map((content) => ({ sessionUpdate: "user_message_chunk", content }));
    }
    if (m.role === "assistant") {
      const out: acp.SessionUpdate[] = [];
      for (const block of m.content) {
        if (block.type === "text" && !streamed && block.text !== "") {
          out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: block.text } });
        } else if (block.type === "thinking" && !streamed && block.thinking !== "") {
          out.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
        } else if (block.type === "toolCall") {
          out.push({
            sessionUpdate: "tool_call",
            toolCallId: block.id,
            title: toolTitle(block.name, block.arguments),
            kind: toolKind(block.name),
            status: "pending",
            rawInput: block.arguments,
            locations: toolLocations(block.arguments, root),
          });
        }
      }
      if (m.stopReason === "error" && m.errorMessage && !streamed) {
        out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\n(error: ${m.errorMessage})` } });
      }
      return out;
    }
    const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    return [
      {
        sessionUpdate: "tool_call_update",
        toolCallId: m.toolCallId,
        status: m.isError ? "failed" : "completed",
        content: text === "" ? [] : [{ type: "content", content: { type: "text", text: clip(text) } }],
      },
    ];
  }
  if (entry.type === "planEdit") {
    return [
      {
        sessionUpdate: "plan",
        entries: entry.items.map((i) => ({
          content: i.text,
          priority: "medium",
          status: i.status === "done" ? "completed" : i.status,
        })),
      },
    ];
  }
  return [];
}

// ---------------------------------------------------------------- modes and config options

export const MODES: acp.SessionMode[] = [
  { id: "agent", name: "Agent", description: "Reads, edits and runs commands, asking before each side effect the rules do not allow" },
  { id: "ask", name: "Ask", description: "Answers from what it can read; changes nothing" },
];

export const refOf = (m: { provider: string; id: string }): string => `${m.provider}/${m.id}`;

const REASONING_NAMES: Record<ReasoningLevel, string> = {
  default: "Model default",
  off: "Off",
  low: "Low",
  medium: "Medium",
  high: "High",
};

/** The model switcher and the reasoning level as ACP config options (only configured models are offered). */
export function configOptions(
  models: readonly ModelOption[],
  current: ModelRef | null,
  reasoning: ReasoningLevel,
): acp.SessionConfigOption[] {
  const usable = models.filter((m) => m.configured);
  const options: acp.SessionConfigOption[] = [];
  if (usable.length > 0) {
    const currentRef = current ? refOf(current) : refOf(usable[0]);
    options.push({
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: currentRef,
      options: usable.map((m) => ({ value: refOf(m), name: `${m.name} (${m.providerLabel})` })),
    });
  }
  const model = current ? models.find((m) => m.provider === current.provider && m.id === current.id) : undefined;
  const levels: ReasoningLevel[] = ["default", ...(model?.reasoningLevels ?? []).filter((l) => l !== "default")];
  options.push({
    id: "reasoning",
    name: "Reasoning",
    category: "thought_level",
    type: "select",
    currentValue: levels.includes(reasoning) ? reasoning : "default",
    options: levels.map((l) => ({ value: l, name: REASONING_NAMES[l] })),
  });
  return options;
}
