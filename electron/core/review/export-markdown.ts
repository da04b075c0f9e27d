/**
 * The readable Markdown export: a header with the session statistics, then
 * every entry in order with its time, model, tokens and cost; tool arguments,
 * outputs and diffs in fenced blocks; reviewer notes under their entry.
 * Built from the (already redacted) export envelope.
 */
import type { AssistantMessage, SessionEntry, ToolResultMessage, UserMessage } from "../../../shared/protocol";
import type { ExportedNote, SessionExport, SessionStats, TimelineItem } from "../../../shared/review";
import { formatPlan } from "../../../shared/todo";
import { formatCost, formatCount, formatDuration, formatTime } from "./format";
import { modelLabel, type TimelineOptions } from "./timeline";

/**
 * Entries are headed by the step numbers replay and the HTML export show
 * (an entry that is several steps, an assistant message with tool calls, by
 * its first); a fork says the source's step when the source is known.
 */
export function renderMarkdown(
  envelope: SessionExport,
  stats: SessionStats,
  items: readonly TimelineItem[],
  forkSource?: TimelineOptions["forkSource"],
): string {
  const stepOfSeq = new Map<number, number>();
  for (const it of items) if (!stepOfSeq.has(it.seq)) stepOfSeq.set(it.seq, it.index + 1);
  const forkItems = new Map(items.filter((it) => it.kind === "fork").map((it) => [it.seq, it.summary]));
  const head = (seq: number) => {
    const step = stepOfSeq.get(seq);
    return step === undefined ? "##" : `## Step ${step} ·`;
  };
  const notesBySeq = new Map<number, ExportedNote[]>();
  for (const n of envelope.notes) {
    const list = notesBySeq.get(n.seq) ?? [];
    list.push(n);
    notesBySeq.set(n.seq, list);
  }
  const out: string[] = [`# ${oneLine(envelope.session.title)}`, "", ...header(envelope, stats, forkSource), ""];
  out.push("> Exported from Agent Workbench. Secrets are redacted and thinking signatures dropped.", "");
  for (const { seq, entry } of envelope.entries) {
    out.push("---", "", ...entryBlock(head(seq), entry, forkItems.get(seq)), "");
    for (const n of notesBySeq.get(seq) ?? []) out.push(...noteBlock(n), "");
  }
  if (envelope.problems.length > 0) {
    out.push("---", "", "## Unreadable entries", "");
    for (const p of envelope.problems) out.push(`- #${p.seq} (${p.kind}): ${p.code} — ${oneLine(p.message)}`);
    out.push("");
  }
  // Collapse repeated blank lines between blocks (never inside a block: each block is one element).
  const lines = out.filter((line, i) => !(line === "" && out[i - 1] === ""));
  return `${lines.join("\n").trimEnd()}\n`;
}

function header(envelope: SessionExport, stats: SessionStats, forkSource: TimelineOptions["forkSource"]): string[] {
  const s = envelope.session;
  const lines = [`- Session: \`${s.id}\``];
  if (s.model) lines.push(`- Current model: ${modelLabel(s.model)}`);
  if (stats.startedAt !== null) lines.push(`- Started: ${formatTime(stats.startedAt)} · Duration: ${formatDuration(stats.durationMs)}`);
  if (s.forkedFrom) {
    const source = forkSource?.(s.forkedFrom.sessionId, s.forkedFrom.seq);
    lines.push(
      source
        ? `- Forked from: “${oneLine(source.title)}” (\`${s.forkedFrom.sessionId}\`) at step ${source.step}`
        : `- Forked from: \`${s.forkedFrom.sessionId}\` (its entry #${s.forkedFrom.seq})`,
    );
  }
  const tools = stats.toolCalls.byTool.map((t) => `${t.toolName} ${t.total}`).join(", ");
  lines.push(
    `- Turns: ${stats.turns} · Assistant messages: ${stats.assistantMessages} · Tool calls: ${stats.toolCalls.total}${tools ? ` (${tools})` : ""}`,
  );
  lines.push(`- Approvals: ${stats.approvals.granted} granted, ${stats.approvals.denied} denied`);
  lines.push(
    `- Errors: ${stats.errors.requests} failed requests (${stats.errors.retries} retried), ${stats.errors.tools} failed tool calls, ${stats.errors.aborted} aborted`,
  );
  const t = stats.totals;
  lines.push(
    `- Tokens: ${formatCount(t.totalTokens)} (input ${formatCount(t.input)}, output ${formatCount(t.output)}, cache read ${formatCount(t.cacheRead)}, cache write ${formatCount(t.cacheWrite)}) · Cost: ${formatCost(t.cost)}`,
  );
  for (const m of stats.byModel) {
    lines.push(`  - ${modelLabel(m.model)}: ${m.messages} messages, ${formatCount(m.totalTokens)} tokens, ${formatCost(m.cost)}`);
  }
  return lines;
}

/** `head`: the heading's start ("## Step N ·"). */
function entryBlock(head: string, entry: SessionEntry, forkSummary: string | undefined): string[] {
  switch (entry.type) {
    case "message": {
      const m = entry.message;
      if (m.role === "user") return userBlock(head, m);
      if (m.role === "assistant") return assistantBlock(head, m);
      return resultBlock(head, m);
    }
    case "approval": {
      const reason = entry.reason ? ` — reason: ${oneLine(entry.reason)}` : "";
      return [
        `${head} Approval · ${formatTime(entry.timestamp)}`,
        "",
        `**${entry.decision}** \`${entry.toolName}\` call \`${entry.toolCallId}\` (by ${entry.decidedBy})${reason}`,
      ];
    }
    case "modelSwitch":
      return [
        `${head} Model switch · ${formatTime(entry.timestamp)}`,
        "",
        `${entry.from ? `From ${modelLabel(entry.from)} to` : "To"} **${modelLabel(entry.to)}**`,
      ];
    case "reasoningChange":
      return [`${head} Reasoning level · ${formatTime(entry.timestamp)}`, "", `From ${entry.from} to **${entry.to}**`];
    case "compaction":
      if (entry.step === "prune") {
        return [
          `${head} Compaction · ${formatTime(entry.timestamp)}`,
          "",
          `${formatCount(entry.pruned ?? 0)} older tool outputs were shown to the model as stubs (${formatCount(entry.tokensBefore)} tokens before); the outputs are above in full.`,
        ];
      }
      return [
        `${head} Compaction · ${modelLabel(entry.model)} · ${formatTime(entry.timestamp)}`,
        "",
        `Older messages were summarised (${formatCount(entry.tokensBefore)} tokens before; kept verbatim from #${entry.firstKeptSeq}):`,
        "",
        quote(entry.summary),
      ];
    case "rename":
      return [`${head} Renamed · ${formatTime(entry.timestamp)}`, "", `Title: ${oneLine(entry.title)}`];
    case "fork":
      return [
        `${head} Fork · ${formatTime(entry.timestamp)}`,
        "",
        forkSummary ?? `Forked from \`${entry.sourceSessionId}\` (its entry #${entry.sourceSeq})`,
      ];
    case "planEdit":
      return [`${head} Plan edited by the user · ${formatTime(entry.timestamp)}`, "", closeFences(formatPlan(entry.items))];
  }
}

function userBlock(head: string, m: UserMessage): string[] {
  const out = [`${head} User · ${formatTime(m.timestamp)}`, ""];
  for (const c of m.content) out.push(c.type === "text" ? closeFences(c.text) : `_[image: ${c.mimeType}]_`, "");
  return out;
}

function assistantBlock(head: string, m: AssistantMessage): string[] {
  const kind = m.stopReason === "error" ? "Error" : "Assistant";
  const u = m.usage;
  const out = [
    `${head} ${kind} · ${modelLabel(m.model)} · ${formatTime(m.timestamp)}`,
    "",
    `_${formatCount(u.input)} in · ${formatCount(u.output)} out${u.cacheRead ? ` · ${formatCount(u.cacheRead)} cache read` : ""} · ${u.cost.unknown ? "price unknown" : formatCost(u.cost.total)} · stop: ${m.stopReason}_`,
    "",
  ];
  if (m.errorMessage) out.push(`> **Error:** ${oneLine(m.errorMessage)}`, "");
  for (const b of m.content) {
    if (b.type === "text") out.push(closeFences(b.text), "");
    else if (b.type === "thinking")
      out.push(b.redacted ? "> _Thinking (redacted by the provider)_" : `> _Thinking:_\n${quote(b.thinking)}`, "");
    else {
      out.push(`**Tool call** \`${b.name}\` · \`${b.id}\``, "");
      if (b.argumentsError) out.push(`Invalid arguments: ${oneLine(b.argumentsError)}`, "", fence(b.rawArguments ?? "", "text"), "");
      else out.push(fence(JSON.stringify(b.arguments, null, 2), "json"), "");
    }
  }
  return out;
}

function resultBlock(head: string, m: ToolResultMessage): string[] {
  const out = [
    `${head} Tool result · \`${m.toolName}\` · ${m.isError ? "error" : "ok"} · ${formatTime(m.timestamp)}`,
    "",
    `For call \`${m.toolCallId}\``,
    "",
  ];
  for (const c of m.content) out.push(c.type === "text" ? fence(c.text, "text") : `_[image: ${c.mimeType}]_`, "");
  const diff = unifiedDiffOf(m.details);
  if (diff) out.push(fence(diff, "diff"), "");
  return out;
}

function noteBlock(n: ExportedNote): string[] {
  const verdict = n.verdict ? ` · **${n.verdict}**` : "";
  const where = n.path !== undefined && n.line !== undefined ? ` on \`${oneLine(n.path)}:${n.line}\`` : "";
  return [
    `> 📝 **Review ${where ? "comment" : "note"}**${where} by ${oneLine(n.author)}${verdict} · ${formatTime(n.createdAt)}`,
    ">",
    quote(n.text),
  ];
}

function unifiedDiffOf(details: unknown): string | null {
  if (details === null || typeof details !== "object") return null;
  const diff = (details as { diff?: unknown }).diff;
  if (diff === null || typeof diff !== "object") return null;
  const text = (diff as { unifiedDiff?: unknown }).unifiedDiff;
  return typeof text === "string" && text.length > 0 ? text : null;
}

/**
 * Message text is Markdown and goes in as is, but a code fence it leaves open
 * (an answer cut off mid-block, a stray ```) would turn every later entry into
 * code: close it at the end of the text.
 */
export function closeFences(text: string): string {
  let open: { char: string; length: number } | null = null;
  for (const line of text.split("\n")) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    const run = m[1];
    if (open === null) {
      // A backtick fence's info string may not contain backticks (CommonMark).
      if (run[0] === "`" && m[2].includes("`")) continue;
      open = { char: run[0], length: run.length };
    } else if (run[0] === open.char && run.length >= open.length && m[2].trim() === "") {
      open = null;
    }
  }
  return open === null ? text : `${text.replace(/\n$/, "")}\n${open.char.repeat(open.length)}`;
}

/** A fence longer than any backtick run inside, so content cannot close it. */
export function fence(text: string, lang: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = "`".repeat(Math.max(3, longest + 1));
  return `${ticks}${lang}\n${text.replace(/\n$/, "")}\n${ticks}`;
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((l) => (l ? `> ${l}` : ">"))
    .join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
