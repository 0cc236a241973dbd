"use strict";
// Text blocks of the run page: long ones folded to their head and tail (the full text is built
// only when unfolded), with search matches, monitor quotes and tool elision markers marked.

const FOLD_CHARS = 2400;
const FOLD_LINES = 40;
const HEAD_LINES = 16, HEAD_CHARS = 1200, TAIL_LINES = 8, TAIL_CHARS = 600;
const MAX_MARKS = 400;
const ELIDED = /\[\.\.\. \d+ characters elided \.\.\.\]/g;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// text with the search matches, monitor quotes and elision markers marked
function ranges(text, quotes, query) {
  const found = [];
  const add = function (start, end, cls) { if (found.length < MAX_MARKS) found.push([start, end, cls]); };
  for (const m of text.matchAll(ELIDED)) add(m.index, m.index + m[0].length, "elided");
  for (const quote of quotes) {
    let at = quote ? text.indexOf(quote) : -1;
    while (at >= 0 && found.length < MAX_MARKS) { add(at, at + quote.length, "evidence"); at = text.indexOf(quote, at + quote.length); }
  }
  if (query) {
    const lower = text.toLowerCase();
    let at = lower.indexOf(query);
    while (at >= 0 && found.length < MAX_MARKS) { add(at, at + query.length, ""); at = lower.indexOf(query, at + query.length); }
  }
  found.sort(function (a, b) { return a[0] - b[0]; });
  return found;
}

function paint(target, text, quotes, query) {
  target.textContent = "";
  let at = 0;
  for (const [start, end, cls] of ranges(text, quotes, query)) {
    if (start < at) continue;
    if (start > at) target.appendChild(document.createTextNode(text.slice(at, start)));
    const mark = el(cls === "elided" ? "span" : "mark", cls, text.slice(start, end));
    target.appendChild(mark);
    at = end;
  }
  if (at < text.length) target.appendChild(document.createTextNode(text.slice(at)));
}

function cut(text) {
  // the head and tail a folded block shows: whole lines, within both line and character caps
  let head = 0;
  for (let n = 0; n < HEAD_LINES && head < HEAD_CHARS; n++) {
    const next = text.indexOf("\n", head);
    if (next < 0) { head = text.length; break; }
    head = next + 1;
  }
  head = Math.min(head, HEAD_CHARS);
  let tail = text.length;
  for (let n = 0; n < TAIL_LINES && text.length - tail < TAIL_CHARS; n++) {
    const prev = text.lastIndexOf("\n", tail - 2);
    if (prev < head) break;
    tail = prev + 1;
  }
  tail = Math.max(tail, text.length - TAIL_CHARS, head);
  return [head, tail];
}

function isLong(text) {
  if (text.length > FOLD_CHARS) return true;
  let lines = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) if (++lines > FOLD_LINES) return true;
  return false;
}

function blockView(block, quotes, query) {
  const box = el("div", "block" + (block.label === "reminder" ? " reminder" : ""));
  if (block.label !== "content" || block.code) box.appendChild(el("div", "label", block.label));
  const text = block.text;
  const pre = el("pre", block.code ? "" : "prose");
  box.appendChild(pre);
  if (!isLong(text)) { paint(pre, text, quotes, query); return box; }
  const [head, tail] = cut(text);
  const middle = text.slice(head, tail);
  const notes = [];
  const elided = middle.match(ELIDED);
  if (elided) notes.push("the tool cut " + elided.join(", "));
  if (query && middle.toLowerCase().includes(query)) notes.push("holds a search match");
  if (quotes.some(function (q) { return q && middle.includes(q); })) notes.push("holds monitor evidence");
  const hidden = (middle.match(/\n/g) || []).length;
  const label = "⋯ " + middle.length.toLocaleString() + " characters folded (" + hidden +
    " lines)" + (notes.length ? " · " + notes.join(" · ") : "") + " · click to unfold";
  const button = el("button", "fold", label);
  const tailPre = el("pre", pre.className);
  paint(pre, text.slice(0, head), quotes, query);
  paint(tailPre, text.slice(tail), quotes, query);
  box.appendChild(button);
  box.appendChild(tailPre);
  box.dataset.folded = "1";
  button.addEventListener("click", function () {
    if (box.dataset.folded === "1") {
      paint(pre, text, quotes, query);
      tailPre.hidden = true;
      button.textContent = "fold (" + text.length.toLocaleString() + " characters)";
      box.dataset.folded = "0";
      box.insertBefore(button, pre);
    } else {
      paint(pre, text.slice(0, head), quotes, query);
      tailPre.hidden = false;
      button.textContent = label;
      box.dataset.folded = "1";
      box.insertBefore(button, tailPre);
    }
  });
  return box;
}
