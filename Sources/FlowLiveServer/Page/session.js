"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const auth = { "Authorization": "Bearer " + token };
let last = "", state = null;
const cleared = new Map();   // program id -> time of the last line cleared
const scrolls = new Map();   // program id -> where its console was scrolled to
const $ = id => document.getElementById(id);
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
const phases = { start: "starting", reload: "reloading", delivery: "delivering a resource", run: "running" };
function time(seconds) { return new Date(seconds * 1000).toLocaleTimeString(); }
function link(href, text) {
  if (!href) return el("span", null, text);
  const a = el("a", "open", text);
  a.href = href;
  return a;
}
function copyable(text) {
  const span = el("span", "copy");
  span.appendChild(el("code", "location", text));
  const button = el("button", "link", "copy");
  button.type = "button";
  button.addEventListener("click", () => {
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  });
  span.appendChild(document.createTextNode(" "));
  span.appendChild(button);
  return span;
}
function table(headings, rows) {
  const t = el("table");
  const head = el("tr");
  for (const h of headings) head.appendChild(el("th", null, h));
  t.appendChild(head);
  for (const row of rows) {
    const tr = el("tr");
    for (const cell of row) {
      const td = el("td", cell && !(cell instanceof Node) && cell.className || null);
      if (cell instanceof Node) td.appendChild(cell);
      else if (cell && cell.node) td.appendChild(cell.node);
      else td.textContent = cell && cell.text !== undefined ? cell.text : String(cell);
      tr.appendChild(td);
    }
    t.appendChild(tr);
  }
  return t;
}
function renderDiagnostics(list) {
  const box = $("diagnostics");
  box.replaceChildren();
  if (list.length === 0) { box.appendChild(el("p", "empty", "No problems.")); return; }
  for (const d of list) {
    const row = el("div", "diag-" + d.severity);
    if (d.file) {
      const place = d.file + (d.line ? ":" + d.line + (d.column ? ":" + d.column : "") : "");
      row.appendChild(link(d.link, place));
      row.appendChild(document.createTextNode(" "));
      row.appendChild(copyable(d.file + ":" + (d.line || 1) + ":" + (d.column || 1)));
      row.appendChild(document.createTextNode(" "));
    }
    row.appendChild(document.createTextNode(d.severity + ": " + d.message + " [" + d.code + "]"));
    box.appendChild(row);
  }
}
function renderConsole(p) {
  const box = el("div", "console");
  const filter = $("filter").value, errorsOnly = $("errors-only").checked;
  const keep = Math.max(10, parseInt($("keep").value, 10) || 500);
  const since = cleared.get(p.program.id) || 0;
  let entries = p.console.filter(l => l.time > since).map(l => ({ time: l.time, line: l }));
  for (const r of p.reloads) if (r.time > since) entries.push({ time: r.time, reload: r });
  entries.sort((a, b) => a.time - b.time);
  entries = entries.filter(e => {
    if (e.reload) return !filter && !errorsOnly;
    if (errorsOnly && e.line.stream !== "stderr" && !/error/i.test(e.line.text)) return false;
    return !filter || e.line.text.includes(filter);
  });
  const lines = entries.filter(e => e.line).length;
  const dropped = (since ? 0 : p.consoleDropped || 0) + Math.max(0, lines - keep);
  let skip = Math.max(0, lines - keep);
  if (dropped > 0) box.appendChild(el("div", "line dropped", dropped + " dropped"));
  for (const e of entries) {
    if (e.reload) {
      box.appendChild(el("div", "line separator",
        "── reloaded " + e.reload.modules.concat(e.reload.resources).join(", ") + " at " + time(e.reload.time) + " ──"));
    } else if (skip > 0) {
      skip -= 1;
    } else {
      box.appendChild(el("div", "line " + e.line.stream, e.line.text));
    }
  }
  if (entries.length === 0) box.appendChild(el("div", "line log", since ? "(cleared)" : "(no output yet)"));
  box.addEventListener("scroll", () => scrolls.set(p.program.id, box.scrollTop));
  return box;
}
function errorBody(e) {
  const body = el("div");
  const when = el("div", "when", time(e.time) + " while " + (phases[e.phase] || e.phase));
  if (e.file) {
    when.appendChild(document.createTextNode(" · "));
    when.appendChild(link(e.link, e.file + ":" + e.line));
    when.appendChild(document.createTextNode(" "));
    when.appendChild(copyable(e.file + ":" + e.line + ":1"));
  }
  body.appendChild(when);
  body.appendChild(el("pre", "message", e.text));
  if (e.source.length > 0) {
    const source = el("pre", "source");
    for (const s of e.source) {
      source.appendChild(el("div", s.number === e.line ? "here" : null, String(s.number).padStart(5) + "  " + s.text));
    }
    body.appendChild(source);
  }
  return body;
}
function lastReload(p, name) {
  let latest = null;
  for (const r of p.reloads) if (r.modules.includes(name) || r.resources.includes(name)) latest = r.time;
  return latest;
}
async function showModule(name) {
  const section = $("module-section");
  section.hidden = false;
  $("module-title").textContent = "Module " + name + " (as the project has it now)";
  const text = $("module-text");
  try {
    const answer = await fetch("{{LiveProtocol.modulePath}}?name=" + encodeURIComponent(name), { headers: auth, cache: "no-store" });
    text.textContent = answer.ok ? await answer.text() : "server answered " + answer.status;
  } catch (e) {
    text.textContent = "flowpkg serve is not reachable";
  }
  section.scrollIntoView();
}
function renderProgram(p) {
  const connected = !p.ended;
  const box = el("section", connected ? "program" : "program disconnected");
  const who = p.program;
  const title = el("h3", "name", who.identifier + " (pid " + who.processID + ")");
  title.appendChild(el("span", "badge", connected ? "connected" : "disconnected"));
  box.appendChild(title);
  box.appendChild(el("div", "identity",
    "host " + who.hostName + " · " + who.platform + (who.version ? " · version " + who.version : "") +
    (who.digest ? " · digest " + who.digest.slice(0, 16) : "") +
    (connected ? " · last heard " + time(p.lastSeen) : " · disconnected at " + time(p.ended) + ", its last state below") +
    (p.dropped > 0 ? " · " + p.dropped + " events dropped (the program wrote faster than they could be sent)" : "") +
    (p.discarded > 0 ? " · " + p.discarded + " dropped (older entries, to keep the server's memory bounded)" : "")));
  box.appendChild(el("h3", null, "Console"));
  const console = renderConsole(p);
  box.appendChild(console);
  const current = p.errors.filter(e => !e.fixed).reverse(), fixed = p.errors.filter(e => e.fixed).reverse();
  box.appendChild(el("h3", "errors-title", "Errors (" + current.length + " current" + (fixed.length ? ", " + fixed.length + " fixed" : "") + ")"));
  for (const e of current) { const item = el("div", "error current"); item.appendChild(errorBody(e)); box.appendChild(item); }
  for (const e of fixed) {
    const item = el("details", "error fixed");
    item.appendChild(el("summary", null, "fixed at " + time(e.fixed) + ": " + e.text.split("\n")[0]));
    item.appendChild(errorBody(e));
    box.appendChild(item);
  }
  const search = $("item-search").value.toLowerCase();
  const items = p.loaded.filter(i => !search || i.name.toLowerCase().includes(search))
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : a.kind < b.kind ? -1 : 1);
  box.appendChild(el("h3", null, "Loaded items (" + items.length + (search ? " of " + p.loaded.length : "") + ")"));
  box.appendChild(table(["kind", "name", "source", "last reload", "size", "SHA-256"],
    items.map(i => {
      let name = i.name;
      if (i.kind === "module") {
        name = el("button", "link module-name", i.name);
        name.type = "button";
        name.addEventListener("click", () => showModule(i.name));
      }
      const reloaded = lastReload(p, i.name);
      return [i.kind, name, i.source, reloaded ? time(reloaded) : "loaded " + time(i.loadedAt), String(i.size),
        { text: i.sha256, className: "hash" }];
    })));
  box.appendChild(el("h3", null, "Reloads"));
  if (p.reloads.length === 0) box.appendChild(el("p", "empty", "No reload yet."));
  else box.appendChild(table(["time", "modules and resources", "ms"],
    p.reloads.slice().reverse().map(r => [time(r.time), r.modules.concat(r.resources).join(", "), r.milliseconds.toFixed(1)])));
  return { box, console, id: who.id };
}
function render() {
  if (!state) return;
  $("project").textContent = state.project.name + " (" + state.project.identifier + ") revision " + state.project.revision;
  renderDiagnostics(state.diagnostics);
  const programs = $("programs");
  programs.replaceChildren();
  if (state.programs.length === 0) programs.appendChild(el("p", "empty", "No program has reported yet."));
  const follow = $("follow").checked;
  for (const p of state.programs) {
    const shown = renderProgram(p);
    programs.appendChild(shown.box);
    const c = shown.console;
    c.scrollTop = follow || !scrolls.has(shown.id) ? c.scrollHeight : scrolls.get(shown.id);
  }
}
$("controls").hidden = false;
for (const id of ["filter", "errors-only", "follow", "keep", "item-search"]) $(id).addEventListener("input", render);
let clearPending = false;      // cleared before the first state came: applied when it comes
function clearConsoles() {
  clearPending = !state;
  if (!state) {
    for (const box of document.querySelectorAll("#programs .console")) box.replaceChildren();
    return;
  }
  for (const p of state.programs) {
    let latest = 0;
    for (const l of p.console) latest = Math.max(latest, l.time);
    for (const r of p.reloads) latest = Math.max(latest, r.time);
    cleared.set(p.program.id, latest);
  }
  render();
}
$("clear").addEventListener("click", clearConsoles);
async function poll() {
  const status = $("status");
  try {
    const answer = await fetch("{{LiveProtocol.sessionStatePath}}", { headers: auth, cache: "no-store" });
    const body = await answer.text();
    if (!answer.ok) {
      let message = body;
      try { message = JSON.parse(body).error; } catch (e) {}
      status.textContent = "server answered " + answer.status + ": " + message;
    } else {
      status.textContent = "updated " + new Date().toLocaleTimeString();
      if (body !== last) { last = body; state = JSON.parse(body); if (clearPending) clearConsoles(); else render(); }
    }
  } catch (e) {
    status.textContent = "flowpkg serve is not reachable; retrying";
  }
  setTimeout(poll, 1000);
}
poll();
