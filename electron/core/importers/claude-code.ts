/**
 * Claude Code transcripts: `~/.claude/projects/<encoded cwd>/<session id>.jsonl`,
 * sub-agents in `<session id>/subagents/agent-*.jsonl`.
 *
 * Format notes (read from files the CLI wrote, see test/importers/):
 * - Each content block of one API answer is its own `assistant` line; the
 *   lines share `message.id` and repeat the answer's usage, so they are joined
 *   into one message and the usage is counted once.
 * - Tool results are `user` lines with `tool_result` blocks; the structured
 *   result (`toolUseResult`: the file read, the patch) goes to `details`.
 * - Lines form a tree by `uuid`/`parentUuid` (a rewind or an edited prompt
 *   starts a branch); the branch that ends at the file's last message is
 *   imported. A compaction is a `system` line `compact_boundary` (its parent
 *   link in `logicalParentUuid`) followed by a user line `isCompactSummary`.
 * - Attachments, queue operations, api-request records and the like are the
 *   CLI's bookkeeping: counted in the header, not imported.
 */
import type { AssistantContent, AssistantMessage, ModelRef, SessionEntry, StopReason, UserContent } from "../../../shared/protocol";
import { arr, count, lineWord, obj, readJsonl, str, timeOf } from "./jsonl";
import { FOREIGN_LIMITS, ForeignImportError, type ForeignSession } from "./types";
import { usageOf } from "./usage";
import { boundedDiff, DIFF_MAX_CHARS, fileDiff } from "../tools/diff";

type Rec = Record<string, unknown>;

const STOP: Record<string, StopReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  refusal: "stop",
  tool_use: "toolUse",
  max_tokens: "length",
  model_context_window_exceeded: "length",
};

export interface ClaudeCodeFile {
  path: string;
  text: string;
}

/** One transcript (and its sub-agent transcripts) → neutral session. */
export function importClaudeCode(main: ClaudeCodeFile, subagents: ClaudeCodeFile[] = []): ForeignSession {
  const session = convert(main.text, main.path);
  if (subagents.length > FOREIGN_LIMITS.children)
    throw new ForeignImportError("IMPORT_TOO_LARGE", `${subagents.length} sub-agent transcripts (at most ${FOREIGN_LIMITS.children})`);
  for (const sub of subagents) session.children.push(convert(sub.text, sub.path));
  return session;
}

function convert(text: string, path: string): ForeignSession {
  const { records, skipped } = readJsonl(text);
  const notHeld: string[] = [];
  if (skipped.length > 0) notHeld.push(lineWord(skipped));
  const byUuid = new Map<string, Rec>();
  let leaf: Rec | undefined;
  let foreignId: string | undefined;
  let cwd: string | null = null;
  let summaryTitle: string | undefined;
  const bookkeeping = new Map<string, number>();
  for (const { value } of records) {
    const type = str(value.type) ?? "?";
    foreignId ??= str(value.sessionId);
    cwd ??= str(value.cwd) ?? null;
    if (type === "summary" || type === "ai-title" || type === "custom-title")
      summaryTitle = str(value.summary) ?? str(value.title) ?? summaryTitle;
    const uuid = str(value.uuid);
    if (uuid !== undefined) byUuid.set(uuid, value);
    if (type === "user" || type === "assistant" || (type === "system" && str(value.subtype) === "compact_boundary")) {
      if (uuid !== undefined) leaf = value;
    } else bookkeeping.set(type, (bookkeeping.get(type) ?? 0) + 1);
  }
  if (foreignId === undefined && leaf === undefined)
    throw new ForeignImportError("IMPORT_INVALID", `${path}: no Claude Code messages in this file`);

  // The branch ending at the last message, oldest first.
  const chain: Rec[] = [];
  const seen = new Set<string>();
  for (let at = leaf; at !== undefined;) {
    const uuid = str(at.uuid) ?? "";
    if (seen.has(uuid)) break; // a cycle in a crafted file
    seen.add(uuid);
    chain.push(at);
    const parent = str(at.parentUuid) ?? str(at.logicalParentUuid);
    at = parent === undefined ? undefined : byUuid.get(parent);
  }
  chain.reverse();
  const onChain = chain.filter((r) => r.type === "user" || r.type === "assistant").length;
  const allMessages = records.filter((r) => r.value.type === "user" || r.value.type === "assistant").length;
  if (allMessages > onChain)
    notHeld.push(
      `${allMessages - onChain} message lines on other branches (rewinds, edited prompts, sidechains) were left out; the branch that ends at the last message was imported`,
    );
  if (bookkeeping.size > 0)
    notHeld.push(
      `Claude Code's own records were not imported: ${[...bookkeeping].map(([t, n]) => `${n} ${t}`).join(", ")} (attachments hold the system reminders it sent)`,
    );
  notHeld.push(
    'The system prompt and tool definitions Claude Code sent are not in its transcript; "what the model saw" shows our rebuild.',
  );

  const entries: SessionEntry[] = [];
  const callNames = new Map<string, string>();
  let pending: AssistantMessage | null = null;
  let pendingId: string | undefined;
  let lastModel: ModelRef | null = null;
  let pendingCompaction: { tokensBefore: number; trigger: "threshold" | "manual"; at: number; keptFrom?: string } | null = null;
  /** Line uuid → seq of the first entry it became (a compaction's kept segment starts at one). */
  const seqOfUuid = new Map<string, number>();
  let firstPrompt: string | undefined;
  const flush = () => {
    if (pending !== null) entries.push({ type: "message", message: pending });
    pending = null;
    pendingId = undefined;
  };

  for (const rec of chain) {
    const at = timeOf(rec.timestamp) ?? 0;
    const uuid = str(rec.uuid);
    // The seq this line's first entry gets: joined assistant lines share their message's (not pushed yet).
    const mark = () => uuid !== undefined && seqOfUuid.set(uuid, entries.length + 1);
    const message = obj(rec.message);
    if (rec.type === "system") {
      flush();
      const meta = obj(rec.compactMetadata);
      const keptFrom = str(obj(meta?.preservedSegment)?.headUuid);
      pendingCompaction = {
        tokensBefore: count(meta?.preTokens),
        trigger: str(meta?.trigger) === "manual" ? "manual" : "threshold",
        at,
        ...(keptFrom !== undefined ? { keptFrom } : {}),
      };
      continue;
    }
    if (message === undefined) continue;
    if (rec.type === "assistant") {
      const id = str(message.id);
      const model = modelOf(message, lastModel);
      if (pending === null || id === undefined || id !== pendingId) {
        flush();
        pending = newAssistant(message, model, at);
        pendingId = id;
        if (lastModel !== null && lastModel.id !== model.id)
          entries.push({ type: "modelSwitch", from: lastModel, to: model, timestamp: at });
        lastModel = model;
      }
      mark();
      const target: AssistantMessage = pending;
      for (const block of arr(message.content) ?? []) {
        const b = assistantBlock(obj(block), notHeld);
        if (b === null) continue;
        if (b.type === "toolCall") callNames.set(b.id, b.name);
        target.content.push(b);
      }
      const stop = str(message.stop_reason);
      if (stop !== undefined) {
        target.stopReason = STOP[stop] ?? "stop";
        if (stop === "refusal") target.stopDetails = { type: "refusal" };
      }
      if (rec.isApiErrorMessage === true || model.id === "<synthetic>") {
        target.stopReason = "error";
        target.errorMessage = textOf(message.content) || "Claude Code recorded an API error";
      }
      continue;
    }
    // user
    flush();
    mark();
    const content = message.content;
    if (rec.isCompactSummary === true && pendingCompaction !== null) {
      entries.push({
        type: "compaction",
        summary: typeof content === "string" ? content : textOf(content),
        // Claude Code keeps a recent segment verbatim after the summary (its head line); else the view restarts after it.
        firstKeptSeq:
          (pendingCompaction.keptFrom !== undefined ? seqOfUuid.get(pendingCompaction.keptFrom) : undefined) ?? entries.length + 2,
        tokensBefore: pendingCompaction.tokensBefore,
        model: lastModel ?? { provider: "anthropic", api: "anthropic-messages", id: "unknown" },
        timestamp: pendingCompaction.at,
        step: "summary",
        trigger: pendingCompaction.trigger,
      });
      pendingCompaction = null;
      continue;
    }
    if (typeof content === "string") {
      firstPrompt ??= content;
      entries.push({ type: "message", message: { role: "user", content: [{ type: "text", text: content }], timestamp: at } });
      continue;
    }
    const userBlocks: UserContent[] = [];
    for (const raw of arr(content) ?? []) {
      const block = obj(raw);
      if (block?.type === "tool_result") {
        const callId = str(block.tool_use_id) ?? "";
        entries.push({
          type: "message",
          message: {
            role: "toolResult",
            toolCallId: callId,
            toolName: callNames.get(callId) ?? "unknown",
            isError: block.is_error === true,
            content: resultContent(block.content),
            ...(rec.toolUseResult !== undefined
              ? { details: { ...fileChange(callNames.get(callId), obj(rec.toolUseResult), cwd), claudeCode: rec.toolUseResult } }
              : {}),
            timestamp: at,
          },
        });
      } else {
        const u = userBlock(block);
        if (u !== null) userBlocks.push(u);
      }
    }
    if (userBlocks.length > 0) {
      if (firstPrompt === undefined && userBlocks[0]?.type === "text") firstPrompt = userBlocks[0].text;
      entries.push({ type: "message", message: { role: "user", content: userBlocks, timestamp: at } });
    }
  }
  flush();
  return {
    agent: "claude-code",
    foreignId: foreignId ?? "unknown",
    title: titleOf(summaryTitle ?? firstPrompt ?? "Claude Code session"),
    cwd,
    entries,
    notHeld,
    children: [],
  };
}

/**
 * An Edit or Write result as our write/edit details (path, before, after, diff), so replay shows
 * the files at each step and their diffs (review/file-history.ts); from what Claude Code recorded.
 */
function fileChange(tool: string | undefined, r: Rec | undefined, cwd: string | null): Rec {
  if (r === undefined || (tool !== "Edit" && tool !== "Write")) return {};
  const file = str(r.filePath);
  if (file === undefined) return {};
  const original = typeof r.originalFile === "string" ? r.originalFile : null;
  let after: string | undefined;
  if (tool === "Write") after = str(r.content);
  else if (original !== null) {
    const from = str(r.oldString) ?? "";
    const to = str(r.newString) ?? "";
    const at = original.indexOf(from);
    if (from !== "" && at >= 0)
      after = r.replaceAll === true ? original.split(from).join(to) : original.slice(0, at) + to + original.slice(at + from.length);
  }
  if (after === undefined) return {};
  const created = tool === "Write" ? str(r.type) === "create" : false;
  if (!created && original === null) return {};
  const path = cwd !== null && file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
  const diff = boundedDiff(fileDiff(path, created ? null : original, after));
  const small = (original?.length ?? 0) + after.length <= DIFF_MAX_CHARS;
  return { path, created, diff, ...(small ? { before: created ? null : original, after } : { contentOmitted: true }) };
}

function modelOf(message: Rec, last: ModelRef | null): ModelRef {
  const id = str(message.model) ?? last?.id ?? "unknown";
  return { provider: "anthropic", api: "anthropic-messages", id };
}

function newAssistant(message: Rec, model: ModelRef, at: number): AssistantMessage {
  const u = obj(message.usage);
  const usage = usageOf(
    model.provider,
    model.id,
    {
      input: count(u?.input_tokens),
      output: count(u?.output_tokens),
      cacheRead: count(u?.cache_read_input_tokens),
      cacheWrite: count(u?.cache_creation_input_tokens),
    },
    at,
  );
  const id = str(message.id);
  return {
    role: "assistant",
    content: [],
    stopReason: "stop",
    model,
    usage,
    ...(id !== undefined ? { responseId: id } : {}),
    timestamp: at,
  };
}

function assistantBlock(b: Rec | undefined, notHeld: string[]): AssistantContent | null {
  switch (b?.type) {
    case "text":
      return { type: "text", text: str(b.text) ?? "" };
    case "thinking": {
      const signature = str(b.signature);
      return { type: "thinking", thinking: str(b.thinking) ?? "", ...(signature ? { signature } : {}) };
    }
    case "redacted_thinking":
      return { type: "thinking", thinking: "", redacted: true, ...(str(b.data) ? { signature: str(b.data) } : {}) };
    case "tool_use": {
      const input = obj(b.input);
      return {
        type: "toolCall",
        id: str(b.id) ?? "",
        name: str(b.name) ?? "unknown",
        arguments: input ?? {},
        ...(input === undefined
          ? { rawArguments: JSON.stringify(b.input ?? null), argumentsError: "the recorded input is not an object" }
          : {}),
      };
    }
    default: {
      const kind = str(b?.type) ?? "unknown";
      const note = `Content blocks of kind ${kind} (server tools and the like) are shown as text`;
      if (!notHeld.includes(note)) notHeld.push(note);
      return { type: "text", text: `[${kind}] ${JSON.stringify(b ?? null).slice(0, 4000)}` };
    }
  }
}

function userBlock(b: Rec | undefined): UserContent | null {
  if (b?.type === "text") return { type: "text", text: str(b.text) ?? "" };
  if (b?.type === "image") {
    const source = obj(b.source);
    const data = str(source?.data);
    const mimeType = str(source?.media_type);
    if (data !== undefined && mimeType !== undefined) return { type: "image", data, mimeType };
  }
  return null;
}

function resultContent(content: unknown): UserContent[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  const out: UserContent[] = [];
  for (const raw of arr(content) ?? []) {
    const u = userBlock(obj(raw));
    if (u !== null) out.push(u);
  }
  return out.length > 0 ? out : [{ type: "text", text: "" }];
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return (arr(content) ?? [])
    .map((b) => str(obj(b)?.text))
    .filter((t): t is string => t !== undefined)
    .join("\n");
}

export function titleOf(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || "Imported session";
}
