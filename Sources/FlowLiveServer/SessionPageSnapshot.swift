import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The session page's state written out as HTML, for the page's first paint and for a browser
/// without JavaScript (which reloads the page to see it change). The markup is
/// `Page/snapshot.html`'s templates (`PageFiles.fragment`); every text is escaped
/// (`escaped(_:)`) before it is filled in: what a program printed shows as text.
struct SessionPageSnapshot {
    var state: SessionState

    var projectLine: String {
        Self.escaped("\(state.project.name) (\(state.project.identifier)) revision \(state.project.revision)")
    }

    var statusLine: String { "as of " + Self.time(Date().timeIntervalSince1970) }

    var diagnostics: String {
        if state.diagnostics.isEmpty { return PageFiles.fragment("no-diagnostics", [:]) }
        return state.diagnostics.map { d in
            let place = Self.place(file: d.file, line: d.line, column: d.column)
            return PageFiles.fragment(
                "diagnostic",
                [
                    "severity": Self.escaped(d.severity),
                    "location": place.isEmpty ? "" : Self.link(d.link, place) + ": ",
                    "text": Self.escaped("\(d.severity): \(d.message) [\(d.code)]"),
                ])
        }.joined(separator: "\n")
    }

    var programs: String {
        if state.programs.isEmpty { return PageFiles.fragment("no-programs", [:]) }
        return state.programs.map(program).joined(separator: "\n")
    }

    private func program(_ p: ProgramSessions.Program) -> String {
        let who = p.program
        let connected = p.ended == nil
        let heard =
            p.ended.map { "disconnected at \(Self.time($0)), its last state below" }
            ?? "last heard \(Self.time(p.lastSeen))"
        let shown = p.console.suffix(200)
        let dropped = p.consoleDropped + p.console.count - shown.count
        var lines = dropped > 0 ? PageFiles.fragment("dropped", ["count": String(dropped)]) : ""
        for line in shown {
            lines += PageFiles.fragment("line", ["stream": Self.escaped(line.stream), "text": Self.escaped(line.text)])
        }
        let current = p.errors.filter { $0.fixed == nil }.reversed(), fixed = p.errors.filter { $0.fixed != nil }
        var errors = current.map { PageFiles.fragment("error", ["body": errorBody($0)]) }.joined()
        for error in fixed.reversed() {
            let first = error.text.split(separator: "\n").first.map(String.init) ?? ""
            errors += PageFiles.fragment("fixed-error", ["first": Self.escaped(first), "body": errorBody(error)])
        }
        let loaded = p.loaded.sorted { $0.name < $1.name }.map { item in
            PageFiles.fragment(
                "loaded",
                [
                    "kind": item.kind.rawValue, "name": Self.escaped(item.name), "source": Self.escaped(item.source),
                    "time": Self.time(item.loadedAt), "size": String(item.size),
                ])
        }
        return PageFiles.fragment(
            "program",
            [
                "disconnected": connected ? "" : " disconnected",
                "who": Self.escaped("\(who.identifier) (pid \(who.processID))"),
                "badge": connected ? "connected" : "disconnected",
                "identity": Self.escaped("host \(who.hostName) · \(who.platform) · \(heard)"), "lines": lines,
                "errorCount": "\(current.count) current\(fixed.isEmpty ? "" : ", \(fixed.count) fixed")",
                "errors": errors, "loadedCount": String(loaded.count), "loaded": loaded.joined(),
            ])
    }

    private func errorBody(_ error: ProgramSessions.ErrorEntry) -> String {
        var place = ""
        if let file = error.file, let line = error.line {
            let text = "\(file):\(line)"
            place = PageFiles.fragment(
                "error-place", ["link": Self.link(error.link, text), "place": Self.escaped(text)])
        }
        return PageFiles.fragment(
            "error-body",
            [
                "time": Self.time(error.time), "phase": Self.escaped(error.phase), "place": place,
                "text": Self.escaped(error.text),
            ])
    }

    static func place(file: String?, line: Int?, column: Int?) -> String {
        guard let file else { return "" }
        return [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
    }

    static func link(_ href: String?, _ text: String) -> String {
        guard let href else { return escaped(text) }
        return PageFiles.fragment("link", ["href": escaped(href), "text": escaped(text)])
    }

    static func time(_ seconds: Double) -> String {
        let total = Int(seconds) % 86400
        return String(printf: "%02d:%02d:%02d UTC", total / 3600, total / 60 % 60, total % 60)
    }

    /// `text` safe inside an element or a quoted attribute.
    static func escaped(_ text: String) -> String { text.markupEscaped }
}
