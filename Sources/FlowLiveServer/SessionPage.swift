import FlowLiveProtocol
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The session page `flowpkg serve` serves at `/session?token=…`: one self-contained HTML
/// document (styles and script inline, nothing fetched from elsewhere, so it works offline).
///
/// It comes with the state as it is when asked for, written out as HTML
/// (`SessionPageSnapshot`), so a browser without JavaScript shows it too, and reloads it every
/// few seconds. With JavaScript, its script (`SessionPageScript`) asks `/v1/session` for the
/// state every second, with the token from the page's own address, and builds the page with
/// DOM calls: every text a program sent is set with `textContent`, never parsed as HTML. The
/// Content-Security-Policy allows only this script (by its hash) and requests to this server,
/// so even markup that slipped through could run nothing.
enum SessionPage {
    /// The page's policy: its two scripts by hash, requests to this server only. The header
    /// adds that no page may frame it (`frame-ancestors`, which a meta tag cannot say).
    static let contentSecurityPolicy: String = {
        let hash = Data(SHA256.hash(data: Data(SessionPageScript.source.utf8))).base64EncodedString()
        let consoleHash = Data(SHA256.hash(data: Data(consoleScript.utf8))).base64EncodedString()
        return "default-src 'none'; script-src 'sha256-\(hash)' 'sha256-\(consoleHash)'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'"
    }()

    /// The headers the page is sent with (issue 43, item 16): never stored (its address holds
    /// the token), the policy above, and no referrer sent from it.
    static let headers: [(name: String, value: String)] = [
        ("Cache-Control", "no-store"),
        ("Content-Security-Policy", contentSecurityPolicy + "; frame-ancestors 'none'"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
    ]

    static func html(snapshot state: SessionState) -> String {
        let script = SessionPageScript.source
        let snapshot = SessionPageSnapshot(state: state)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <noscript><meta http-equiv="refresh" content="3"></noscript>
            <title>flowpkg live session</title>
            <style>\(SessionPageStyle.css)</style>
            </head>
            <body>
            <header><h1>flowpkg live session</h1><span id="project">\(snapshot.projectLine)</span><span id="status">\(snapshot.statusLine)</span></header>
            <main>
            <section id="diagnostics-section"><h2>Project diagnostics (flowpkg validate)</h2><div id="diagnostics">\(snapshot.diagnostics)</div></section>
            <section id="programs-section"><h2>Programs</h2>
            <div id="controls" class="controls" hidden>
            <button type="button" id="clear">Clear console</button>
            <label>Filter <input id="filter" type="search" placeholder="text in a line"></label>
            <label><input id="errors-only" type="checkbox"> errors only</label>
            <label><input id="follow" type="checkbox" checked> follow</label>
            <label>keep <input id="keep" type="number" value="500" min="10" max="2000" step="10"> lines</label>
            <label>Find loaded item <input id="item-search" type="search" placeholder="name"></label>
            </div>
            <div id="programs">\(snapshot.programs)</div>
            </section>
            <section id="module-section" hidden><h2 id="module-title"></h2><pre id="module-text" class="module-text"></pre></section>
            \(consoleSection)
            </main>
            <script>\(script)</script>
            <script>\(consoleScript)</script>
            </body>
            </html>
            """
    }
}
