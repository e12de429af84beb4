// The Orrery explorer page: reads the JSON API and the event stream of the explorer that serves it.
// Every view has an address (#/overview, #/schedule, #/world, #/query?q=..., #/entity/ID, #/map,
// #/search?q=...), so a view or an entity can be bookmarked, shared and reloaded.
"use strict";
const $ = (sel) => document.querySelector(sel);
const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};
const TOKEN = document.querySelector("meta[name=orrery-token]").content;
const getJson = async (path) => {
  const r = await fetch(path, { cache: "no-store" });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || ("HTTP " + r.status));
  return j;
};
const COLORS = ["#4a6cf7", "#e4572e", "#17a398", "#f3a712", "#8e44ad", "#2e86de", "#c0392b", "#27ae60",
  "#d35400", "#1abc9c", "#7f8c8d", "#9b59b6", "#34495e", "#16a085", "#e67e22", "#2980b9"];
const MAX_TICKS = 4096, MAX_SECONDS = 900;
let summary = null;
let mapPoints = null;
let tab = "overview";
let timers = [];

// ---------------------------------------------------------------- routing: one address per view
function route() {
  const hash = location.hash || "#/overview";
  const [path, queryString] = hash.slice(1).split("?");
  const params = new URLSearchParams(queryString || "");
  const parts = path.split("/").filter(Boolean);
  const name = parts[0] || "overview";
  timers.forEach(clearInterval);
  timers = [];
  if (name === "entity") {
    show("entity");
    if (parts[1]) inspect(decodeURIComponent(parts[1]));
    timers.push(setInterval(() => { if (currentEntity && !editing()) inspect(currentEntity, true); }, 1000));
  } else if (name === "query") {
    show("query");
    const q = params.get("q");
    if (q !== null) { $("#query-text").value = q; runQuery(q, Number(params.get("page") || 0)); }
    timers.push(setInterval(() => { if ($("#query-live").checked && lastQuery) runQuery(lastQuery.q, lastQuery.page, true); }, 2000));
  } else if (name === "timeline") {
    show("timeline");
    travel(params);
  } else if (name === "search") {
    show("search-results");
    search(params.get("q") || "");
  } else if (["overview", "schedule", "world", "map"].includes(name)) {
    show(name);
    if (name === "schedule") { loadGraph(); loadSystems(); timers.push(setInterval(loadSystems, 2000)); }
    if (name === "world") { loadWorld(); timers.push(setInterval(loadWorld, 1000)); }
    if (name === "map") { loadMap(); timers.push(setInterval(loadMap, 500)); }
    if (name === "overview") resizeCharts();
  } else {
    show("overview");
  }
}
function show(name) {
  tab = name;
  document.querySelectorAll("nav a").forEach(a => a.classList.toggle("on", a.dataset.tab === name));
  document.querySelectorAll(".tab").forEach(s => s.classList.toggle("on", s.id === name));
}
window.addEventListener("hashchange", route);
const go = (hash) => { if (location.hash === hash) route(); else location.hash = hash; };
function entityLink(id, text) {
  const a = el("a", text || String(id));
  a.href = "#/entity/" + id;
  a.dataset.entity = String(id);
  return a;
}

// ---------------------------------------------------------------- search
$("#search-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  go("#/search?q=" + encodeURIComponent($("#search").value.trim()));
});
async function search(text) {
  $("#search-text").textContent = "'" + text + "'";
  const body = $("#search-table tbody");
  try {
    const r = await getJson("/api/search?q=" + encodeURIComponent(text));
    body.textContent = "";
    if (!r.results.length) body.append(row(["", "nothing found", "try an entity id, a component or a system name"]));
    r.results.forEach(x => {
      const tr = row([x.kind, "", x.detail]);
      const a = el("a", x.name); a.href = x.link; tr.children[1].append(a);
      body.append(tr);
    });
  } catch (e) { body.textContent = ""; body.append(row(["error", e.message, ""])); }
}
function row(cells) {
  const tr = el("tr");
  cells.forEach(c => tr.append(c instanceof Node ? wrap(c) : el("td", c === null || c === undefined ? "" : String(c))));
  return tr;
}
function wrap(node) { const td = el("td"); td.append(node); return td; }

// ---------------------------------------------------------------- overview: figures, charts, systems
const hist = { seq: -1, second: -1, t: [], ms: [], entities: [], syncMs: [], commands: [], explorerMs: [], systems: [],
  st: [], tps: [], heapMb: [], heapAfterGcMb: [], gcMs: [], archetypes: [] };
let systemNames = [];
const charts = {};

function figure(id, label, value, note) {
  let f = document.getElementById(id);
  if (!f) {
    f = el("div", undefined, "figure"); f.id = id;
    f.append(el("span", label), el("b"), el("small"));
    $("#figures").append(f);
  }
  f.querySelector("b").textContent = value;
  f.querySelector("small").textContent = note || "";
}

function appendTicks(rows) {
  const n = rows.tick.length;
  const firstSeq = rows.seq - n + 1;
  for (let i = 0; i < n; i++) {
    if (firstSeq + i <= hist.seq) continue;
    hist.t.push(rows.t[i]); hist.ms.push(rows.ms[i]); hist.entities.push(rows.entities[i]);
    hist.syncMs.push(rows.syncMs[i]); hist.commands.push(rows.commands[i]); hist.explorerMs.push(rows.explorerMs[i]);
    rows.systems.forEach((col, s) => { (hist.systems[s] = hist.systems[s] || []).push(col[i]); });
  }
  if (n) hist.seq = Math.max(hist.seq, rows.seq);
  const over = hist.t.length - MAX_TICKS;
  if (over > 0) {
    ["t", "ms", "entities", "syncMs", "commands", "explorerMs"].forEach(k => hist[k].splice(0, over));
    hist.systems.forEach(col => col.splice(0, over));
  }
}
function appendSeconds(s) {
  const n = s.t.length;
  const firstSeq = s.seq - n + 1;
  for (let i = 0; i < n; i++) {
    if (firstSeq + i <= hist.second) continue;
    hist.st.push(s.t[i]); hist.tps.push(s.tps[i]); hist.heapMb.push(s.heapMb[i]);
    hist.heapAfterGcMb.push(s.heapAfterGcMb[i]); hist.gcMs.push(s.gcMs[i]); hist.archetypes.push(s.archetypes[i]);
  }
  if (n) hist.second = Math.max(hist.second, s.seq);
  const over = hist.st.length - MAX_SECONDS;
  if (over > 0) ["st", "tps", "heapMb", "heapAfterGcMb", "gcMs", "archetypes"].forEach(k => hist[k].splice(0, over));
}

// A chart as wide as its pane (two panes a row on a wide window, one on a narrow one).
function chartWidth(target) {
  const pane = $(target).closest(".pane");
  return Math.max(320, (pane && pane.clientWidth ? pane.clientWidth : 600) - 8);
}
function makeChart(key, target, series, opts) {
  const o = Object.assign({ width: chartWidth(target), height: 200, series: [{}].concat(series),
    axes: [{}, { size: 60 }], legend: { live: true }, cursor: { drag: { x: true, y: false } } }, opts || {});
  charts[key] = new uPlot(o, [[]].concat(series.map(() => [])), $(target));
}
function buildCharts() {
  const log = $("#log-scale").checked;
  Object.values(charts).forEach(c => c.destroy());
  const logScale = log ? { distr: 3, log: 10 } : {};
  makeChart("tick", "#chart", [
    { label: "tick ms", stroke: "#4a6cf7", width: 1, points: { show: false } }],
    { scales: { y: Object.assign({}, logScale) } });
  const stacked = systemNames.map((n, i) => systemNames.length - 1 - i).map(s => ({
    label: systemNames[s], stroke: COLORS[s % COLORS.length], fill: COLORS[s % COLORS.length] + "99", width: 1,
    points: { show: false }, value: (u, v, si, idx) => idx == null ? "--" : fmt(systemValue(s, idx)) }));
  makeChart("systems", "#chart-systems", stacked.length ? stacked : [{ label: "no systems" }]);
  makeChart("entities", "#chart-entities", [
    { label: "entities", stroke: "#17a398", width: 1, points: { show: false }, scale: "n" },
    { label: "archetypes", stroke: "#8e44ad", width: 2, scale: "a" }],
    { axes: [{}, { scale: "n", size: 70 }, { scale: "a", side: 1, grid: { show: false } }], scales: { n: {}, a: {} } });
  makeChart("tps", "#chart-tps", [{ label: "ticks/s", stroke: "#e4572e", width: 2 }]);
  makeChart("memory", "#chart-memory", [
    { label: "heap after GC MB", stroke: "#2e86de", width: 2, scale: "mb" },
    { label: "heap in use MB", stroke: "#7f8c8d", width: 1, scale: "mb" },
    { label: "GC pause ms/s", stroke: "#c0392b", width: 1, scale: "ms", paths: uPlot.paths.bars ? uPlot.paths.bars({ size: [0.8] }) : undefined }],
    { axes: [{}, { scale: "mb", size: 60 }, { scale: "ms", side: 1, grid: { show: false } }], scales: { mb: {}, ms: {} } });
  makeChart("overhead", "#chart-overhead", [
    { label: "sync points ms", stroke: "#f3a712", width: 1, points: { show: false } },
    { label: "explorer ms", stroke: "#8e44ad", width: 1, points: { show: false } },
    { label: "commands", stroke: "#27ae60", width: 1, scale: "c", points: { show: false } }],
    { axes: [{}, { size: 60 }, { scale: "c", side: 1, grid: { show: false } }], scales: { y: Object.assign({}, logScale), c: {} } });
  drawCharts();
}
const fmt = (v) => v == null ? "--" : (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3));
function systemValue(s, idx) { const col = hist.systems[s]; return col ? col[idx] : null; }
const positive = (v) => v == null ? null : Math.max(v, 0.001); // a log scale takes no zero
function drawCharts() {
  if (!charts.tick) return;
  const log = $("#log-scale").checked;
  const t = hist.t;
  charts.tick.setData([t, log ? hist.ms.map(positive) : hist.ms]);
  if (systemNames.length) {
    const cum = systemNames.map(() => new Array(t.length));
    for (let i = 0; i < t.length; i++) {
      let sum = 0, timed = false;
      for (let s = 0; s < systemNames.length; s++) {
        const v = systemValue(s, i);
        if (v != null) { timed = true; sum += v; }
        cum[s][i] = timed ? sum : null;
      }
    }
    charts.systems.setData([t].concat(systemNames.map((n, i) => cum[systemNames.length - 1 - i])));
  }
  charts.entities.setData([t, hist.entities, interpolate(hist.st, hist.archetypes, t)]);
  charts.tps.setData([hist.st, hist.tps]);
  charts.memory.setData([hist.st, hist.heapAfterGcMb, hist.heapMb, hist.gcMs]);
  charts.overhead.setData([t, log ? hist.syncMs.map(positive) : hist.syncMs, log ? hist.explorerMs.map(positive) : hist.explorerMs,
    hist.commands]);
  $("#history-info").textContent = `${t.length} ticks and ${hist.st.length} seconds kept`;
}
// The per-second series at the per-tick times (the last second's value holds until the next).
function interpolate(xs, ys, at) {
  const out = new Array(at.length);
  let j = 0;
  for (let i = 0; i < at.length; i++) {
    while (j + 1 < xs.length && xs[j + 1] <= at[i]) j++;
    out[i] = xs.length && xs[j] <= at[i] ? ys[j] : null;
  }
  return out;
}
function resizeCharts() {
  Object.values(charts).forEach(c => c.setSize({ width: chartWidth("#" + c.root.parentElement.id), height: 200 }));
}
window.addEventListener("resize", resizeCharts);
document.querySelectorAll("input[data-pane]").forEach(cb => cb.addEventListener("change", () => {
  document.getElementById("pane-" + cb.dataset.pane).classList.toggle("off", !cb.checked);
}));
$("#log-scale").addEventListener("change", buildCharts);

let lastDraw = 0;
function update(s) {
  if (s.error) { $("#status").textContent = s.error; return; }
  figure("fig-tick", "tick", s.tick);
  figure("fig-tps", "ticks/s", s.tps.toFixed(1), "last second");
  figure("fig-entities", "entities", s.entities);
  figure("fig-archetypes", "archetypes", s.archetypes < 0 ? "..." : s.archetypes);
  figure("fig-p50", "p50 ms", s.p50, "last 10 s");
  figure("fig-p99", "p99 ms", s.p99, "last 10 s");
  figure("fig-max", "max ms", s.max, "last 10 s");
  figure("fig-heap", "heap after GC", s.heapAfterGcMb + " MB");
  figure("fig-explorer", "explorer ms/tick", s.explorerMs, "its own time");
  if (s.rows) appendTicks(s.rows);
  if (s.seconds) appendSeconds(s.seconds);
  drawSystems(s.systems);
  const now = Date.now();
  if (tab === "overview" && now - lastDraw > 450) { lastDraw = now; drawCharts(); }
}

function drawSystems(times) {
  const box = $("#systems");
  if (!systemNames.length) return;
  if (!times) { box.textContent = "timing the systems from the next tick..."; return; }
  box.textContent = "";
  const top = Math.max(...times, 1e-6);
  systemNames.forEach((name, i) => {
    const bar = el("div", undefined, "bar");
    const fill = el("div", undefined, "fill");
    fill.style.width = Math.max(1, 400 * times[i] / top) + "px";
    fill.style.background = COLORS[i % COLORS.length];
    bar.append(el("span", name, "name"), fill, el("span", times[i].toFixed(3)));
    box.append(bar);
  });
}

async function loadSummary() {
  try {
    summary = await getJson("/api/summary");
    $("#state").textContent = (summary.live ? "" : `not live: ${summary.whyNotLive}\n`) +
      `next tick ${summary.nextTick}, workers ${summary.workers}, seed ${summary.seed}, ` +
      `entities ${summary.entities}, step ${summary.stepSeconds} s, failure policy ${summary.failurePolicy === null ? "(read at a safe point only)" : summary.failurePolicy}\n` +
      `last state hash: ${summary.lastHash === null ? "none (the simulation hashes only when recording or asked with hashEvery)" : summary.lastHash}, ` +
      `skipped ticks ${summary.skippedTicks}\ncommands: ${summary.commands === null ? "(read at a safe point only)" : summary.commands}`;
    $("#edit-mode").textContent = summary.edits
      ? "edits on: change a value and press Set (it is sent as an input, and its outcome shows below)"
      : "read-only (edits are off)";
    $("#map-tab").style.display = summary.map ? "" : "none";
    if (timeline === null) loadTimelineInfo();
  } catch (e) { $("#state").textContent = "summary: " + e.message; }
}

async function start() {
  try {
    const h = await getJson("/api/history");
    systemNames = h.systemNames;
    appendTicks(h.ticks);
    appendSeconds(h.seconds);
  } catch (e) { $("#history-info").textContent = "history: " + e.message; }
  buildCharts();
  const stream = new EventSource("/api/stream");
  stream.onmessage = (m) => { $("#status").textContent = "live"; update(JSON.parse(m.data)); };
  stream.onerror = () => { $("#status").textContent = "stream lost; retrying"; };
  loadSummary();
  setInterval(loadSummary, 2000);
  route();
}

// ---------------------------------------------------------------- schedule: per-system table and graph
let graphDrawn = false, graphZoom = 0;
async function loadGraph() {
  if (graphDrawn) return;
  const g = await getJson("/api/graph");
  $("#graph-text").textContent = g.text;
  const svg = await new Viz().renderSVGElement(g.dot);
  svg.dataset.width = parseFloat(svg.getAttribute("width"));
  svg.dataset.height = parseFloat(svg.getAttribute("height"));
  $("#graph").textContent = "";
  $("#graph").append(svg);
  graphDrawn = true;
  zoom(1);
  annotateGraph();
}
function zoom(z) {
  const svg = $("#graph svg");
  if (!svg) return;
  const w = Number(svg.dataset.width), h = Number(svg.dataset.height);
  if (z === "fit") z = Math.min(1, ($("#graph").clientWidth - 4) / w);
  graphZoom = Math.max(0.2, Math.min(3, z));
  svg.setAttribute("width", (w * graphZoom) + "pt");
  svg.setAttribute("height", (h * graphZoom) + "pt");
}
$("#zoom-fit").addEventListener("click", () => zoom("fit"));
$("#zoom-one").addEventListener("click", () => zoom(1));
$("#zoom-in").addEventListener("click", () => zoom(graphZoom * 1.25));
$("#zoom-out").addEventListener("click", () => zoom(graphZoom / 1.25));
let systemRows = [];
async function loadSystems() {
  try {
    const r = await getJson("/api/systems");
    systemRows = r.systems;
    const body = $("#system-table tbody");
    body.textContent = "";
    const num = (v) => v === null || v === undefined ? "" : v;
    r.systems.forEach(s => {
      const tr = row([s.index, s.name, s.phase, s.kind, num(s.archetypes), num(s.entities), num(s.jobs), num(s.rows),
        s.mode, s.meanMs === null ? "" : s.meanMs.toFixed(3), s.maxMs === null ? "" : s.maxMs.toFixed(3), s.syncBefore ? "yes" : ""]);
      tr.dataset.system = s.name;
      body.append(tr);
    });
    annotateGraph();
  } catch (e) { $("#system-table tbody").textContent = ""; $("#system-table tbody").append(row(["", e.message])); }
}
// Writes each system's mean time under its name in the drawn graph.
function annotateGraph() {
  const byName = new Map(systemRows.map(s => [s.name, s]));
  document.querySelectorAll("#graph g.node").forEach(g => {
    const title = g.querySelector("title");
    const s = title && byName.get(title.textContent.trim());
    if (!s) return;
    let t = g.querySelector("text.timing");
    if (!t) {
      const label = g.querySelectorAll("text");
      const last = label[label.length - 1];
      if (!last) return;
      t = document.createElementNS("http://www.w3.org/2000/svg", "text");
      t.setAttribute("class", "timing");
      t.setAttribute("text-anchor", "middle");
      t.setAttribute("x", last.getAttribute("x"));
      t.setAttribute("y", Number(last.getAttribute("y")) + 12);
      t.setAttribute("font-size", "9");
      t.setAttribute("fill", "#b3261e");
      g.append(t);
    }
    t.textContent = s.meanMs === null ? "" : s.meanMs.toFixed(3) + " ms" + (s.entities !== null ? " | " + s.entities + " ent" : "");
  });
}

// ---------------------------------------------------------------- world: archetypes, tree, named instances, resources
function fillTable(sel, rows) {
  const body = $(sel + " tbody");
  body.textContent = "";
  rows.forEach(cells => body.append(row(cells)));
  return body;
}
async function loadWorld() {
  try {
    const a = await getJson("/api/archetypes");
    $("#archetype-count").textContent = "(" + a.count + " with rows)";
    const body = $("#archetypes tbody");
    body.textContent = "";
    a.archetypes.forEach((x, i) => {
      const link = el("a", x.columns.join(", ") || "(no table columns)");
      link.href = "#/query?q=" + encodeURIComponent(x.query);
      const tr = row([i, link, x.rows, x.chunks]);
      tr.className = "link";
      tr.addEventListener("click", (ev) => { if (ev.target.tagName !== "A") go(link.getAttribute("href")); });
      body.append(tr);
    });
    const sparse = fillTable("#sparse", []);
    a.sparse.forEach(s => { const l = el("a", s.name); l.href = "#/query?q=" + encodeURIComponent(s.name); sparse.append(row([l, "sparse column", s.rows])); });
    a.relations.forEach(r => {
      const l = el("a", r.name); l.href = "#/query?q=" + encodeURIComponent(r.name + "(*)");
      sparse.append(row([l, "relation" + (r.exclusive ? ", exclusive" : "") + (r.acyclic ? ", acyclic" : ""), r.pairs + " pairs"]));
    });
    if (!treeLoaded) loadTree();
    const n = await getJson("/api/named");
    fillTable("#named", n.map(x => [x.type, x.instances.join(", ")]));
    const r = await getJson("/api/resources");
    fillTable("#resources", r.map(x => [x.name, x.type, x.text, x.codec ? "yes" : "no",
      !x.codec ? "" : x.bytes === null ? "(its codec failed)" : x.bytesMore ? "more than " + x.bytes : x.bytes,
      x.codec && x.hex !== undefined ? x.hex : ""]));
  } catch (e) { $("#archetype-count").textContent = "(" + e.message + ")"; }
}
let treeLoaded = false;
$("#tree-reload").addEventListener("click", loadTree);
async function loadTree() {
  treeLoaded = true;
  const box = $("#tree");
  box.textContent = "";
  box.append(await treeLevel(null, 0));
}
// One level of the ChildOf tree: a list of nodes, each opening its children when asked.
async function treeLevel(parent, page) {
  const ul = el("ul");
  try {
    const t = await getJson("/api/tree?size=" + (parent === null ? 20 : 50) + "&page=" + page + (parent === null ? "" : "&parent=" + parent));
    if (t.message) ul.append(el("li", t.message, "muted"));
    if (parent === null && t.count === 0 && !t.message) ul.append(el("li", "no entity has children", "muted"));
    t.nodes.forEach(n => {
      const li = el("li");
      li.dataset.node = String(n.id);
      const open = el("button", n.children ? "+" : "\u00b7", "open");
      open.disabled = !n.children;
      open.addEventListener("click", async () => {
        const child = li.querySelector(":scope > ul");
        if (child) { child.remove(); open.textContent = "+"; return; }
        open.textContent = "\u2212";
        li.append(await treeLevel(n.id, 0));
      });
      li.append(open, " ", entityLink(n.id, n.text), " " + n.label + (n.children ? ` (${n.children} children)` : ""));
      ul.append(li);
    });
    if ((page + 1) * t.size < t.count) {
      const more = el("button", `next ${Math.min(t.size, t.count - (page + 1) * t.size)} of ${t.count}...`);
      more.addEventListener("click", async () => { more.replaceWith(...(await treeLevel(parent, page + 1)).children); });
      ul.append(el("li")).append(more);
    }
  } catch (e) { ul.append(el("li", e.message, "error")); }
  return ul;
}

// ---------------------------------------------------------------- query tool
let lastQuery = null;
$("#query-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  go("#/query?q=" + encodeURIComponent($("#query-text").value.trim()) + "&page=0");
});
$("#query-prev").addEventListener("click", () => lastQuery && lastQuery.page > 0 && go("#/query?q=" + encodeURIComponent(lastQuery.q) + "&page=" + (lastQuery.page - 1)));
$("#query-next").addEventListener("click", () => lastQuery && go("#/query?q=" + encodeURIComponent(lastQuery.q) + "&page=" + (lastQuery.page + 1)));
async function runQuery(q, page, quiet) {
  lastQuery = { q, page };
  $("#query-error").textContent = "";
  try {
    const r = await getJson("/api/query?size=50&q=" + encodeURIComponent(q) + "&page=" + page);
    if (!lastQuery || lastQuery.q !== q || lastQuery.page !== page) return;
    $("#query-summary").innerHTML = "";
    $("#query-summary").append(el("b", r.count + " entities"), ` match ${r.terms}` +
      (r.changeFiltered ? " (changed since the explorer last ran this query)" : "") +
      ` in ${r.archetypes.length} archetype${r.archetypes.length === 1 ? "" : "s"}`);
    $("#query-summary").dataset.count = String(r.count);
    $("#query-error").textContent = r.message || ""; // a pair on a target that is not alive: why nothing matches
    fillTable("#query-archetypes", r.archetypes.map(a => [a.columns.join(", "), a.rows]));
    $("#query-page").textContent = r.pages ? `page ${r.page + 1} of ${r.pages}` : "no page";
    $("#query-prev").disabled = r.page === 0;
    $("#query-next").disabled = r.page + 1 >= r.pages;
    const head = $("#query-table thead");
    head.textContent = "";
    const hr = el("tr");
    hr.append(el("th", "entity"));
    r.columns.forEach(c => c.fields.length ? c.fields.forEach(f => hr.append(el("th", c.name + "." + f))) : hr.append(el("th", c.name)));
    head.append(hr);
    const body = $("#query-table tbody");
    body.textContent = "";
    r.entities.forEach(e => {
      const tr = el("tr");
      tr.append(wrap(entityLink(e.id, e.text)));
      r.columns.forEach((c, ci) => {
        const vals = e.values[ci];
        const n = Math.max(1, c.fields.length);
        for (let k = 0; k < n; k++) {
          const v = vals ? vals[k] : null;
          if (v && typeof v === "object") tr.append(wrap(entityLink(v.ref, v.v)));
          else tr.append(el("td", vals === null ? "-" : (c.fields.length ? v : "yes")));
        }
      });
      body.append(tr);
    });
  } catch (e) {
    if (!quiet) { $("#query-error").textContent = e.message; $("#query-summary").textContent = ""; }
  }
}

// ---------------------------------------------------------------- entity inspector and edits
$("#entity-form").addEventListener("submit", (ev) => { ev.preventDefault(); go("#/entity/" + encodeURIComponent($("#entity-id").value.trim())); });
let currentEntity = null;
// Bumped by every inspection of another entity; an answer for an older one is dropped.
let inspections = 0;
const editing = () => document.activeElement && document.activeElement.classList.contains("edit");
async function inspect(id, refresh) {
  if (!refresh || id !== currentEntity) {
    inspections++;
    if (id !== currentEntity) { $("#edit-result").textContent = ""; $("#edit-list tbody").textContent = ""; }
  }
  const mine = inspections;
  currentEntity = id;
  if (!refresh) $("#entity-id").value = id;
  $("#entity-past").href = "#/timeline?id=" + encodeURIComponent(id);
  const view = $("#entity-view");
  try {
    const e = await getJson("/api/entity?id=" + encodeURIComponent(id));
    if (mine !== inspections || editing()) return;
    // The same entity with the same components: the values are updated in place (an input the
    // user typed in keeps what was typed); anything else is drawn anew.
    const sig = e.id + (e.alive ? "" : "!") + e.components.map(c => c.name + ":" + c.fields.map(f => f.name + f.editable).join(",")).join("|");
    if (view.dataset.sig === sig) {
      e.components.forEach(c => c.fields.forEach(f => {
        const td = view.querySelector(`td[data-field="${CSS.escape(c.name + "." + f.name)}"]`);
        if (td) fieldValue(td, f);
        const input = view.querySelector(`input[data-edit="${CSS.escape(c.name + "." + f.name)}"]`);
        if (input && !input.dataset.typed && document.activeElement !== input) input.value = f.value;
      }));
      const rel = JSON.stringify(e.relations || []);
      if (view.dataset.relations !== rel) {
        view.querySelectorAll(".relation").forEach(x => x.remove());
        (e.relations || []).forEach(r => view.append(relationBox(r, e.id)));
        view.dataset.relations = rel;
      }
    } else {
      const box = el("div");
      box.append(el("p", `entity ${e.id} (${e.text}: index ${e.index}, generation ${e.generation}) ${e.alive ? "alive" : "not alive"}`));
      if (e.message) box.append(el("p", e.message, "error"));
      e.components.forEach(c => box.append(componentBox(e, c)));
      (e.relations || []).forEach(r => box.append(relationBox(r, e.id)));
      view.replaceChildren(...box.childNodes);
      view.dataset.sig = sig;
      view.dataset.relations = JSON.stringify(e.relations || []);
    }
    loadEdits();
  } catch (err) { if (mine === inspections) view.textContent = "entity " + id + ": " + err.message; }
}
function componentBox(e, c) {
  const box = el("div", undefined, "component");
  box.dataset.component = c.name;
  box.append(el("h3", c.name + (c.name !== c.type ? " (" + c.type + ")" : "") + (c.sparse ? " sparse" : "") + (c.relation ? " relation" : "")));
  const table = el("table", undefined, "data");
  c.fields.forEach(f => {
    const tr = el("tr");
    const value = el("td");
    fieldValue(value, f);
    value.dataset.field = c.name + "." + f.name;
    tr.append(el("td", f.name), el("td", f.type), value);
    const td = el("td");
    if (f.editable) {
      const input = el("input", undefined, "edit");
      input.value = f.value;
      input.dataset.edit = c.name + "." + f.name;
      input.addEventListener("input", () => { input.dataset.typed = "1"; });
      const set = el("button", "Set");
      const send = () => { edit(e.id, c.name, f.name, input.value); delete input.dataset.typed; input.blur(); };
      set.addEventListener("click", send);
      input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") send(); });
      td.append(input, set);
    } else {
      // the reason's first clause on the page, all of it on hover
      const ro = el("span", "read-only: " + f.readOnly.split(/[;:] /)[0], "readonly");
      ro.title = f.readOnly;
      ro.dataset.readonly = c.name + "." + f.name;
      td.append(ro);
    }
    tr.append(td);
    table.append(tr);
  });
  if (c.text) table.append(row([c.text]));
  box.append(table);
  return box;
}
// A field's value: a link when it holds a live entity's id.
function fieldValue(td, f) {
  const shown = td.dataset.ref === String(f.ref) && td.textContent === f.value;
  if (shown) return;
  td.textContent = "";
  if (f.ref !== undefined) td.append(entityLink(f.ref, f.value)); else td.textContent = f.value;
  td.dataset.ref = String(f.ref);
}
// One relation the inspected entity is in: its targets (a parent) and its holders (children,
// the first few and how many), each a link to that entity.
function relationBox(r, self) {
  const box = el("div", undefined, "component relation");
  box.dataset.relation = r.name;
  box.append(el("h3", "relation " + r.name));
  const line = (label, ids, more) => {
    const p = el("p", label + " ");
    ids.forEach((id, i) => { if (i) p.append(", "); p.append(entityLink(id)); });
    if (more > 0) {
      p.append(` and ${more} more (`);
      const all = el("a", "list them"); all.href = "#/query?q=" + encodeURIComponent(r.name + "(" + self + ")");
      p.append(all, ")");
    }
    return p;
  };
  if (r.targets.length) box.append(line("targets:", r.targets, 0));
  if (r.holderCount) box.append(line(`held by ${r.holderCount}:`, r.holders, r.holderCount - r.holders.length));
  return box;
}
async function edit(id, component, field, value) {
  const body = new URLSearchParams({ entity: id, component, field, value });
  const r = await fetch("/api/edit", { method: "POST", body, headers: { "X-Orrery-Token": TOKEN } });
  const j = await r.json();
  showEdit(j.error ? { id: "-", component, field, value, status: "refused", text: "refused: " + j.error } : j);
  loadEdits();
  followEdits();
}
function showEdit(x) {
  const result = $("#edit-result");
  result.textContent = `edit ${x.id}: ${x.component}.${x.field} = ${x.value}: ${x.text}`;
  result.className = "status-" + x.status;
  result.dataset.edit = String(x.id);
  result.dataset.status = x.status;
}
let lastApplied = "";
async function loadEdits() {
  if (!currentEntity) return;
  try {
    const r = await getJson("/api/edits?entity=" + encodeURIComponent(currentEntity));
    const body = $("#edit-list tbody");
    body.textContent = "";
    r.list.forEach(x => {
      const tr = row(["#" + x.id, x.component + "." + x.field, x.value, x.text]);
      tr.className = "status-" + x.status;
      tr.dataset.edit = String(x.id);
      tr.dataset.status = x.status;
      body.append(tr);
    });
    const shown = Number($("#edit-result").dataset.edit);
    const latest = r.list.find(x => x.id === shown);
    if (latest) showEdit(latest);
    // an edit just applied: read the entity again now, so its field shows the new value
    const applied = r.list.filter(x => x.status === "applied").map(x => x.id).join(",");
    if (applied !== lastApplied) { lastApplied = applied; if (applied) inspect(currentEntity, true); }
    return r.list;
  } catch (e) { return []; }
}
// Looks at the edits again until none of this entity waits for its outcome (or a minute passes).
let following = null;
function followEdits() {
  clearInterval(following);
  const until = Date.now() + 60000;
  following = setInterval(async () => {
    const list = await loadEdits();
    if (!list || !list.some(x => x.status === "pending") || Date.now() > until) clearInterval(following);
  }, 300);
}

// ---------------------------------------------------------------- timeline: the world as it was
let timeline = null;
async function loadTimelineInfo() {
  try {
    timeline = await getJson("/api/timeline");
  } catch (e) { timeline = { available: false, message: e.message }; }
  $("#timeline-tab").style.display = timeline.available ? "" : "none";
  $("#entity-past").style.display = timeline.available ? "" : "none";
  const info = $("#timeline-info");
  if (!timeline.available) { info.textContent = timeline.message; return timeline; }
  info.title = timeline.replacedChecks ? "How a replaced recording is looked for: " + timeline.replacedChecks : "";
  if (timeline.first === undefined) { // the replay cannot start: no span to travel
    info.textContent = `Recording ${timeline.folder}: the replay cannot start: ${timeline.problem}` +
      (timeline.replaced ? ". Note: " + timeline.replaced + "." : "");
    return timeline;
  }
  info.textContent = `Recording ${timeline.folder}: ticks ${timeline.first} (its start) to ${timeline.last}. The world is ` +
    `replayed on a thread of its own, from the nearest kept snapshot (${timeline.snapshots.length} kept); ` +
    `${timeline.hashesMatched} recorded hashes matched` + (timeline.divergedAt >= 0 ? `; the replay DIVERGED at tick ${timeline.divergedAt}` +
    (timeline.divergence ? ": " + timeline.divergence : "") : "") +
    (timeline.ending ? "; at its end " + timeline.ending : "") + (timeline.problem ? "; " + timeline.problem : "") + "." +
    (timeline.replaced ? " Note: " + timeline.replaced + "." : "");
  const range = $("#tl-range");
  range.min = timeline.first; range.max = timeline.last;
  return timeline;
}
const tlParam = (id) => $(id).value.trim();
function travelTo(changes) {
  const p = new URLSearchParams();
  const tick = changes.tick !== undefined ? changes.tick : tlParam("#tl-tick");
  const vs = changes.vs !== undefined ? changes.vs : tlParam("#tl-vs");
  if (tick !== "") p.set("tick", tick);
  if (vs !== "") p.set("vs", vs);
  if (tlParam("#tl-entity")) p.set("id", tlParam("#tl-entity"));
  if (tlParam("#tl-query")) p.set("q", tlParam("#tl-query"));
  go("#/timeline?" + p.toString());
}
$("#timeline-form").addEventListener("submit", (ev) => { ev.preventDefault(); travelTo({}); });
$("#tl-range").addEventListener("change", () => travelTo({ tick: $("#tl-range").value }));
$("#tl-range").addEventListener("input", () => { $("#tl-tick").value = $("#tl-range").value; });
$("#tl-back").addEventListener("click", () => travelTo({ tick: String(Number(tlParam("#tl-tick")) - 1) }));
$("#tl-fwd").addEventListener("click", () => travelTo({ tick: String(Number(tlParam("#tl-tick")) + 1) }));
$("#tl-now").addEventListener("click", async () => { const t = await loadTimelineInfo(); if (t.last !== undefined) travelTo({ vs: String(t.last) }); });
// Shows the entity and the query of the address as they were after its tick, and what differs at the compared tick.
async function travel(params) {
  const t = await loadTimelineInfo();
  $("#tl-error").textContent = "";
  if (!t.available) return;
  if (t.first === undefined) { $("#tl-error").textContent = t.problem; return; }
  const tick = params.get("tick") !== null ? Number(params.get("tick")) : Math.max(t.first, t.last - 60);
  const vs = params.get("vs") !== null ? Number(params.get("vs")) : t.last;
  const id = params.get("id") || "", q = params.get("q") || "";
  $("#tl-tick").value = tick; $("#tl-range").value = tick; $("#tl-vs").value = vs;
  $("#tl-entity").value = id; $("#tl-query").value = q;
  $("#tl-at").textContent = tick;
  $("#tl-diff-a").textContent = "after tick " + tick; $("#tl-diff-b").textContent = "after tick " + vs;
  const view = $("#tl-entity-view");
  const diffBody = $("#tl-diff tbody");
  try {
    if (id) {
      view.textContent = "replaying to tick " + tick + "...";
      const past = await getJson(`/api/past/entity?tick=${tick}&id=${encodeURIComponent(id)}`);
      const e = past.entity;
      const box = el("div");
      box.append(el("p", `entity ${e.id} (${e.text}) ${e.alive ? "alive" : "not alive"} after tick ${past.tick}`));
      if (e.message) box.append(el("p", e.message, "error"));
      e.components.forEach(c => box.append(componentBox(e, c)));
      box.querySelectorAll("span.readonly").forEach(x => x.parentElement.remove()); // the past is read-only as a whole
      (e.relations || []).forEach(r => box.append(relationBox(r, e.id)));
      view.replaceChildren(...box.childNodes);
      view.dataset.tick = String(past.tick);
      const d = await getJson(`/api/past/diff?from=${tick}&to=${vs}&id=${encodeURIComponent(id)}`);
      $("#tl-diff-title").textContent = `(${d.changed} of ${d.fields} between tick ${d.from} and tick ${d.to})`;
      diffBody.textContent = "";
      if (!d.aliveFrom || !d.aliveTo) diffBody.append(row(["alive", String(d.aliveFrom), String(d.aliveTo)]));
      d.changes.forEach(c => {
        const tr = row([c.field, c.from === null ? "(none)" : c.from, c.to === null ? "(none)" : c.to]);
        tr.children[1].className = "from"; tr.children[2].className = "to";
        tr.dataset.field = c.field;
        diffBody.append(tr);
      });
    } else {
      view.textContent = "type an entity id to see it as it was";
      diffBody.textContent = "";
    }
    const qBody = $("#tl-query-diff tbody");
    qBody.textContent = "";
    $("#tl-query-summary").textContent = "";
    if (q) {
      const d = await getJson(`/api/past/diff?from=${tick}&to=${vs}&q=${encodeURIComponent(q)}`);
      $("#tl-query-title").textContent = `'${q}'`;
      const sum = $("#tl-query-summary");
      sum.textContent = `${d.countFrom} entities matched after tick ${d.from}, ${d.countTo} after tick ${d.to}: ` +
        `${d.addedCount} came, ${d.removedCount} went.`;
      sum.dataset.countFrom = String(d.countFrom);
      sum.dataset.countTo = String(d.countTo);
      for (let i = 0; i < Math.max(d.added.length, d.removed.length); i++) {
        qBody.append(row([i < d.added.length ? entityLink(d.added[i]) : "", i < d.removed.length ? entityLink(d.removed[i]) : ""]));
      }
    }
  } catch (err) { $("#tl-error").textContent = err.message; if (view.textContent.startsWith("replaying")) view.textContent = ""; }
  loadTimelineInfo(); // where the replay stands now, and the hashes it matched on the way
}

// ---------------------------------------------------------------- live map
$("#map-canvas").addEventListener("click", (ev) => {
  if (!mapPoints) return;
  const c = ev.target, rect = c.getBoundingClientRect();
  const x = (ev.clientX - rect.left) / c.width * mapPoints.width, y = (ev.clientY - rect.top) / c.height * mapPoints.height;
  let best = null, bestD = Infinity;
  mapPoints.points.forEach(p => { const d = (p[1] - x) ** 2 + (p[2] - y) ** 2; if (d < bestD) { bestD = d; best = p; } });
  if (best) go("#/entity/" + best[0]);
});
async function loadMap() {
  const m = await getJson("/api/map?max=20000");
  mapPoints = m;
  const c = $("#map-canvas"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  const sx = c.width / m.width, sy = c.height / m.height;
  const small = m.kinds.length - 1;
  m.points.forEach(p => {
    g.fillStyle = COLORS[p[3] % COLORS.length];
    const size = p[3] === small && m.kinds.length > 1 ? 1.5 : 2.5;
    g.fillRect(p[1] * sx - 1, p[2] * sy - 1, size, size);
  });
  $("#map-info").textContent = `(${m.points.length} of ${m.total} entities drawn; click a point to inspect it)`;
  const legend = $("#map-legend"); legend.textContent = "";
  m.kinds.forEach((k, i) => { const s = el("span", "\u25A0 " + k + "  "); s.style.color = COLORS[i % COLORS.length]; legend.append(s); });
  return m;
}

start();
