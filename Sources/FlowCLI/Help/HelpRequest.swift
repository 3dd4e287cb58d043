import FlowDiagnostics

/// `flowpkg help WORD`, when WORD is no command: a topic page, a code's catalogue entry
/// (`help FP304`), or a usage error naming what there is (an unknown topic printed the general
/// help and exited 0, which hid the typo).
enum HelpRequest {
    /// What to print and the exit status, or nil when ArgumentParser should answer (a command,
    /// or no word at all).
    static func answer(_ arguments: [String], commands: [String]) -> (text: String, isError: Bool)? {
        guard arguments.count == 2, arguments[0] == "help" else { return nil }
        let word = arguments[1]
        if commands.contains(word) || word.hasPrefix("-") { return nil }
        if let topic = HelpTopic(rawValue: word) { return (topic.text, false) }
        if word.uppercased().wholeMatch(of: /FP[0-9]{3}/) != nil {
            guard let entry = DiagnosticCodes.entry(for: word.uppercased()) else {
                return (
                    "error: there is no diagnostic code '\(word)'\nhelp: 'flowpkg help codes' lists the codes", true
                )
            }
            return ("\(entry.code)  \(entry.severity.rawValue)  \(entry.title)\n\n\(entry.explanation)\n", false)
        }
        let topics = HelpTopic.allCases.map(\.rawValue).joined(separator: ", ")
        return (
            "error: there is no help topic '\(word)'\n"
                + "help: the topics are \(topics), a diagnostic code such as FP304, or a command: "
                + commands.filter { $0 != "help" }.joined(separator: ", "),
            true
        )
    }
}
