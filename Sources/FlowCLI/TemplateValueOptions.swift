import ArgumentParser

/// The flags `new` and `init` share: which template, and the values its variables take.
struct TemplateValueOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A template name (see flowpkg templates) or the path of a template folder (default: console-app).",
            valueName: "template"),
        completion: TemplateChoice.completion)
    var template: String?

    @Option(help: "The product name (default: the folder's name).")
    var name: String?

    @Option(help: "The package identifier (default: com.example.<name in lower case>).")
    var identifier: String?

    @Option(name: .customLong("start-module"), help: "The start module's name (default: the template's).")
    var startModule: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Set any template variable.", valueName: "KEY=VALUE"))
    var assignments: [String] = []

    /// The values given on the command line, by variable name; a malformed `--set` or a flag
    /// that contradicts it is a usage error.
    func givenValues() throws -> [String: String] {
        var given: [String: String] = [:]
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ValidationError("--set takes KEY=VALUE, not '\(assignment)'")
            }
            given[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        for (key, value) in [("name", name), ("identifier", identifier), ("startModule", startModule)] {
            guard let value else { continue }
            if let other = given[key], other != value {
                throw ValidationError(
                    "\(Self.flag(for: key)) '\(value)' and --set \(key)=\(other) disagree; give one")
            }
            given[key] = value
        }
        return given
    }

    /// The flag that sets `variable` on the command line.
    static func flag(for variable: String) -> String {
        switch variable {
        case "name": return "--name"
        case "identifier": return "--identifier"
        case "startModule": return "--start-module"
        default: return "--set \(variable)=VALUE"
        }
    }
}
