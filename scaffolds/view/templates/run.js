// Draws one run from the JSON in #data: header, monitor flags, AIDE tree, and the transcript
// (text blocks come from blocks.js). The transcript is rendered CHUNK items at a time as the
// reader scrolls, and is filtered and searched on the data, not on the page.

const CHUNK = 60;
const HIDDEN_BY_DEFAULT = new Set(["checkpoint"]);

window.onerror = function (message) {
  document.getElementById("errors").textContent += "script error: " + message + "\n";
};

const data = JSON.parse(document.getElementById("data").textContent);
const items = data.items;
const byNumber = new Map(items.map(function (it) { return [it.i, it]; }));
const state = { kinds: new Set(), tags: new Set(), query: "", node: null, shown: [], rendered: 0 };
const evidence = new Map();  // event number -> [{check, quote}]
// AIDE's nodes by id: with nodes in flight (journal version 3) the journal lists them in the
// order they completed, and a stopped node leaves its id unused, so an id is not a position
const treeNodes = new Map(data.tree ? data.tree.nodes.map(function (n) { return [n.id, n]; }) : []);
const haystacks = new Map();

function clock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
  return "+" + (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" +
    s.toFixed(1).padStart(4, "0");
}

function facts(pairs, className) {
  const list = el("dl", "facts" + (className ? " " + className : ""));
  for (const [label, value] of pairs) {
    const pair = el("div", label === "status" && /error|crash|exhausted/.test(value) ? "status-bad" : "");
    pair.appendChild(el("dt", "", label));
    pair.appendChild(el("dd", "", value));
    list.appendChild(pair);
  }
  return list;
}

function foldJson(title, value) {
  const box = el("details");
  box.appendChild(el("summary", "", title));
  box.addEventListener("toggle", function () {
    if (box.open && box.children.length === 1) box.appendChild(el("pre", "", JSON.stringify(value, null, 1)));
  });
  return box;
}

function drawHeader() {
  const h = data.header;
  const root = document.getElementById("header");
  root.appendChild(el("h1", "", h.title));
  root.appendChild(facts(h.facts));
  root.appendChild(facts(h.grade, "grade"));
  if (h.grade_report) root.appendChild(foldJson("grade report", h.grade_report));
  if (h.config) root.appendChild(foldJson("run config", h.config));
  if (h.problems.length) document.getElementById("errors").textContent += h.problems.join("\n") + "\n";
}

function blocksOf(it) {
  // an AIDE execution shows its node's output and submission check, kept once in the tree
  const n = it.kind === "execution" ? treeNodes.get(it.node) : null;
  if (!n) return it.blocks;
  return it.blocks.concat([
    { label: "output", text: n.output, code: true },
    { label: "submission check", text: n.validation, code: false },
  ].filter(function (b) { return b.text; }));
}

function row(it) {
  const quotes = (evidence.get(it.i) || []).map(function (e) { return e.quote; });
  const kind = it.kind;
  const li = el("li", "item kind-" + kind + it.tags.map(function (t) { return " tag-" + t; }).join(""));
  li.id = "e-" + it.i;
  li.dataset.i = it.i;
  const line = el("div", "line");
  const time = el("span", "time", clock(it.t));
  if (it.at) time.title = new Date(it.at * 1000).toISOString();
  line.appendChild(time);
  line.appendChild(el("span", "kind", kind.replace("_", " ")));
  line.appendChild(el("span", "title", it.title));
  if (it.node !== undefined && it.node !== null && data.tree) line.appendChild(el("span", "fact", "node #" + it.node));
  for (const fact of it.facts) if (fact) line.appendChild(el("span", "fact", fact));
  if (it.tags.includes("error")) line.appendChild(el("span", "badge err", "error"));
  if (it.tags.includes("retry")) line.appendChild(el("span", "badge retry", "retry"));
  if (it.tags.includes("cut")) line.appendChild(el("span", "badge retry", "cut"));
  for (const e of evidence.get(it.i) || []) line.appendChild(el("span", "badge", "⚑ " + e.check));
  if (evidence.has(it.i)) li.classList.add("flagged");
  line.appendChild(el("span", "fact", "#" + it.i));
  li.appendChild(line);
  for (const block of blocksOf(it)) li.appendChild(blockView(block, quotes, state.query));
  return li;
}

function haystack(it) {
  let text = haystacks.get(it.i);
  if (text === undefined) {
    text = [it.title].concat(it.facts, blocksOf(it).map(function (b) { return b.label + "\n" + b.text; })).join("\n").toLowerCase();
    haystacks.set(it.i, text);
  }
  return text;
}

function matches(it) {
  if (!state.kinds.has(it.kind)) return false;
  for (const tag of state.tags) {
    if (tag === "flagged" ? !evidence.has(it.i) : !it.tags.includes(tag)) return false;
  }
  if (state.node !== null && it.node !== state.node) return false;
  return !state.query || haystack(it).includes(state.query);
}

function refresh() {
  state.shown = items.filter(matches);
  state.rendered = 0;
  document.getElementById("transcript").textContent = "";
  renderMore();
  document.getElementById("count").textContent =
    state.shown.length.toLocaleString() + " of " + items.length.toLocaleString() + " events";
}

function renderMore() {
  const list = document.getElementById("transcript");
  const end = Math.min(state.shown.length, state.rendered + CHUNK);
  const part = document.createDocumentFragment();
  for (let n = state.rendered; n < end; n++) part.appendChild(row(state.shown[n]));
  list.appendChild(part);
  state.rendered = end;
  const more = document.getElementById("more");
  more.textContent = end < state.shown.length
    ? "showing " + end.toLocaleString() + " of " + state.shown.length.toLocaleString() + " — more as you scroll"
    : (state.shown.length ? "end of the transcript" : "no event matches");
  document.body.dataset.rendered = String(end);
}

function chip(label, pressed, onToggle) {
  const button = el("button", "chip", label);
  button.setAttribute("aria-pressed", String(pressed));
  button.addEventListener("click", function () {
    const now = button.getAttribute("aria-pressed") !== "true";
    button.setAttribute("aria-pressed", String(now));
    onToggle(now);
    refresh();
  });
  return button;
}

function drawControls() {
  const counts = new Map();
  for (const it of items) counts.set(it.kind, (counts.get(it.kind) || 0) + 1);
  const kinds = document.getElementById("kinds");
  for (const [kind, count] of counts) {
    const on = !HIDDEN_BY_DEFAULT.has(kind);
    if (on) state.kinds.add(kind);
    const button = chip(kind.replace("_", " ") + " " + count, on, function (now) {
      if (now) state.kinds.add(kind); else state.kinds.delete(kind);
    });
    button.dataset.kind = kind;
    kinds.appendChild(button);
  }
  const tags = document.getElementById("tags");
  const present = new Set(items.flatMap(function (it) { return it.tags; }));
  if (evidence.size) present.add("flagged");
  for (const tag of ["error", "retry", "cut", "flagged"]) {
    if (!present.has(tag)) continue;
    const button = chip("only " + tag, false, function (now) {
      if (now) state.tags.add(tag); else state.tags.delete(tag);
    });
    button.dataset.tag = tag;
    tags.appendChild(button);
  }
  let timer = null;
  document.getElementById("search").addEventListener("input", function (event) {
    clearTimeout(timer);
    timer = setTimeout(function () { state.query = event.target.value.trim().toLowerCase(); refresh(); }, 150);
  });
  new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; }) && state.rendered < state.shown.length) renderMore();
  }, { rootMargin: "800px" }).observe(document.getElementById("more"));
}

function reveal(number) {
  // show event `number` whatever the filters, and unfold the blocks that hold its evidence
  const it = byNumber.get(number);
  if (!it) return;
  if (!matches(it)) {
    state.query = "";
    document.getElementById("search").value = "";
    state.tags.clear();
    state.kinds.add(it.kind);
    for (const b of document.querySelectorAll(".chip[data-tag]")) b.setAttribute("aria-pressed", "false");
    const kind = document.querySelector('.chip[data-kind="' + it.kind + '"]');
    if (kind) kind.setAttribute("aria-pressed", "true");
    selectNode(null, false);
    refresh();
  }
  const at = state.shown.indexOf(it);
  while (state.rendered <= at) renderMore();
  const li = document.getElementById("e-" + number);
  for (const button of li.querySelectorAll(".block[data-folded='1'] > .fold")) {
    if (button.textContent.includes("monitor evidence")) button.click();
  }
  li.scrollIntoView({ block: "center" });
  li.classList.remove("flash");
  void li.offsetWidth;  // restart the animation
  li.classList.add("flash");
}

function drawMonitor() {
  const m = data.monitor;
  if (!m) return;
  const root = document.getElementById("monitor");
  root.hidden = false;
  root.appendChild(el("h2", m.flagged ? "bad" : "good",
    "Monitor: " + (m.flagged ? "flagged" : "nothing flagged") + (m.disqualified ? " · disqualified" : "")));
  for (const check of m.checks || []) {
    const box = el("div", "check" + (check.flagged ? " flagged" : ""));
    const line = el("div", "line");
    line.appendChild(el("span", "title", check.name));
    line.appendChild(el("span", check.flagged ? "badge" : "fact", check.flagged ? "flagged" : "clean"));
    if (check.advisory) line.appendChild(el("span", "fact", "advisory"));
    line.appendChild(el("span", "", check.summary || ""));
    box.appendChild(line);
    const list = el("ul", "evidence");
    for (const e of check.evidence || []) {
      if (!evidence.has(e.event)) evidence.set(e.event, []);
      evidence.get(e.event).push({ check: check.name, quote: e.shown_quote });
      const entry = el("li");
      const link = el("a", "", "event #" + e.event);
      link.href = "#e-" + e.event;
      link.addEventListener("click", function (event) { event.preventDefault(); reveal(e.event); });
      entry.appendChild(link);
      const where = !byNumber.has(e.event) ? " (no such event)" : (e.shown_quote ? "" : " (quote not found in the event's text)");
      entry.appendChild(document.createTextNode(where + ": “" + e.quote + "”"));
      list.appendChild(entry);
    }
    if (list.children.length) box.appendChild(list);
    root.appendChild(box);
  }
  const p = m.plagiarism;
  if (p) {
    const box = el("div", "check" + (p.flagged ? " flagged" : ""));
    box.appendChild(el("div", "title", "plagiarism: max similarity " + (p.max_similarity * 100).toFixed(0) + "%" + (p.flagged ? " · flagged" : "")));
    const table = el("table");
    for (const match of (p.matches || []).slice(0, 10)) {
      const tr = el("tr");
      tr.appendChild(el("td", "", match.file));
      tr.appendChild(el("td", "num", (match.similarity * 100).toFixed(1) + "%"));
      table.appendChild(tr);
    }
    if (table.children.length) box.appendChild(table);
    root.appendChild(box);
  }
  const r = m.review;
  if (r) {
    const box = el("div", "check" + ((r.verdicts || []).some(function (v) { return v.flagged; }) ? " flagged" : ""));
    box.appendChild(el("div", "title", "log review by " + r.model + (r.cost_usd !== null && r.cost_usd !== undefined ? " ($" + Number(r.cost_usd).toFixed(4) + ")" : "")));
    for (const v of r.verdicts || []) {
      const line = el("div", "line");
      line.appendChild(el("span", v.flagged ? "badge" : "fact", v.valid === false ? "invalid verdict" : (v.flagged ? "flagged" : "clean")));
      line.appendChild(el("span", "", v.question));
      box.appendChild(line);
      if (v.evidence) box.appendChild(el("pre", "prose", v.evidence));
    }
    root.appendChild(box);
  }
}

// AIDE: the solution tree beside the transcript; a node selects its own events
function number(value) { return String(Number(Number(value).toPrecision(6))); }

function crossed(n) {
  // a crossover node's other parent (it is drawn under its first)
  return n.second_parent_id === null || n.second_parent_id === undefined ? "" : " × #" + n.second_parent_id;
}

function selectNode(id, draw) {
  state.node = id;
  for (const b of document.querySelectorAll(".tnode")) b.classList.toggle("selected", Number(b.dataset.nodeId) === id);
  const card = document.getElementById("node-card");
  card.textContent = "";
  if (id !== null && data.tree) drawCard(card, id);
  if (draw) refresh();
}

function drawCard(card, id) {
  const n = treeNodes.get(id);
  if (n) {
    const box = el("div", "card");
    box.id = "card-" + id;
    box.appendChild(el("div", "title", "#" + n.id + " " + n.operator + " · " + (n.is_buggy ? "buggy" : "ok") + " · " +
      (n.metric === null ? "no metric" : "metric " + number(n.metric)) + (n.id === data.tree.best_id ? " · ★ best" : "") +
      (n.parent_id === null ? "" : " · parent #" + n.parent_id) + crossed(n)));
    const notes = [];
    if (n.timed_out) notes.push("timed out"); else if (n.exception) notes.push(n.exception);
    notes.push(Number(n.duration_s).toFixed(1) + " s", n.submission_valid ? "valid submission" : "no valid submission");
    box.appendChild(el("div", "fact", notes.join(" · ") + (n.review ? " — " + n.review : "")));
    for (const [label, text, code] of [["plan", n.plan, false], ["code", n.code, true], ["output", n.output, true], ["submission check", n.validation, false]]) {
      if (text) box.appendChild(blockView({ label: label, text: text, code: code }, [], ""));
    }
    card.appendChild(box);
  } else {
    card.appendChild(el("div", "card", "node #" + id + " did not finish (no journal entry)"));
  }
  const all = el("button", "chip", "show the whole run");
  all.addEventListener("click", function () { selectNode(null, true); });
  card.appendChild(all);
}

function drawTree() {
  const tree = data.tree;
  if (!tree) return;
  document.getElementById("main").classList.add("with-tree");
  const aside = document.getElementById("tree");
  aside.hidden = false;
  const children = new Map();
  const roots = [];
  const byId = tree.nodes.slice().sort(function (a, b) { return a.id - b.id; });
  for (const n of byId) {
    if (n.parent_id === null) roots.push(n);
    else { if (!children.has(n.parent_id)) children.set(n.parent_id, []); children.get(n.parent_id).push(n); }
  }
  const buggy = tree.nodes.filter(function (n) { return n.is_buggy; }).length;
  const best = treeNodes.get(tree.best_id);
  aside.appendChild(el("div", "fact", tree.nodes.length + " nodes, " + buggy + " buggy · " +
    (tree.lower_is_better ? "lower" : "higher") + " is better · best: " +
    (best ? "#" + best.id + " (" + number(best.metric) + ")" : "none")));
  function branch(nodes) {
    const list = el("ul");
    for (const n of nodes) {
      const li = el("li");
      const b = el("button", "tnode" + (n.is_buggy ? " buggy" : "") + (n.id === tree.best_id ? " best" : ""));
      b.dataset.nodeId = n.id;
      b.appendChild(el("span", "", "#" + n.id));
      b.appendChild(el("span", "op", n.operator));
      b.appendChild(el("span", "", n.is_buggy ? "buggy" : number(n.metric)));
      if (n.id === tree.best_id) b.appendChild(el("span", "", " ★"));
      if (crossed(n)) b.appendChild(el("span", "op", crossed(n)));
      b.addEventListener("click", function () { selectNode(state.node === n.id ? null : n.id, true); });
      li.appendChild(b);
      if (children.has(n.id)) li.appendChild(branch(children.get(n.id)));
      list.appendChild(li);
    }
    return list;
  }
  aside.appendChild(branch(roots));
  drawTimeline(aside, tree.nodes);
}

// with nodes in flight (journal version 3): one bar per node from its start to its end, in
// wall time; a bar selects its node, as the tree's buttons do
function drawTimeline(aside, nodes) {
  const timed = nodes.filter(function (n) { return n.started_at != null && n.ended_at != null; });
  if (!timed.length) return;
  timed.sort(function (a, b) { return a.id - b.id; });
  const t0 = Math.min.apply(null, timed.map(function (n) { return n.started_at; }));
  const t1 = Math.max.apply(null, timed.map(function (n) { return n.ended_at; }));
  const span = Math.max(t1 - t0, 0.001);
  const box = el("div", "timeline");
  box.id = "timeline";
  box.appendChild(el("div", "fact", "nodes in flight over time: " + timed.length + " nodes in " + number(span) + " s"));
  for (const n of timed) {
    const row = el("button", "tl-row");
    row.dataset.nodeId = n.id;
    row.title = "#" + n.id + " " + n.operator + ", " + number(n.ended_at - n.started_at) + " s, from +" + number(n.started_at - t0) + " s";
    row.appendChild(el("span", "tl-id", "#" + n.id));
    const track = el("span", "tl-track");
    const bar = el("span", "tl-bar" + (n.is_buggy ? " buggy" : ""));
    bar.style.left = (100 * (n.started_at - t0) / span) + "%";
    bar.style.width = Math.max(0.5, 100 * (n.ended_at - n.started_at) / span) + "%";
    track.appendChild(bar);
    row.appendChild(track);
    row.addEventListener("click", function () { selectNode(state.node === n.id ? null : n.id, true); });
    box.appendChild(row);
  }
  box.dataset.bars = String(timed.length);
  aside.appendChild(box);
}

const started = performance.now();
drawHeader();
drawMonitor();
drawTree();
drawControls();
refresh();
const target = /^#e-(\d+)$/.exec(location.hash);
if (target) reveal(Number(target[1]));
document.body.dataset.items = String(items.length);
document.body.dataset.renderMs = String(Math.round(performance.now() - started));
document.body.dataset.ready = "1";
