/**
 * pi sessions: `~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`, a header
 * line then entries forming a tree by `id`/`parentId` (the session-format page of
 * the @mariozechner/pi-coding-agent package). Its messages are close to ours (same
 * roles and blocks; thinking signatures in `thinkingSignature`).
 *
 * The branch ending at the file's last entry is the session; every other leaf
 * becomes a child session holding its own root-to-leaf path (a branch made
 * with /tree is a fork of the same conversation). Bash run by the user (`!`),
 * extension messages and branch summaries are shown as user text; labels and
 * extension state are counted in the header.
 */
import { ApiSchema, type AssistantContent, type ModelRef, type SessionEntry, type UserContent } from "../../../shared/protocol";
import { titleOf } from "./claude-code";
import { arr, count, lineWord, num, obj, readJsonl, str, timeOf } from "./jsonl";
import { ForeignImportError, type ForeignSession } from "./types";
import { usageOf } from "./usage";

type Rec = Record<string, unknown>;

export function importPi(path: string, text: string): ForeignSession {
  const { records, skipped } = readJsonl(text);
  const header = records.find((r) => r.value.type === "session")?.value;
  const nodes = records.map((r) => r.value).filter((v) => v.type !== "session" && str(v.id) !== undefined);
  if (header === undefined && nodes.length === 0)
    throw new ForeignImportError("IMPORT_INVALID", `${path}: no pi session lines in this file`);
  const byId = new Map<string, Rec>(nodes.map((n) => [str(n.id) ?? "", n]));
  const hasChild = new Set(nodes.map((n) => str(n.parentId)).filter((p): p is string => p !== undefined));
  const leaves = nodes.filter((n) => !hasChild.has(str(n.id) ?? ""));
  const last = nodes.at(-1);
  const mainLeaf = last !== undefined && leaves.includes(last) ? last : leaves.at(-1);
  const pathTo = (leaf: Rec | undefined): Rec[] => {
    const out: Rec[] = [];
    const seen = new Set<string>();
    for (let at = leaf; at !== undefined; at = byId.get(str(at.parentId) ?? "")) {
      const id = str(at.id) ?? "";
      if (seen.has(id)) break;
      seen.add(id);
      out.push(at);
    }
    return out.reverse();
  };
  const foreignId = str(header?.id) ?? "unknown";
  const cwd = str(header?.cwd) ?? null;
  const build = (chain: Rec[], branch: number | null): ForeignSession => {
    const notHeld: string[] = [];
    if (branch === null && skipped.length > 0) notHeld.push(lineWord(skipped));
    const { entries, title, other } = convert(chain);
    if (other.size > 0) notHeld.push(`pi entries not imported: ${[...other].map(([k, n]) => `${n} ${k}`).join(", ")}`);
    if (branch === null && leaves.length > 1)
      notHeld.push(
        `The session tree has ${leaves.length} branches: the one ending at the last entry is this session, the others are imported beside it`,
      );
    const name = titleOf(title ?? "pi session");
    return {
      agent: "pi",
      foreignId: branch === null ? foreignId : `${foreignId}#${branch}`,
      title: branch === null ? name : `${name} (branch ${branch})`,
      cwd,
      entries,
      notHeld,
      children: [],
    };
  };
  const main = build(pathTo(mainLeaf), null);
  let n = 0;
  for (const leaf of leaves) if (leaf !== mainLeaf) main.children.push(build(pathTo(leaf), ++n));
  return main;
}

function convert(chain: Rec[]): { entries: SessionEntry[]; title: string | undefined; other: Map<string, number> } {
  const entries: SessionEntry[] = [];
  const other = new Map<string, number>();
  const seqOf = new Map<string, number>();
  let title: string | undefined;
  let named: string | undefined;
  let lastModel: ModelRef | null = null;
  for (const rec of chain) {
    const at = timeOf(rec.timestamp) ?? 0;
    const id = str(rec.id) ?? "";
    seqOf.set(id, entries.length + 1);
    if (rec.type === "session_info") {
      named = str(rec.name) ?? named;
      continue;
    }
    if (rec.type === "compaction") {
      entries.push({
        type: "compaction",
        summary: str(rec.summary) ?? "",
        firstKeptSeq: seqOf.get(str(rec.firstKeptEntryId) ?? "") ?? entries.length + 2,
        tokensBefore: count(rec.tokensBefore),
        model: lastModel ?? { provider: "unknown", api: "openai-completions", id: "unknown" },
        timestamp: at,
        step: "summary",
      });
      continue;
    }
    if (rec.type === "branch_summary" || rec.type === "custom_message") {
      const text = rec.type === "branch_summary" ? `[summary of another branch] ${str(rec.summary) ?? ""}` : textOf(rec.content);
      entries.push({ type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp: at } });
      continue;
    }
    if (rec.type !== "message") {
      const kind = str(rec.type) ?? "unknown";
      if (kind !== "model_change" && kind !== "thinking_level_change") other.set(kind, (other.get(kind) ?? 0) + 1);
      continue;
    }
    const m = obj(rec.message) ?? {};
    const role = str(m.role);
    const mAt = num(m.timestamp) ?? at;
    if (role === "user") {
      const content = userContent(m.content);
      if (title === undefined && content[0]?.type === "text") title = content[0].text;
      entries.push({ type: "message", message: { role: "user", content, timestamp: mAt } });
    } else if (role === "assistant") {
      const parsedApi = ApiSchema.safeParse(str(m.api));
      const model: ModelRef = {
        provider: str(m.provider) ?? "unknown",
        api: parsedApi.success ? parsedApi.data : "openai-completions",
        id: str(m.model) ?? "unknown",
      };
      if (lastModel !== null && (lastModel.id !== model.id || lastModel.provider !== model.provider))
        entries.push({ type: "modelSwitch", from: lastModel, to: model, timestamp: mAt });
      lastModel = model;
      const u = obj(m.usage) ?? {};
      const stop = str(m.stopReason);
      const errorMessage = str(m.errorMessage);
      entries.push({
        type: "message",
        message: {
          role: "assistant",
          content: (arr(m.content) ?? []).map((b) => assistantBlock(obj(b))),
          stopReason: stop === "length" || stop === "toolUse" || stop === "error" || stop === "aborted" ? stop : "stop",
          model,
          usage: usageOf(
            model.provider,
            model.id,
            { input: count(u.input), output: count(u.output), cacheRead: count(u.cacheRead), cacheWrite: count(u.cacheWrite) },
            mAt,
          ),
          ...(errorMessage !== undefined ? { errorMessage } : {}),
          timestamp: mAt,
        },
      });
    } else if (role === "toolResult") {
      entries.push({
        type: "message",
        message: {
          role: "toolResult",
          toolCallId: str(m.toolCallId) ?? "",
          toolName: str(m.toolName) ?? "unknown",
          isError: m.isError === true,
          content: userContent(m.content),
          ...(m.details !== undefined ? { details: { pi: m.details } } : {}),
          timestamp: mAt,
        },
      });
    } else if (role === "bashExecution") {
      const text = `[the user ran] $ ${str(m.command) ?? ""}\n${str(m.output) ?? ""}`;
      entries.push({ type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp: mAt } });
    } else {
      const kind = `${role ?? "unknown"} message`;
      other.set(kind, (other.get(kind) ?? 0) + 1);
    }
  }
  return { entries, title: named ?? title, other };
}

function assistantBlock(b: Rec | undefined): AssistantContent {
  if (b?.type === "thinking") {
    const signature = str(b.thinkingSignature);
    return {
      type: "thinking",
      thinking: str(b.thinking) ?? "",
      ...(signature ? { signature } : {}),
      ...(b.redacted === true ? { redacted: true } : {}),
    };
  }
  if (b?.type === "toolCall")
    return { type: "toolCall", id: str(b.id) ?? "", name: str(b.name) ?? "unknown", arguments: obj(b.arguments) ?? {} };
  return { type: "text", text: str(b?.text) ?? "" };
}

function userContent(content: unknown): UserContent[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  const out: UserContent[] = [];
  for (const raw of arr(content) ?? []) {
    const b = obj(raw);
    if (b?.type === "text") out.push({ type: "text", text: str(b.text) ?? "" });
    else if (b?.type === "image" && str(b.data) && str(b.mimeType))
      out.push({ type: "image", data: str(b.data) ?? "", mimeType: str(b.mimeType) ?? "" });
  }
  return out.length > 0 ? out : [{ type: "text", text: "" }];
}

function textOf(content: unknown): string {
  return userContent(content)
    .map((c) => (c.type === "text" ? c.text : "[image]"))
    .join("\n");
}
