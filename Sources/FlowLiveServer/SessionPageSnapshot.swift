import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The session page's state written out as HTML, for the page's first paint and for a browser
/// without JavaScript (which reloads the page to see it change). Every text is escaped
/// (`escaped(_:)`): what a program printed shows as text.
struct SessionPageSnapshot {
    var state: SessionState

    var projectLine: String {
        Self.escaped("\(state.project.name) (\(state.project.identifier)) revision \(state.project.revision)")
    }

    var statusLine: String { "as of " + Self.time(Date().timeIntervalSince1970) }

    var diagnostics: String {
        if state.diagnostics.isEmpty { return "<p class=\"empty\">No problems.</p>" }
        return state.diagnostics.map { d in
            let place = Self.place(file: d.file, line: d.line, column: d.column)
            let location = place.isEmpty ? "" : Self.link(d.link, place) + ": "
            return "<div class=\"diag-\(Self.escaped(d.severity))\">\(location)"
                + Self.escaped("\(d.severity): \(d.message) [\(d.code)]") + "</div>"
        }.joined(separator: "\n")
    }

    var programs: String {
        if state.programs.isEmpty {
            return "<p class=\"empty\">No program has reported yet. Start one with flowpkg dev, "
                + "or flowpkg run --live URL --token TOKEN --watch.</p>"
        }
        return state.programs.map(program).joined(separator: "\n")
    }

    private func program(_ p: ProgramSessions.Program) -> String {
        let who = p.program
        let connected = p.ended == nil
        var html = "<section class=\"program\(connected ? "" : " disconnected")\">"
        html += "<h3 class=\"name\">\(Self.escaped("\(who.identifier) (pid \(who.processID))"))"
        html += "<span class=\"badge\">\(connected ? "connected" : "disconnected")</span></h3>"
        let heard =
            p.ended.map { "disconnected at \(Self.time($0)), its last state below" }
            ?? "last heard \(Self.time(p.lastSeen))"
        html +=
            "<div class=\"identity\">" + Self.escaped("host \(who.hostName) · \(who.platform) · \(heard)") + "</div>"
        html += "<h3>Console</h3><div class=\"console\">"
        let shown = p.console.suffix(200)
        let dropped = p.consoleDropped + p.console.count - shown.count
        if dropped > 0 { html += "<div class=\"line dropped\">\(dropped) dropped</div>" }
        for line in shown {
            html += "<div class=\"line \(Self.escaped(line.stream))\">\(Self.escaped(line.text))</div>"
        }
        html += "</div>"
        let current = p.errors.filter { $0.fixed == nil }.reversed(), fixed = p.errors.filter { $0.fixed != nil }
        html += "<h3>Errors (\(current.count) current\(fixed.isEmpty ? "" : ", \(fixed.count) fixed"))</h3>"
        for error in current { html += "<div class=\"error\">\(errorBody(error))</div>" }
        for error in fixed.reversed() {
            let first = error.text.split(separator: "\n").first.map(String.init) ?? ""
            html +=
                "<details class=\"error fixed\"><summary>fixed: \(Self.escaped(first))</summary>"
                + "\(errorBody(error))</details>"
        }
        let loaded = p.loaded.sorted { $0.name < $1.name }
        html +=
            "<h3>Loaded items (\(loaded.count))</h3><table><tr><th>kind</th><th>name</th><th>source</th>"
            + "<th>last loaded</th><th>size</th></tr>"
        for item in loaded {
            html +=
                "<tr><td>\(item.kind.rawValue)</td><td>\(Self.escaped(item.name))</td>"
                + "<td>\(Self.escaped(item.source))</td><td>\(Self.time(item.loadedAt))</td><td>\(item.size)</td></tr>"
        }
        return html + "</table></section>"
    }

    private func errorBody(_ error: ProgramSessions.ErrorEntry) -> String {
        var html = "<div class=\"when\">" + Self.time(error.time) + " while " + Self.escaped(error.phase)
        if let file = error.file, let line = error.line {
            let place = "\(file):\(line)"
            html += " · " + Self.link(error.link, place) + " <code class=\"location\">\(Self.escaped(place)):1</code>"
        }
        return html + "</div><pre class=\"message\">\(Self.escaped(error.text))</pre>"
    }

    static func place(file: String?, line: Int?, column: Int?) -> String {
        guard let file else { return "" }
        return [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
    }

    static func link(_ href: String?, _ text: String) -> String {
        guard let href else { return escaped(text) }
        return "<a class=\"open\" href=\"\(escaped(href))\">\(escaped(text))</a>"
    }

    static func time(_ seconds: Double) -> String {
        let total = Int(seconds) % 86400
        return String(printf: "%02d:%02d:%02d UTC", total / 3600, total / 60 % 60, total % 60)
    }

    /// `text` safe inside an element or a quoted attribute.
    static func escaped(_ text: String) -> String { text.markupEscaped }
}
