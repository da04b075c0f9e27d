/**
 * The script of the offline HTML replay (vanilla JS, no dependencies). It
 * reads the embedded JSON data block and renders with textContent only, so
 * nothing from the session is ever parsed as HTML. Kept as plain ES2017 text;
 * no template literals so nothing here interpolates.
 */
export const REPLAY_SCRIPT = String.raw`(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("session-data").textContent);
  var env = data.envelope, items = data.items, stats = data.stats, names = data.modelNames || {};
  var KINDS = { user: "User", assistant: "Assistant", toolCall: "Tool call", toolResult: "Tool result", approval: "Approval",
    modelSwitch: "Model switch", reasoningChange: "Reasoning level", compaction: "Compaction", error: "Error", rename: "Rename", fork: "Fork" };
  function kind(k) { return KINDS[k] || k; }

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  function time(ms) { return new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC"); }
  function model(m) { return m ? names[m.provider + "/" + m.api + "/" + m.id] || m.provider + "/" + m.id : ""; }
  function cost(c) { return "$" + Number(c).toFixed(4); }
  function count(n) { return Number(n).toLocaleString("en-US"); }

  // ------------------------------------------------------------ header
  document.getElementById("title").textContent = env.session.title;
  var facts = [
    "Turns: " + stats.turns,
    "Assistant messages: " + stats.assistantMessages,
    "Tool calls: " + stats.toolCalls.total,
    "Approvals: " + stats.approvals.granted + " approved, " + stats.approvals.denied + " denied",
    "Errors: " + stats.errors.requests + " requests, " + stats.errors.tools + " tools, " + stats.errors.retries + " retried",
    "Tokens: " + count(stats.totals.totalTokens),
    "Cost: " + cost(stats.totals.cost)
  ];
  if (stats.startedAt !== null) facts.unshift("Started: " + time(stats.startedAt));
  var factList = document.getElementById("facts");
  facts.forEach(function (f) { factList.appendChild(el("li", null, f)); });
  stats.byModel.forEach(function (m) {
    factList.appendChild(el("li", "model-line", model(m.model) + ": " + m.messages + " messages, " + count(m.totalTokens) + " tokens, " + cost(m.cost)));
  });

  // ------------------------------------------------------------ transcript
  var notesBySeq = {};
  env.notes.forEach(function (n) { (notesBySeq[n.seq] = notesBySeq[n.seq] || []).push(n); });

  function textBlock(text) { return el("div", "text", text); }
  function image(c) {
    if (!/^image\/[a-z0-9.+-]+$/i.test(c.mimeType)) return el("div", "meta", "[image]");
    var img = el("img", "image");
    img.alt = "image";
    img.src = "data:" + c.mimeType + ";base64," + c.data;
    return img;
  }
  function diffBlock(text) {
    var pre = el("pre", "diff");
    text.split("\n").forEach(function (line) {
      var cls = line.charAt(0) === "+" && line.indexOf("+++") !== 0 ? "add" : line.charAt(0) === "-" && line.indexOf("---") !== 0 ? "del" : line.indexOf("@@") === 0 ? "hunk" : null;
      pre.appendChild(el("span", cls, line + "\n"));
    });
    return pre;
  }
  function heading(card, label, extra) {
    var h = el("div", "head");
    h.appendChild(el("span", "seq", "#" + card.dataset.seq));
    h.appendChild(el("span", "kind", label));
    if (extra) h.appendChild(el("span", "meta", extra));
    card.appendChild(h);
  }

  function renderEntry(stored) {
    var e = stored.entry;
    var card = el("article", "entry");
    card.dataset.seq = String(stored.seq);
    if (e.type === "message") {
      var m = e.message;
      card.classList.add(m.role);
      if (m.role === "user") {
        heading(card, "User", time(m.timestamp));
        m.content.forEach(function (c) { card.appendChild(c.type === "text" ? textBlock(c.text) : image(c)); });
      } else if (m.role === "assistant") {
        if (m.stopReason === "error") card.classList.add("error");
        heading(card, m.stopReason === "error" ? "Error" : "Assistant", model(m.model) + " · " + time(m.timestamp));
        card.appendChild(el("div", "meta", count(m.usage.input) + " in · " + count(m.usage.output) + " out · " + cost(m.usage.cost.total) + " · stop: " + m.stopReason));
        if (m.errorMessage) card.appendChild(el("div", "error-text", m.errorMessage));
        m.content.forEach(function (b) {
          if (b.type === "text") card.appendChild(textBlock(b.text));
          else if (b.type === "thinking") {
            var d = el("details", "thinking");
            d.appendChild(el("summary", null, b.redacted ? "Thinking (redacted by the provider)" : "Thinking"));
            d.appendChild(textBlock(b.thinking));
            card.appendChild(d);
          } else {
            var call = el("div", "call");
            call.appendChild(el("div", "call-head", "Tool call " + b.name + " · " + b.id));
            call.appendChild(el("pre", null, b.argumentsError ? (b.rawArguments || "") : JSON.stringify(b.arguments, null, 2)));
            if (b.argumentsError) call.appendChild(el("div", "error-text", "Invalid arguments: " + b.argumentsError));
            card.appendChild(call);
          }
        });
      } else {
        if (m.isError) card.classList.add("error");
        heading(card, "Tool result · " + m.toolName + (m.isError ? " · error" : " · ok"), time(m.timestamp));
        card.appendChild(el("div", "meta", "for call " + m.toolCallId));
        m.content.forEach(function (c) { card.appendChild(c.type === "text" ? el("pre", "output", c.text) : image(c)); });
        var diff = m.details && m.details.diff && typeof m.details.diff.unifiedDiff === "string" ? m.details.diff.unifiedDiff : "";
        if (diff) card.appendChild(diffBlock(diff));
      }
    } else {
      card.classList.add(e.type);
      if (e.type === "approval") {
        heading(card, "Approval", time(e.timestamp));
        card.appendChild(textBlock(e.decision + " " + e.toolName + " (" + e.toolCallId + ") by " + e.decidedBy + (e.reason ? ": " + e.reason : "")));
      } else if (e.type === "modelSwitch") {
        heading(card, "Model switch", time(e.timestamp));
        card.appendChild(textBlock((e.from ? "From " + model(e.from) + " to " : "To ") + model(e.to)));
      } else if (e.type === "reasoningChange") {
        heading(card, "Reasoning level", time(e.timestamp));
        card.appendChild(textBlock("From " + e.from + " to " + e.to));
      } else if (e.type === "compaction") {
        heading(card, "Compaction", model(e.model) + " · " + time(e.timestamp));
        card.appendChild(textBlock(e.summary));
      } else if (e.type === "rename") {
        heading(card, "Renamed", time(e.timestamp));
        card.appendChild(textBlock(e.title));
      } else if (e.type === "fork") {
        heading(card, "Fork", time(e.timestamp));
        card.appendChild(textBlock("Forked from " + e.sourceSessionId + " at #" + e.sourceSeq));
      }
    }
    (notesBySeq[stored.seq] || []).forEach(function (n) {
      var note = el("div", "note" + (n.verdict ? " " + n.verdict : ""));
      note.appendChild(el("div", "meta", "Review note by " + n.author + (n.verdict ? " · " + n.verdict : "") + " · " + time(n.createdAt)));
      note.appendChild(textBlock(n.text));
      card.appendChild(note);
    });
    return card;
  }

  var transcript = document.getElementById("transcript");
  var cards = [];
  env.entries.forEach(function (stored) {
    var card = renderEntry(stored);
    card.hidden = true;
    cards.push({ seq: stored.seq, node: card });
    transcript.appendChild(card);
  });
  // Cards are in seq order; "shown" counts the visible prefix, so a step only touches the cards between two positions.
  var shown = 0;
  function showUpTo(seq) {
    var target = shown;
    while (target < cards.length && cards[target].seq <= seq) target++;
    while (target > 0 && cards[target - 1].seq > seq) target--;
    for (var i = Math.min(shown, target); i < Math.max(shown, target); i++) cards[i].node.hidden = i >= target;
    shown = target;
  }

  // ------------------------------------------------------------ timeline and stepping
  var list = document.getElementById("timeline");
  var rows = [];
  var visible = [];
  var current = items.length > 0 ? 0 : -1;
  var activeCard = null;

  items.forEach(function (it) {
    var li = el("li", "item " + it.kind + (it.isError ? " is-error" : "") + (it.sideEffect ? " side-effect" : ""));
    li.tabIndex = -1;
    li.appendChild(el("span", "seq", "#" + it.seq));
    li.appendChild(el("span", "kind", kind(it.kind)));
    li.appendChild(el("span", "summary", it.summary));
    li.addEventListener("click", function () { go(it.index); });
    rows.push(li);
  });

  var toolSelect = document.getElementById("filter-tool");
  var modelSelect = document.getElementById("filter-model");
  var seenTools = {}, seenModels = {};
  items.forEach(function (it) {
    if (it.toolName && !seenTools[it.toolName]) { seenTools[it.toolName] = true; toolSelect.appendChild(new Option(it.toolName, it.toolName)); }
    var key = model(it.model);
    if (key && !seenModels[key]) { seenModels[key] = true; modelSelect.appendChild(new Option(key, key)); }
  });

  function applyFilters() {
    var errorsOnly = document.getElementById("filter-errors").checked;
    var sideOnly = document.getElementById("filter-side").checked;
    var tool = toolSelect.value, mdl = modelSelect.value;
    visible = items.filter(function (it) {
      return (!errorsOnly || it.isError) && (!sideOnly || it.sideEffect) && (!tool || it.toolName === tool) && (!mdl || model(it.model) === mdl);
    });
    list.textContent = "";
    visible.forEach(function (it) { list.appendChild(rows[it.index]); });
    document.getElementById("count").textContent = visible.length + " of " + items.length + " items";
  }

  function go(index) {
    if (items.length === 0) return;
    current = Math.max(0, Math.min(items.length - 1, index));
    var it = items[current];
    showUpTo(it.seq);
    rows.forEach(function (r) { r.classList.remove("active"); });
    rows[current].classList.add("active");
    rows[current].scrollIntoView({ block: "nearest" });
    if (activeCard) activeCard.classList.remove("current");
    var pos = shown - 1;
    activeCard = pos >= 0 && cards[pos].seq === it.seq ? cards[pos].node : null;
    if (activeCard) { activeCard.classList.add("current"); activeCard.scrollIntoView({ block: "nearest" }); }
    document.getElementById("step").textContent = "Step " + (current + 1) + " of " + items.length + " · " + kind(it.kind);
  }
  function step(delta) {
    if (visible.length === 0) return;
    var next = null;
    if (delta > 0) { for (var i = 0; i < visible.length; i++) if (visible[i].index > current) { next = visible[i]; break; } }
    else { for (var j = visible.length - 1; j >= 0; j--) if (visible[j].index < current) { next = visible[j]; break; } }
    if (next) go(next.index);
    return next !== null;
  }

  var timer = null;
  function stop() { if (timer) { clearInterval(timer); timer = null; } document.getElementById("play").textContent = "Play"; }
  function play() {
    stop();
    var speed = Number(document.getElementById("speed").value) || 1;
    timer = setInterval(function () { if (!step(1)) stop(); }, 1000 / speed);
    document.getElementById("play").textContent = "Pause";
  }

  // Home/End and these buttons go to the first/last step the filters show, as in the app.
  function first() { go(visible.length ? visible[0].index : 0); }
  function last() { go(visible.length ? visible[visible.length - 1].index : items.length - 1); }
  document.getElementById("first").addEventListener("click", first);
  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  document.getElementById("last").addEventListener("click", last);
  document.getElementById("play").addEventListener("click", function () { if (timer) stop(); else play(); });
  ["filter-errors", "filter-side", "filter-tool", "filter-model"].forEach(function (id) {
    document.getElementById(id).addEventListener("change", applyFilters);
  });
  document.addEventListener("keydown", function (ev) {
    var t = ev.target, tag = t && t.tagName;
    // Keys belong to menus and text fields while they have focus; checkboxes and buttons do not need them.
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && t.type !== "checkbox")) return;
    if (ev.key === " " && (tag === "BUTTON" || tag === "INPUT")) return; // Space already activates these
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown" || ev.key === "j") { step(1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp" || ev.key === "k") { step(-1); ev.preventDefault(); }
    else if (ev.key === "Home") { first(); ev.preventDefault(); }
    else if (ev.key === "End") { last(); ev.preventDefault(); }
    else if (ev.key === " ") { if (timer) stop(); else play(); ev.preventDefault(); }
  });

  applyFilters();
  go(items.length - 1);
  document.body.dataset.ready = "true";
})();
`;
