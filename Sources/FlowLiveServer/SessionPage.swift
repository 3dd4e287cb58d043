import FlowPackage
import FlowLiveProtocol
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The session page `flowpkg serve` serves at `/session?token=…`: one self-contained HTML
/// document (styles and script inline, nothing fetched from elsewhere, so it works offline).
///
/// Its script asks `/v1/session` for the state every second, with the token from the page's
/// own address, and builds the page with DOM calls: every text a program sent is set with
/// `textContent`, never parsed as HTML. The Content-Security-Policy allows only this script
/// (by its hash) and requests to this server, so even markup that slipped through could run
/// nothing.
enum SessionPage {
    static var html: String {
        let hash = Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString()
        let consoleHash = Data(SHA256.hash(data: Data(consoleScript.utf8))).base64EncodedString()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-\(hash)' 'sha256-\(consoleHash)'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>flowpkg live session</title>
            <style>\(style)</style>
            </head>
            <body>
            <header><h1>flowpkg live session</h1><span id="project"></span><span id="status">connecting…</span></header>
            <main>
            <section id="diagnostics-section"><h2>Project diagnostics (flowpkg validate)</h2><div id="diagnostics"></div></section>
            <section id="programs-section"><h2>Connected programs</h2><div id="programs"><p class="empty">No program has reported yet. Start one with flowpkg run --live URL --token TOKEN --watch.</p></div></section>
            \(consoleSection)
            </main>
            <script>\(script)</script>
            <script>\(consoleScript)</script>
            </body>
            </html>
            """
    }

    static let style = """
        body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
        header { display: flex; gap: 1em; align-items: baseline; padding: .5em 1em; background: #263238; color: #fff; }
        header h1 { font-size: 1.1em; margin: 0; }
        #status { margin-left: auto; font-size: .9em; opacity: .8; }
        main { padding: 0 1em 2em; }
        h2 { font-size: 1em; margin: 1.2em 0 .4em; }
        h3 { font-size: 1em; margin: .8em 0 .3em; }
        .program { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .5em 1em; margin-bottom: 1em; }
        .identity { color: #555; font-size: .9em; }
        .program.ended { opacity: .7; }
        pre, .console { font: 12px/1.35 ui-monospace, Menlo, monospace; }
        .console { background: #111; color: #ddd; padding: .5em; max-height: 24em; overflow: auto; white-space: pre-wrap; border-radius: 4px; }
        .console .stderr { color: #ff8a80; }
        .console .log { color: #80d8ff; }
        .error { border-left: 4px solid #c62828; background: #fff5f5; padding: .3em .6em; margin: .4em 0; }
        .error pre { white-space: pre-wrap; margin: .2em 0; }
        .source { background: #f3f3f3; }
        .source .here { background: #ffcdd2; font-weight: bold; }
        table { border-collapse: collapse; font-size: .9em; }
        td, th { border-bottom: 1px solid #eee; padding: .15em .6em; text-align: left; }
        td.hash { font-family: ui-monospace, monospace; font-size: .85em; }
        .diag-error { color: #c62828; } .diag-warning { color: #ef6c00; }
        .empty { color: #777; }
        """

    static let script = """
        "use strict";
        const token = new URLSearchParams(location.search).get("token") || "";
        let last = "";
        let consoles = [];
        function el(tag, className, text) {
          const node = document.createElement(tag);
          if (className) node.className = className;
          if (text !== undefined && text !== null) node.textContent = String(text);
          return node;
        }
        const phases = { start: "starting", reload: "reloading", delivery: "delivering a resource", run: "running" };
        function time(seconds) { return new Date(seconds * 1000).toLocaleTimeString(); }
        function table(headings, rows) {
          const t = el("table");
          const head = el("tr");
          for (const h of headings) head.appendChild(el("th", null, h));
          t.appendChild(head);
          for (const row of rows) {
            const tr = el("tr");
            for (const cell of row) tr.appendChild(el("td", cell.className || null, cell.text !== undefined ? cell.text : cell));
            t.appendChild(tr);
          }
          return t;
        }
        function renderDiagnostics(list) {
          const box = document.getElementById("diagnostics");
          box.replaceChildren();
          if (list.length === 0) { box.appendChild(el("p", "empty", "No problems.")); return; }
          for (const d of list) {
            const where = d.file ? d.file + (d.line ? ":" + d.line + (d.column ? ":" + d.column : "") : "") + ": " : "";
            box.appendChild(el("div", "diag-" + d.severity, where + d.severity + ": " + d.message + " [" + d.code + "]"));
          }
        }
        function renderProgram(p) {
          const box = el("section", p.ended ? "program ended" : "program");
          const who = p.program;
          box.appendChild(el("h3", "name", who.identifier + " (pid " + who.processID + ")"));
          box.appendChild(el("div", "identity",
            "host " + who.hostName + " · " + who.platform + (who.version ? " · version " + who.version : "") +
            (who.digest ? " · digest " + who.digest.slice(0, 16) : "") + (p.ended ? " · ended its session at " + time(p.ended) : " · last heard " + time(p.lastSeen)) +
            (p.dropped > 0 ? " · " + p.dropped + " events dropped (the program wrote faster than they could be sent)" : "")));
          box.appendChild(el("h3", null, "Console"));
          const console = el("div", "console");
          for (const line of p.console) console.appendChild(el("div", "line " + line.stream, line.text));
          if (p.console.length === 0) console.appendChild(el("div", "line log", "(no output yet)"));
          box.appendChild(console);
          consoles.push(console);
          box.appendChild(el("h3", null, "Errors (" + p.errors.length + ")"));
          for (const e of p.errors.slice().reverse()) {
            const item = el("div", "error");
            item.appendChild(el("div", "when", time(e.time) + " while " + (phases[e.phase] || e.phase) + (e.file ? " · " + e.file + ":" + e.line : "")));
            item.appendChild(el("pre", "message", e.text));
            if (e.source.length > 0) {
              const source = el("pre", "source");
              for (const s of e.source) {
                source.appendChild(el("div", s.number === e.line ? "here" : null, String(s.number).padStart(5) + "  " + s.text));
              }
              item.appendChild(source);
            }
            box.appendChild(item);
          }
          box.appendChild(el("h3", null, "Loaded items (" + p.loaded.length + ")"));
          box.appendChild(table(["kind", "name", "source", "size", "SHA-256", "loaded"],
            p.loaded.map(i => [i.kind, i.name, i.source, String(i.size), { text: i.sha256, className: "hash" }, time(i.loadedAt)])));
          box.appendChild(el("h3", null, "Reloads"));
          if (p.reloads.length === 0) box.appendChild(el("p", "empty", "No reload yet."));
          else box.appendChild(table(["time", "modules and resources", "ms"],
            p.reloads.slice().reverse().map(r => [time(r.time), r.modules.concat(r.resources).join(", "), r.milliseconds.toFixed(1)])));
          return box;
        }
        function render(state) {
          document.getElementById("project").textContent =
            state.project.name + " (" + state.project.identifier + ") revision " + state.project.revision;
          renderDiagnostics(state.diagnostics);
          const programs = document.getElementById("programs");
          programs.replaceChildren();
          consoles = [];
          if (state.programs.length === 0) programs.appendChild(el("p", "empty", "No program has reported yet."));
          for (const p of state.programs) programs.appendChild(renderProgram(p));
          for (const c of consoles) c.scrollTop = c.scrollHeight;  // the newest lines in view
        }
        async function poll() {
          const status = document.getElementById("status");
          try {
            const answer = await fetch("\(LiveProtocol.sessionStatePath)", { headers: { "Authorization": "Bearer " + token }, cache: "no-store" });
            const body = await answer.text();
            if (!answer.ok) {
              let message = body;
              try { message = JSON.parse(body).error; } catch (e) {}
              status.textContent = "server answered " + answer.status + ": " + message;
            } else {
              status.textContent = "updated " + new Date().toLocaleTimeString();
              if (body !== last) { last = body; render(JSON.parse(body)); }
            }
          } catch (e) {
            status.textContent = "flowpkg serve is not reachable; retrying";
          }
          setTimeout(poll, 1000);
        }
        poll();
        """
}
