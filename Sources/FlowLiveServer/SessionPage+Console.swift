import FlowLiveProtocol

/// The session page's console: a line that evaluates Lua in a connected program (CodeFlow's
/// console) through the debug relay, with the page's token, and shows the result as text.
/// A link to the page may carry a first line to evaluate: `#evaluate=EXPRESSION`. Its markup is
/// in `Page/session.html`.
extension SessionPage {
    static let consoleScript = PageFiles.text(PackageResources.console_js)
}
