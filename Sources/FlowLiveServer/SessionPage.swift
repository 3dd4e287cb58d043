import FlowLiveProtocol
import FlowPackage
import FlowSupport
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

    /// The page, `Page/session.html`: its placeholders are the policy, the style and scripts,
    /// and the state as HTML (`SessionPageSnapshot`).
    static let document = PageFiles.text(PackageResources.session_html)

    static func html(snapshot state: SessionState) -> String {
        let snapshot = SessionPageSnapshot(state: state)
        return document.filled([
            "policy": contentSecurityPolicy, "style": SessionPageStyle.css, "project": snapshot.projectLine,
            "status": snapshot.statusLine, "diagnostics": snapshot.diagnostics, "programs": snapshot.programs,
            "script": SessionPageScript.source, "consoleScript": consoleScript,
        ])
    }
}
