"use strict";
// Draws one grid from the JSON in #data: a sortable, filterable row per run linking to its
// page, then scaffolds.report's summary (its markdown tables, and its plots as data: images).

window.onerror = function (message) {
  document.getElementById("errors").textContent += "script error: " + message + "\n";
};

const data = JSON.parse(document.getElementById("data").textContent);
const COLUMNS = [
  ["run", "run"], ["scaffold", "scaffold"], ["model", "model"], ["task", "task"], ["seed", "seed"],
  ["status", "status"], ["score", "score"], ["medal", "medal"], ["reward", "reward"],
  ["steps", "steps"], ["cost_usd", "cost (USD)"], ["flagged", "monitor"],
];
const view = { key: "run", descending: false, query: "" };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function shown(key, value) {
  if (value === null || value === undefined) return key === "cost_usd" ? "unknown" : "";
  if (key === "flagged") return value ? "⚑ flagged" : "clean";
  if (key === "cost_usd") return Number(value).toFixed(4);
  if (typeof value === "number" && !Number.isInteger(value)) return String(Number(value.toPrecision(6)));
  return String(value);
}

function drawRuns() {
  const head = document.querySelector("#runs thead");
  const body = document.querySelector("#runs tbody");
  head.textContent = "";
  body.textContent = "";
  const tr = el("tr");
  for (const [key, label] of COLUMNS) {
    const th = el("th", "", label + (view.key === key ? (view.descending ? " ▼" : " ▲") : ""));
    th.style.cursor = "pointer";
    th.addEventListener("click", function () {
      view.descending = view.key === key ? !view.descending : false;
      view.key = key;
      drawRuns();
    });
    tr.appendChild(th);
  }
  head.appendChild(tr);
  const rows = data.runs.filter(function (r) {
    return !view.query || COLUMNS.some(function (c) { return shown(c[0], r[c[0]]).toLowerCase().includes(view.query); });
  });
  rows.sort(function (a, b) {
    const x = a[view.key], y = b[view.key];
    const order = x === y ? 0 : (x === null || x === undefined) ? 1 : (y === null || y === undefined) ? -1 : (x < y ? -1 : 1);
    return view.descending ? -order : order;
  });
  for (const r of rows) {
    const line = el("tr");
    for (const [key] of COLUMNS) {
      const td = el("td", typeof r[key] === "number" ? "num" : "");
      if (key === "run" && r.page) {
        const link = el("a", "", r.run);
        link.href = r.page;
        td.appendChild(link);
      } else td.textContent = shown(key, r[key]);
      if (key === "status" && /crash|error|exhausted/.test(r.status)) td.classList.add("bad");
      if (key === "flagged" && r.flagged) td.classList.add("bad");
      if (key === "run" && r.problem) td.title = r.problem;
      line.appendChild(td);
    }
    body.appendChild(line);
  }
  document.getElementById("count").textContent = rows.length + " of " + data.runs.length + " runs";
}

function inline(target, text) {
  // `code` spans; everything else as text
  text.split(/(`[^`]*`)/).forEach(function (part) {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1) target.appendChild(el("code", "", part.slice(1, -1)));
    else if (part) target.appendChild(document.createTextNode(part));
  });
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map(function (c) { return c.trim(); });
}

function drawSummary() {
  // the subset of markdown scaffolds.report writes: headings, paragraphs, pipe tables, images
  const root = document.getElementById("summary");
  if (data.problem) document.getElementById("errors").textContent += data.problem + "\n";
  const lines = data.markdown.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    const image = /^!\[([^\]]*)\]\(([^)]+)\)$/.exec(line.trim());
    if (!line.trim()) continue;
    if (line.startsWith("#")) {
      const level = Math.min(4, line.match(/^#+/)[0].length + 1);
      root.appendChild(el("h" + level, "", line.replace(/^#+\s*/, "")));
    } else if (image) {
      if (data.plots[image[2]]) {
        const img = el("img", "plot");
        img.alt = image[1];
        img.src = data.plots[image[2]];
        root.appendChild(img);
      }
    } else if (line.trim().startsWith("|")) {
      const table = el("table");
      const header = el("tr");
      for (const c of cells(line)) { const th = el("th"); inline(th, c); header.appendChild(th); }
      table.appendChild(header);
      n += 1;  // the |---| line
      while (n + 1 < lines.length && lines[n + 1].trim().startsWith("|")) {
        n += 1;
        const tr = el("tr");
        for (const c of cells(lines[n])) {
          const td = el("td", /^[-\d.,±NaN /na]+$/.test(c) && /\d/.test(c) ? "num" : "");
          inline(td, c);
          tr.appendChild(td);
        }
        table.appendChild(tr);
      }
      root.appendChild(table);
    } else {
      const p = el("p");
      inline(p, line);
      root.appendChild(p);
    }
  }
}

document.getElementById("title").textContent = "Grid " + data.grid;
document.getElementById("search").addEventListener("input", function (event) {
  view.query = event.target.value.trim().toLowerCase();
  drawRuns();
});
drawRuns();
drawSummary();
document.body.dataset.runs = String(data.runs.length);
document.body.dataset.ready = "1";
