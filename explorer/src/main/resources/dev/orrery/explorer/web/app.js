// The Orrery explorer page: reads the JSON API and the event stream of the explorer that serves it.
"use strict";
const $ = (sel) => document.querySelector(sel);
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
const getJson = async (path) => { const r = await fetch(path); const j = await r.json(); if (!r.ok) throw new Error(j.error || r.status); return j; };
const COLORS = ["#e4572e", "#4a6cf7", "#17a398", "#f3a712", "#8e44ad", "#2e86de", "#c0392b", "#27ae60", "#1d2330"];
let summary = null;
let mapTimer = null;
let mapPoints = null;

// ---------------------------------------------------------------- tabs
document.querySelectorAll("nav button").forEach(b => b.addEventListener("click", () => show(b.dataset.tab)));
function show(tab) {
  document.querySelectorAll("nav button").forEach(b => b.classList.toggle("on", b.dataset.tab === tab));
  document.querySelectorAll(".tab").forEach(s => s.classList.toggle("on", s.id === tab));
  clearInterval(mapTimer);
  if (tab === "schedule") loadGraph();
  if (tab === "world") loadWorld();
  if (tab === "map") { loadMap(); mapTimer = setInterval(loadMap, 500); }
}

// ---------------------------------------------------------------- overview: figures, chart, systems
const series = [[], [], []];
const chart = new uPlot({
  width: 900, height: 260,
  series: [{}, { label: "p50 ms", stroke: "#4a6cf7", width: 2 }, { label: "p99 ms", stroke: "#e4572e", width: 2 }],
  axes: [{}, { label: "ms" }],
}, series, $("#chart"));

function figure(id, label, value) {
  let f = document.getElementById(id);
  if (!f) { f = el("div", undefined, "figure"); f.id = id; f.append(el("span", label), el("b")); $("#figures").append(f); }
  f.querySelector("b").textContent = value;
}

function update(s) {
  figure("fig-tick", "tick", s.tick);
  figure("fig-tps", "ticks/s", s.tps.toFixed(1));
  figure("fig-entities", "entities", s.entities);
  figure("fig-p50", "p50 ms", s.p50);
  figure("fig-p99", "p99 ms", s.p99);
  figure("fig-max", "max ms", s.max);
  series[0].push(Date.now() / 1000); series[1].push(s.p50); series[2].push(s.p99);
  if (series[0].length > 600) series.forEach(a => a.shift());
  chart.setData(series);
  drawSystems(s.systems);
}

function drawSystems(times) {
  const box = $("#systems");
  if (!summary) return;
  if (!times) { box.textContent = "timing the systems from the next tick..."; return; }
  box.textContent = "";
  const top = Math.max(...times, 1e-6);
  summary.systemNames.forEach((name, i) => {
    const row = el("div", undefined, "bar");
    const fill = el("div", undefined, "fill");
    fill.style.width = Math.max(1, 400 * times[i] / top) + "px";
    row.append(el("span", name, "name"), fill, el("span", times[i].toFixed(3)));
    box.append(row);
  });
}

async function loadSummary() {
  try {
    summary = await getJson("/api/summary");
    $("#state").textContent = `next tick ${summary.nextTick}, workers ${summary.workers}, seed ${summary.seed}, ` +
      `entities ${summary.entities}, last hash ${summary.lastHash}, skipped ticks ${summary.skippedTicks}\n` +
      `commands: ${summary.commands}`;
    $("#edit-mode").textContent = summary.edits ? "edits on: change a value and press Set (it is sent as an input)" : "read-only (edits are off)";
    $("#map-tab").style.display = summary.map ? "" : "none";
  } catch (e) { $("#state").textContent = "summary: " + e.message; }
}

const stream = new EventSource("/api/stream");
stream.onmessage = (m) => { $("#status").textContent = "live"; update(JSON.parse(m.data)); };
stream.onerror = () => { $("#status").textContent = "stream lost; retrying"; };
loadSummary();
setInterval(loadSummary, 2000);

// ---------------------------------------------------------------- schedule graph
let graphDrawn = false;
async function loadGraph() {
  if (graphDrawn) return;
  const g = await getJson("/api/graph");
  $("#graph-text").textContent = g.text;
  const svg = await new Viz().renderSVGElement(g.dot);
  $("#graph").textContent = "";
  $("#graph").append(svg);
  graphDrawn = true;
}

// ---------------------------------------------------------------- world: archetypes, named instances, resources
function fillTable(sel, rows) {
  const body = $(sel + " tbody");
  body.textContent = "";
  rows.forEach(cells => { const tr = el("tr"); cells.forEach(c => tr.append(el("td", String(c)))); body.append(tr); });
}
async function loadWorld() {
  const a = await getJson("/api/archetypes");
  fillTable("#archetypes", a.archetypes.map((x, i) => [i, x.columns.join(", ") || "(none)", x.rows, x.chunks])
    .concat(a.sparse.length ? [["sparse", a.sparse.join(", "), "", ""]] : []));
  const n = await getJson("/api/named");
  fillTable("#named", n.map(x => [x.type, x.instances.join(", ")]));
  const r = await getJson("/api/resources");
  fillTable("#resources", r.map(x => [x.name, x.type, x.codec ? "yes" : "no", x.codec ? x.bytes : "", x.codec ? x.text : ""]));
}

// ---------------------------------------------------------------- entity inspector and edits
$("#entity-form").addEventListener("submit", (ev) => { ev.preventDefault(); inspect($("#entity-id").value.trim()); });
// Bumped by every inspection the user asks for (form, map, link). An answer that comes back
// after a newer inspection was asked for is dropped, and an edit's follow-up looks stop, so
// neither replaces the entity the user moved on to.
let inspections = 0;
async function inspect(id, followUp) {
  const mine = followUp ? inspections : ++inspections;
  $("#entity-id").value = id;
  const view = $("#entity-view");
  try {
    const e = await getJson("/api/entity?id=" + encodeURIComponent(id));
    if (mine !== inspections) return;
    view.textContent = "";
    view.append(el("p", `entity ${e.id} (index ${e.index}) ${e.alive ? "alive" : "not alive"}`));
    e.components.forEach(c => {
      const box = el("div", undefined, "component");
      box.append(el("h3", c.name + (c.name !== c.type ? " (" + c.type + ")" : "") + (c.sparse ? " sparse" : "")));
      const table = el("table");
      c.fields.forEach(f => {
        const tr = el("tr");
        const value = el("td", f.value);
        value.dataset.field = c.name + "." + f.name;
        tr.append(el("td", f.name), el("td", f.type), value);
        if (summary && summary.edits) {
          const input = el("input", undefined, "edit");
          input.value = f.value;
          input.dataset.edit = c.name + "." + f.name;
          const set = el("button", "Set");
          set.addEventListener("click", () => edit(e.id, c.name, f.name, input.value));
          const td = el("td"); td.append(input, set); tr.append(td);
        }
        table.append(tr);
      });
      if (c.text) table.append(el("tr")).append(el("td", c.text));
      box.append(table);
      view.append(box);
    });
    (e.relations || []).forEach(r => view.append(relationBox(r)));
  } catch (err) { if (mine === inspections) view.textContent = "entity " + id + ": " + err.message; }
}
// One relation the inspected entity is in: its targets (a parent) and its holders (children,
// the first few and how many), each a link that inspects that entity.
function relationBox(r) {
  const box = el("div", undefined, "component relation");
  box.dataset.relation = r.name;
  box.append(el("h3", "relation " + r.name));
  const link = (id) => {
    const a = el("a", String(id));
    a.href = "#"; a.dataset.entity = String(id);
    a.addEventListener("click", (ev) => { ev.preventDefault(); inspect(String(id)); });
    return a;
  };
  const row = (label, ids, more) => {
    const p = el("p", label + " ");
    ids.forEach((id, i) => { if (i) p.append(", "); p.append(link(id)); });
    if (more > 0) p.append(` and ${more} more`);
    return p;
  };
  if (r.targets.length) box.append(row("targets:", r.targets, 0));
  if (r.holderCount) box.append(row(`held by ${r.holderCount}:`, r.holders, r.holderCount - r.holders.length));
  return box;
}
async function edit(id, component, field, value) {
  const body = new URLSearchParams({ entity: id, component, field, value });
  const r = await fetch("/api/edit", { method: "POST", body });
  const j = await r.json();
  const result = $("#edit-result");
  result.textContent = r.ok ? `taken: ${component}.${field} = ${value} (applied at a coming tick)` : "refused: " + j.error;
  if (!r.ok) return;
  // An edit is an input, applied at a coming tick, and a busy tick thread may take a while:
  // look again until the field shows the value, the user inspects something else, or 20 s pass.
  const mine = inspections, key = component + "." + field, until = Date.now() + 20000;
  const look = async () => {
    if (inspections !== mine) return;
    await inspect(String(id), true);
    const td = [...document.querySelectorAll("td[data-field]")].find(t => t.dataset.field === key);
    if (td && sameValue(td.textContent, value)) {
      result.textContent = `taken: ${component}.${field} = ${value} (applied)`;
    } else if (!td || Date.now() > until) {
      result.textContent = `taken: ${component}.${field} = ${value} (not seen applied: the entity died, its field `
        + "rules changed the value, or the tick thread is far behind)";
    } else {
      setTimeout(look, 400);
    }
  };
  setTimeout(look, 400);
}
// A shown field value equals the typed one: as numbers when both are, else as text.
function sameValue(shown, typed) {
  const a = Number(shown), b = Number(typed);
  return shown.trim() !== "" && !isNaN(a) && !isNaN(b) ? a === b : shown.trim() === typed.trim();
}

// ---------------------------------------------------------------- live map
$("#map-canvas").addEventListener("click", (ev) => {
  if (!mapPoints) return;
  const c = ev.target, rect = c.getBoundingClientRect();
  const x = (ev.clientX - rect.left) / c.width * mapPoints.width, y = (ev.clientY - rect.top) / c.height * mapPoints.height;
  let best = null, bestD = Infinity;
  mapPoints.points.forEach(p => { const d = (p[1] - x) ** 2 + (p[2] - y) ** 2; if (d < bestD) { bestD = d; best = p; } });
  if (best) { show("entity"); inspect(String(best[0])); }
});
async function loadMap() {
  const m = await getJson("/api/map?max=20000");
  mapPoints = m;
  const c = $("#map-canvas"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  const sx = c.width / m.width, sy = c.height / m.height;
  m.points.forEach(p => { g.fillStyle = COLORS[p[3] % COLORS.length]; g.fillRect(p[1] * sx - 1, p[2] * sy - 1, p[3] === m.kinds.length - 1 ? 1.5 : 2.5, p[3] === m.kinds.length - 1 ? 1.5 : 2.5); });
  $("#map-info").textContent = `(${m.points.length} of ${m.total} entities drawn; click a point to inspect it)`;
  const legend = $("#map-legend"); legend.textContent = "";
  m.kinds.forEach((k, i) => { const s = el("span", "\u25A0 " + k + "  "); s.style.color = COLORS[i % COLORS.length]; legend.append(s); });
}
