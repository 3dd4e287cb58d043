import FlowLiveProtocol

/// The session page's console: a line that evaluates Lua in a connected program (CodeFlow's
/// console) through the debug relay, with the page's token, and shows the result as text.
/// A link to the page may carry a first line to evaluate: `#evaluate=EXPRESSION`.
extension SessionPage {
    static let consoleSection = """
        <section id="console-section"><h2>Console</h2>\
        <form id="console-form"><input id="console-program" placeholder="program: identifier or pid (empty: the only one)" size="36"> \
        <input id="console-input" placeholder="Lua to evaluate in the program" autocomplete="off" size="48"> \
        <button type="submit">Evaluate</button></form>\
        <div id="console-output" class="console"></div></section>
        """

    static let consoleScript = PageFiles.text(PackageResources.console_js)
}
