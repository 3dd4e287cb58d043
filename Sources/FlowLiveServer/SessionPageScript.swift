import FlowLiveProtocol
import FlowSupport

/// The session page's script (`SessionPage`), `Page/session.js`: polls the state, builds the
/// page with DOM calls (program text only ever as `textContent`), and keeps the console's
/// settings (filter, errors only, follow, how many lines, what was cleared) across polls.
enum SessionPageScript {
    static let source = PageFiles.text(PackageResources.session_js)
}

/// The session page's files in `Page/`, where `node --check` and a linter see them, compiled in
/// by SwiftPM (`embedInCode`). `{{LiveProtocol.NAME}}` in a script stands for that path of the
/// live protocol, so the page and the server never disagree on one.
enum PageFiles {
    static let paths = [
        "LiveProtocol.modulePath": LiveProtocol.modulePath,
        "LiveProtocol.sessionStatePath": LiveProtocol.sessionStatePath,
        "LiveProtocol.debugEvaluatePath": LiveProtocol.debugEvaluatePath,
    ]

    /// A file's text, its placeholders filled and its last line end dropped (the page's
    /// Content-Security-Policy holds the hash of exactly this text).
    static func text(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        for (name, value) in paths { text = text.replacingAll("{{" + name + "}}", with: value) }
        return text
    }

    /// `Page/snapshot.html`'s templates by their ids (`<template id="line">…</template>`).
    static let fragments: [String: String] = {
        var found: [String: String] = [:]
        var rest = String(decoding: PackageResources.snapshot_html, as: UTF8.self)[...]
        while let open = rest.firstRange(of: "<template id=\""), let end = rest.firstRange(of: "</template>") {
            let start = rest[open.upperBound...]
            if let quote = start.firstIndex(of: "\""), start.index(after: quote) < end.lowerBound {
                found[String(start[..<quote])] = String(start[start.index(quote, offsetBy: 2)..<end.lowerBound])
            }
            rest = rest[end.upperBound...]
        }
        return found
    }()

    /// The template `id` of `Page/snapshot.html` with its placeholders filled by `values`,
    /// which the caller has escaped.
    static func fragment(_ id: String, _ values: [String: String]) -> String {
        (fragments[id] ?? "").filled(values)
    }
}
