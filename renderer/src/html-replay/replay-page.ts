/**
 * The script of the offline HTML replay (electron/core/review/export-html.ts).
 * It reads the embedded JSON data block and renders with textContent only, so
 * nothing from the session is ever parsed as HTML. No imports at run time:
 * scripts/build-html-replay.ts bundles it into one self-contained script,
 * which the export inlines and allows by its hash.
 */
import type { ImageContent, ModelRef, StoredEntry } from "../../../shared/protocol";
import type { ReplayData } from "../../../shared/review";
import { timeAttribute, UNKNOWN_TIME } from "../lib/format";
import { formatPlan } from "../../../shared/todo-format";
import { KIND_LABEL } from "../replay/replay-format";
import { filterChoices, filterItems } from "../replay/replay-filter";

const data = JSON.parse(byId("session-data").textContent ?? "null") as ReplayData;
const { envelope: env, items, stats } = data;
const names = data.modelNames ?? {};
/** The replay view's labels, not the raw kind names. */
const kind = (k: string) => (KIND_LABEL as Record<string, string>)[k] ?? k;

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the replay page has no #${id}`);
  return node as T;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string | null, text?: string | number | null): HTMLElementTagNameMap[K] {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
}
// A stored time out of the Date range (an edited export) reads as unknown instead of stopping the page.
const time = (ms: number) =>
  timeAttribute(ms)
    ?.replace("T", " ")
    .replace(/\.\d+Z$/, " UTC") ?? UNKNOWN_TIME;
const model = (m: ModelRef | null | undefined) => (m ? (names[`${m.provider}/${m.api}/${m.id}`] ?? `${m.provider}/${m.id}`) : "");
const cost = (c: number) => `$${Number(c).toFixed(4)}`;
const count = (n: number) => Number(n).toLocaleString("en-US");

// ------------------------------------------------------------ header
byId("title").textContent = env.session.title;
const facts = [
  `Turns: ${stats.turns}`,
  `Assistant messages: ${stats.assistantMessages}`,
  `Tool calls: ${stats.toolCalls.total}`,
  `Approvals: ${stats.approvals.granted} approved, ${stats.approvals.denied} denied`,
  `Errors: ${stats.errors.requests} requests, ${stats.errors.tools} tools, ${stats.errors.retries} retried`,
  `Tokens: ${count(stats.totals.totalTokens)}`,
  `Cost: ${cost(stats.totals.cost)}`,
];
if (stats.startedAt !== null) facts.unshift(`Started: ${time(stats.startedAt)}`);
const factList = byId("facts");
for (const f of facts) factList.appendChild(el("li", null, f));
for (const m of stats.byModel) {
  factList.appendChild(
    el("li", "model-line", `${model(m.model)}: ${m.messages} messages, ${count(m.totalTokens)} tokens, ${cost(m.cost)}`),
  );
}

// ------------------------------------------------------------ transcript
const notesBySeq = new Map<number, (typeof env.notes)[number][]>();
for (const n of env.notes) notesBySeq.set(n.seq, [...(notesBySeq.get(n.seq) ?? []), n]);

const textBlock = (text: string) => el("div", "text", text);

function image(c: ImageContent): HTMLElement {
  if (!/^image\/[a-z0-9.+-]+$/i.test(c.mimeType)) return el("div", "meta", "[image]");
  const img = el("img", "image");
  img.alt = "image";
  img.src = `data:${c.mimeType};base64,${c.data}`;
  return img;
}

function diffBlock(text: string): HTMLElement {
  const pre = el("pre", "diff");
  for (const line of text.split("\n")) {
    const cls =
      line.startsWith("+") && !line.startsWith("+++")
        ? "add"
        : line.startsWith("-") && !line.startsWith("---")
          ? "del"
          : line.startsWith("@@")
            ? "hunk"
            : null;
    pre.appendChild(el("span", cls, `${line}\n`));
  }
  return pre;
}

// Steps are numbered as in the app's replay: by timeline item, not by stored entry.
const stepOfSeq = new Map<number, number>();
for (const it of items) if (!stepOfSeq.has(it.seq)) stepOfSeq.set(it.seq, it.index + 1);

function heading(card: HTMLElement, label: string, extra?: string): void {
  const h = el("div", "head");
  const step = stepOfSeq.get(Number(card.dataset.seq));
  if (step !== undefined) h.appendChild(el("span", "seq", `Step ${step}`));
  h.appendChild(el("span", "kind", label));
  if (extra) h.appendChild(el("span", "meta", extra));
  card.appendChild(h);
}

function unifiedDiffOf(details: unknown): string {
  if (typeof details !== "object" || details === null) return "";
  const diff = (details as { diff?: { unifiedDiff?: unknown } }).diff;
  return typeof diff?.unifiedDiff === "string" ? diff.unifiedDiff : "";
}

/** The core left the diff out as too large to keep (tools/diff.ts). */
function diffTooLarge(details: unknown): boolean {
  if (typeof details !== "object" || details === null) return false;
  const diff = (details as { diff?: { tooLarge?: unknown } }).diff;
  return typeof diff?.tooLarge === "object" && diff.tooLarge !== null;
}

function renderMessage(card: HTMLElement, m: Extract<StoredEntry["entry"], { type: "message" }>["message"]): void {
  card.classList.add(m.role);
  if (m.role === "user") {
    heading(card, "User", time(m.timestamp));
    for (const c of m.content) card.appendChild(c.type === "text" ? textBlock(c.text) : image(c));
    return;
  }
  if (m.role === "assistant") {
    if (m.stopReason === "error") card.classList.add("error");
    heading(card, m.stopReason === "error" ? "Error" : "Assistant", `${model(m.model)} · ${time(m.timestamp)}`);
    const usage = `${count(m.usage.input)} in · ${count(m.usage.output)} out · ${cost(m.usage.cost.total)} · stop: ${m.stopReason}`;
    card.appendChild(el("div", "meta", usage));
    if (m.errorMessage) card.appendChild(el("div", "error-text", m.errorMessage));
    for (const b of m.content) {
      if (b.type === "text") card.appendChild(textBlock(b.text));
      else if (b.type === "thinking") {
        const d = el("details", "thinking");
        d.appendChild(el("summary", null, b.redacted ? "Thinking (redacted by the provider)" : "Thinking"));
        d.appendChild(textBlock(b.thinking));
        card.appendChild(d);
      } else {
        const call = el("div", "call");
        call.appendChild(el("div", "call-head", `Tool call ${b.name} · ${b.id}`));
        call.appendChild(el("pre", null, b.argumentsError ? (b.rawArguments ?? "") : JSON.stringify(b.arguments, null, 2)));
        if (b.argumentsError) call.appendChild(el("div", "error-text", `Invalid arguments: ${b.argumentsError}`));
        card.appendChild(call);
      }
    }
    return;
  }
  if (m.isError) card.classList.add("error");
  heading(card, `Tool result · ${m.toolName}${m.isError ? " · error" : " · ok"}`, time(m.timestamp));
  card.appendChild(el("div", "meta", `for call ${m.toolCallId}`));
  for (const c of m.content) card.appendChild(c.type === "text" ? el("pre", "output", c.text) : image(c));
  const diff = unifiedDiffOf(m.details);
  if (diff) card.appendChild(diffBlock(diff));
  else if (diffTooLarge(m.details)) card.appendChild(el("div", "meta", "This change is too large to show."));
}

function renderEntry(stored: StoredEntry): HTMLElement {
  const e = stored.entry;
  const card = el("article", "entry");
  card.dataset.seq = String(stored.seq);
  if (e.type === "message") renderMessage(card, e.message);
  else {
    card.classList.add(e.type);
    if (e.type === "approval") {
      heading(card, "Approval", time(e.timestamp));
      card.appendChild(textBlock(`${e.decision} ${e.toolName} (${e.toolCallId}) by ${e.decidedBy}${e.reason ? `: ${e.reason}` : ""}`));
    } else if (e.type === "modelSwitch") {
      heading(card, "Model switch", time(e.timestamp));
      card.appendChild(textBlock(`${e.from ? `From ${model(e.from)} to ` : "To "}${model(e.to)}`));
    } else if (e.type === "reasoningChange") {
      heading(card, "Reasoning level", time(e.timestamp));
      card.appendChild(textBlock(`From ${e.from} to ${e.to}`));
    } else if (e.type === "compaction") {
      heading(card, "Compaction", `${model(e.model)} · ${time(e.timestamp)}`);
      // A prune step carries the summary it kept; what it did is the stubbing.
      card.appendChild(
        textBlock(
          e.step === "prune" ? `${e.pruned ?? 0} older tool outputs were shown to the model as stubs (outputs above in full).` : e.summary,
        ),
      );
    } else if (e.type === "rename") {
      heading(card, "Renamed", time(e.timestamp));
      card.appendChild(textBlock(e.title));
    } else if (e.type === "fork") {
      heading(card, "Fork", time(e.timestamp));
      // The timeline's summary names the source session and its step.
      const item = items.find((i) => i.seq === stored.seq && i.kind === "fork");
      card.appendChild(textBlock(item?.summary ?? `Forked from session ${e.sourceSessionId}`));
    } else if (e.type === "planEdit") {
      heading(card, "Plan edited by the user", time(e.timestamp));
      card.appendChild(textBlock(formatPlan(e.items)));
    }
  }
  for (const n of notesBySeq.get(stored.seq) ?? []) {
    const note = el("div", `note${n.verdict ? ` ${n.verdict}` : ""}`);
    const where = n.path && n.line ? `Review comment on ${n.path}:${n.line}` : "Review note";
    note.appendChild(el("div", "meta", `${where} by ${n.author}${n.verdict ? ` · ${n.verdict}` : ""} · ${time(n.createdAt)}`));
    note.appendChild(textBlock(n.text));
    card.appendChild(note);
  }
  return card;
}

const transcript = byId("transcript");
const cards: { seq: number; node: HTMLElement }[] = [];
for (const stored of env.entries) {
  const card = renderEntry(stored);
  card.hidden = true;
  cards.push({ seq: stored.seq, node: card });
  transcript.appendChild(card);
}
// Cards are in seq order; "shown" counts the visible prefix, so a step only touches the cards between two positions.
let shown = 0;
function showUpTo(seq: number): void {
  let target = shown;
  while (target < cards.length && cards[target].seq <= seq) target++;
  while (target > 0 && cards[target - 1].seq > seq) target--;
  for (let i = Math.min(shown, target); i < Math.max(shown, target); i++) cards[i].node.hidden = i >= target;
  shown = target;
}

// ------------------------------------------------------------ timeline and stepping
type Item = (typeof items)[number];
const list = byId("timeline");
const rows: HTMLElement[] = [];
let visible: Item[] = [];
let current = items.length > 0 ? 0 : -1;
let activeCard: HTMLElement | null = null;

for (const it of items) {
  const li = el("li", `item ${it.kind}${it.isError ? " is-error" : ""}${it.sideEffect ? " side-effect" : ""}`);
  li.tabIndex = -1;
  li.appendChild(el("span", "seq", `#${it.index + 1}`));
  li.appendChild(el("span", "kind", kind(it.kind)));
  li.appendChild(el("span", "summary", it.summary));
  li.addEventListener("click", () => go(it.index));
  rows.push(li);
}

const toolSelect = byId<HTMLSelectElement>("filter-tool");
const modelSelect = byId<HTMLSelectElement>("filter-model");
const choices = filterChoices(items);
for (const tool of choices.tools) toolSelect.appendChild(new Option(tool, tool));
for (const m of choices.models) modelSelect.appendChild(new Option(model(m.ref), m.key));
const notedSeqs = new Set(notesBySeq.keys());

function applyFilters(): void {
  const picked = filterItems(
    items,
    {
      errorsOnly: byId<HTMLInputElement>("filter-errors").checked,
      sideEffectsOnly: byId<HTMLInputElement>("filter-side").checked,
      tool: toolSelect.value || null,
      model: modelSelect.value || null,
      notedOnly: byId<HTMLInputElement>("filter-notes").checked,
    },
    notedSeqs,
  );
  visible = picked.map((i) => items[i]);
  list.textContent = "";
  for (const it of visible) list.appendChild(rows[it.index]);
  byId("count").textContent = `${visible.length} of ${items.length} steps`;
}

function go(index: number): void {
  if (items.length === 0) return;
  current = Math.max(0, Math.min(items.length - 1, index));
  const it = items[current];
  showUpTo(it.seq);
  for (const r of rows) r.classList.remove("active");
  rows[current].classList.add("active");
  rows[current].scrollIntoView({ block: "nearest" });
  activeCard?.classList.remove("current");
  const pos = shown - 1;
  activeCard = pos >= 0 && cards[pos].seq === it.seq ? cards[pos].node : null;
  if (activeCard) {
    activeCard.classList.add("current");
    activeCard.scrollIntoView({ block: "nearest" });
  }
  byId("step").textContent = `Step ${current + 1} of ${items.length} · ${kind(it.kind)}`;
}

function step(delta: 1 | -1): boolean {
  if (visible.length === 0) return false;
  const next = delta > 0 ? visible.find((v) => v.index > current) : visible.findLast((v) => v.index < current);
  if (next) go(next.index);
  return next !== undefined;
}

let timer: ReturnType<typeof setInterval> | null = null;
function stop(): void {
  if (timer) {
    clearInterval(timer);
    timer = null;
  }
  byId("play").textContent = "Play";
}
function play(): void {
  stop();
  const speed = Number(byId<HTMLSelectElement>("speed").value) || 1;
  timer = setInterval(() => {
    if (!step(1)) stop();
  }, 1000 / speed);
  byId("play").textContent = "Pause";
}

// Home/End and these buttons go to the first/last step the filters show, as in the app.
const first = () => go(visible.length ? visible[0].index : 0);
const last = () => go(visible.length ? visible[visible.length - 1].index : items.length - 1);
byId("first").addEventListener("click", first);
byId("prev").addEventListener("click", () => step(-1));
byId("next").addEventListener("click", () => step(1));
byId("last").addEventListener("click", last);
byId("play").addEventListener("click", () => (timer ? stop() : play()));
for (const id of ["filter-errors", "filter-side", "filter-notes", "filter-tool", "filter-model"])
  byId(id).addEventListener("change", applyFilters);
document.addEventListener("keydown", (ev) => {
  const t = ev.target as HTMLElement | null;
  const tag = t?.tagName;
  // Keys belong to menus and text fields while they have focus; checkboxes and buttons do not need them.
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && (t as HTMLInputElement).type !== "checkbox")) return;
  if (ev.key === " " && (tag === "BUTTON" || tag === "INPUT")) return; // Space already activates these
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown" || ev.key === "j") step(1);
  else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp" || ev.key === "k") step(-1);
  else if (ev.key === "Home") first();
  else if (ev.key === "End") last();
  else if (ev.key === " ") {
    if (timer) stop();
    else play();
  } else return;
  ev.preventDefault();
});

applyFilters();
go(items.length - 1);
document.body.dataset.ready = "true";
