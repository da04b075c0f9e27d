/**
 * Codex rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`
 * (or `.jsonl.zst`), one `{ timestamp, type, payload }` a line.
 *
 * Format notes (read from rollouts the CLI wrote, see test/importers/):
 * - `response_item` lines are the Responses API items as sent and received:
 *   messages, reasoning (summary + encrypted_content), function_call /
 *   custom_tool_call / local_shell_call and their outputs. The items between
 *   two usage records are one response, so they make one assistant message.
 * - Usage: `token_usage_record` per response (newer CLIs), else the
 *   `last_token_usage` of each `event_msg` `token_count`. OpenAI counts cached
 *   tokens inside input_tokens; ours keeps them apart.
 * - `turn_context` names the model (and approval policy, sandbox) per turn.
 * - Developer messages and the context Codex injects as user messages
 *   (environment, AGENTS.md, skills) are counted in the header, not imported.
 */
import type { AssistantContent, AssistantMessage, ModelRef, SessionEntry, UserContent } from "../../../shared/protocol";
import { titleOf } from "./claude-code";
import { arr, count, lineWord, obj, readJsonl, str, timeOf } from "./jsonl";
import { ForeignImportError, type ForeignSession } from "./types";
import { usageOf } from "./usage";

type Rec = Record<string, unknown>;

const INJECTED =
  /^\s*(<environment_context>|<user_instructions>|<skills_instructions>|<permissions instructions>|# AGENTS\.md instructions)/;

export function importCodex(path: string, text: string): ForeignSession {
  const { records, skipped } = readJsonl(text);
  const notHeld: string[] = [];
  if (skipped.length > 0) notHeld.push(lineWord(skipped));
  const hasRecords = records.some((r) => r.value.type === "token_usage_record");
  let foreignId: string | undefined;
  let cwd: string | null = null;
  let model: ModelRef = { provider: "openai", api: "openai-responses", id: "unknown" };
  let lastModel: ModelRef | null = null;
  const contexts = new Set<string>();
  const entries: SessionEntry[] = [];
  const callIds = new Map<string, { id: string; name: string }>();
  let pending: AssistantMessage | null = null;
  /** The latest assistant message still waiting for its usage. */
  let unpriced: AssistantMessage | null = null;
  let injected = 0;
  let developer = 0;
  let firstPrompt: string | undefined;
  const otherItems = new Map<string, number>();

  const flush = () => {
    if (pending !== null) entries.push({ type: "message", message: pending });
    pending = null;
  };
  const assistant = (at: number): AssistantMessage => {
    if (pending === null) {
      if (lastModel !== null && lastModel.id !== model.id) entries.push({ type: "modelSwitch", from: lastModel, to: model, timestamp: at });
      lastModel = model;
      pending = {
        role: "assistant",
        content: [],
        stopReason: "stop",
        model,
        usage: usageOf(model.provider, model.id, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, at),
        timestamp: at,
      };
      unpriced = pending;
    }
    return pending;
  };
  const applyUsage = (u: Rec | undefined, at: number, responseId?: string) => {
    const target: AssistantMessage | null = unpriced;
    if (target === null || u === undefined) return;
    const cached = count(u.cached_input_tokens);
    target.usage = usageOf(
      target.model.provider,
      target.model.id,
      {
        input: Math.max(0, count(u.input_tokens) - cached),
        output: count(u.output_tokens),
        cacheRead: cached,
        cacheWrite: count(u.cache_write_input_tokens),
        reasoning: count(u.reasoning_output_tokens),
      },
      target.timestamp || at,
    );
    if (responseId !== undefined) target.responseId = responseId;
    unpriced = null;
    flush();
  };

  for (const { value } of records) {
    const at = timeOf(value.timestamp) ?? 0;
    const p = obj(value.payload) ?? {};
    switch (value.type) {
      case "session_meta":
        foreignId ??= str(p.id) ?? str(p.session_id);
        cwd ??= str(p.cwd) ?? null;
        continue;
      case "turn_context": {
        const id = str(p.model);
        if (id !== undefined) model = { provider: "openai", api: "openai-responses", id };
        const policy = str(p.approval_policy);
        const sandbox = str(obj(p.sandbox_policy)?.type) ?? str(p.sandbox_policy) ?? str(obj(p.permission_profile)?.type);
        contexts.add(`model ${id ?? "?"}, approval policy ${policy ?? "?"}, sandbox ${sandbox ?? "?"}`);
        continue;
      }
      case "token_usage_record":
        applyUsage(obj(p.usage), at, str(p.response_id));
        continue;
      case "event_msg":
        if (!hasRecords && p.type === "token_count") applyUsage(obj(obj(p.info)?.last_token_usage), at);
        continue;
      case "compacted": {
        flush();
        entries.push({
          type: "compaction",
          summary: str(p.message) ?? "",
          firstKeptSeq: entries.length + 2,
          tokensBefore: 0,
          model,
          timestamp: at,
          step: "summary",
        });
        continue;
      }
      case "response_item":
        break;
      default:
        continue;
    }
    switch (p.type) {
      case "message": {
        const role = str(p.role);
        if (role === "assistant") {
          for (const c of arr(p.content) ?? []) {
            const block = obj(c);
            if (block?.type === "output_text") assistant(at).content.push({ type: "text", text: str(block.text) ?? "" });
            else if (block?.type === "refusal") assistant(at).content.push({ type: "text", text: str(block.refusal) ?? "" });
          }
          continue;
        }
        flush();
        if (role === "developer" || role === "system") {
          developer++;
          continue;
        }
        const content = userContent(p.content);
        const first = content[0];
        if (first?.type === "text" && INJECTED.test(first.text)) {
          injected++;
          continue;
        }
        if (content.length === 0) continue;
        if (firstPrompt === undefined && first?.type === "text") firstPrompt = first.text;
        entries.push({ type: "message", message: { role: "user", content, timestamp: at } });
        continue;
      }
      case "reasoning": {
        const summary = (arr(p.summary) ?? []).map((s) => str(obj(s)?.text) ?? "").join("\n\n");
        const encrypted = str(p.encrypted_content);
        const id = str(p.id);
        const block: AssistantContent = {
          type: "thinking",
          thinking: summary,
          // Our Responses adapter keeps the whole item as the signature: the same model can get it back.
          ...(encrypted && id
            ? { signature: JSON.stringify({ type: "reasoning", id, summary: p.summary ?? [], encrypted_content: encrypted }) }
            : {}),
        };
        assistant(at).content.push(block);
        continue;
      }
      case "function_call":
      case "custom_tool_call":
      case "local_shell_call": {
        const callId = str(p.call_id) ?? str(p.id) ?? "";
        const itemId = str(p.id);
        const id = itemId !== undefined && itemId !== callId ? `${callId}|${itemId}` : callId;
        const name = p.type === "local_shell_call" ? "local_shell" : (str(p.name) ?? "unknown");
        const call = toolCall(id, name, p);
        callIds.set(callId, { id, name });
        const msg = assistant(at);
        msg.content.push(call);
        msg.stopReason = "toolUse";
        continue;
      }
      case "function_call_output":
      case "custom_tool_call_output":
      case "local_shell_call_output": {
        flush();
        const callId = str(p.call_id) ?? "";
        const call = callIds.get(callId);
        const { content, isError } = outputOf(p.output);
        entries.push({
          type: "message",
          message: {
            role: "toolResult",
            toolCallId: call?.id ?? callId,
            toolName: call?.name ?? "unknown",
            isError,
            content,
            timestamp: at,
          },
        });
        continue;
      }
      default: {
        const kind = str(p.type) ?? "unknown";
        otherItems.set(kind, (otherItems.get(kind) ?? 0) + 1);
      }
    }
  }
  flush();
  if (foreignId === undefined && entries.length === 0)
    throw new ForeignImportError("IMPORT_INVALID", `${path}: no Codex rollout lines in this file`);
  if (contexts.size > 0) notHeld.push(`Turn context (not replayed by our tools): ${[...contexts].join("; ")}`);
  if (developer + injected > 0)
    notHeld.push(
      `${developer} developer message(s) and ${injected} context message(s) Codex injected (environment, AGENTS.md, skills) were not imported; "what the model saw" shows our rebuild.`,
    );
  if (otherItems.size > 0)
    notHeld.push(`Response items of other kinds were left out: ${[...otherItems].map(([k, n]) => `${n} ${k}`).join(", ")}`);
  return {
    agent: "codex",
    foreignId: foreignId ?? "unknown",
    title: titleOf(firstPrompt ?? "Codex session"),
    cwd,
    entries,
    notHeld,
    children: [],
  };
}

function toolCall(id: string, name: string, p: Rec): AssistantContent {
  if (p.type === "local_shell_call") return { type: "toolCall", id, name, arguments: obj(p.action) ?? {} };
  if (p.type === "custom_tool_call") return { type: "toolCall", id, name, arguments: { input: str(p.input) ?? "" } };
  const raw = str(p.arguments) ?? "";
  try {
    const parsed: unknown = JSON.parse(raw);
    const args = obj(parsed);
    if (args !== undefined) return { type: "toolCall", id, name, arguments: args };
  } catch {
    // Kept as the raw text below, as our adapters keep unreadable arguments.
  }
  return { type: "toolCall", id, name, arguments: {}, rawArguments: raw, argumentsError: "the recorded arguments are not a JSON object" };
}

function userContent(content: unknown): UserContent[] {
  const out: UserContent[] = [];
  for (const c of arr(content) ?? []) {
    const b = obj(c);
    if (b?.type === "input_text" || b?.type === "output_text") out.push({ type: "text", text: str(b.text) ?? "" });
    else if (b?.type === "input_image") {
      const m = /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/s.exec(str(b.image_url) ?? "");
      if (m) out.push({ type: "image", mimeType: m[1] ?? "", data: m[2] ?? "" });
    }
  }
  return out;
}

function outputOf(output: unknown): { content: UserContent[]; isError: boolean } {
  if (typeof output === "string") return { content: [{ type: "text", text: output }], isError: false };
  const o = obj(output);
  if (o !== undefined) {
    const inner = outputOf(o.content ?? o.output ?? "");
    return { content: inner.content, isError: o.success === false };
  }
  const items = userContent(output);
  return { content: items.length > 0 ? items : [{ type: "text", text: "" }], isError: false };
}
