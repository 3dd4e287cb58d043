import ArgumentParser
import FlowTemplates
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Flowpkg {
    /// `flowpkg init`: a project in a folder that already has things in it, as `cargo init` does.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a project in an existing folder (a git repository, a folder with a README).",
            discussion: """
                Writes the template's files that are missing (flowpkg.json, Sources/<start \
                module>.lua, ...) and never replaces a file that is there: each one it keeps is \
                listed. A folder that already holds a flowpkg.json is refused. Values default as \
                with flowpkg new: the name from the folder's name, the identifier from the name.

                Exit status: 0 done (or --dry-run), 64 a bad flag or value, 1 anything else (a \
                folder that is a project already, a file where a folder must go, a write that \
                failed).
                """
        )

        @Argument(
            help: ArgumentHelp("The folder to make a project of (default: the current folder).", valueName: "dir"),
            completion: .directory)
        var directory: String = "."

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

        @Flag(help: "Print what would be written and what kept, and write nothing.")
        var dryRun = false

        func validate() throws {
            _ = try givenValues()
        }

        func run() throws {
            let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let folder = URL(fileURLWithPath: directory, relativeTo: workingDirectory).standardizedFileURL
            do {
                var given = try givenValues()
                let catalog = try TemplateCatalog.bundled()
                // Say what is wrong with DIR before asking anything.
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    throw TemplateError.destinationNotAFolder(path: shown)
                }
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent("flowpkg.json").path) {
                    throw TemplateError.alreadyAProject(path: shown)
                }
                let chosen = try catalog.template(
                    named: TemplateChoice.choose(template, catalog: catalog),
                    relativeTo: workingDirectory)
                if isatty(STDIN_FILENO) == 1 {
                    given = New.Prompter.ask(template: chosen, destination: folder, given: given)
                }
                let initializer = try ProjectInitializer.plan(template: chosen, folder: folder, given: given)
                for note in initializer.values.notes { New.printError("note: \(note)") }
                if dryRun {
                    print(report(try initializer.preview(), template: chosen.name, dryRun: true))
                    return
                }
                print(report(try initializer.write(), template: chosen.name, dryRun: false))
            } catch let error as TemplateError {
                throw New.failure(for: error, shownDestination: shown)
            }
        }

        /// The folder as the user wrote it.
        private var shown: String {
            var text = directory
            while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
            return text
        }

        private func givenValues() throws -> [String: String] {
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
                        "\(New.flag(for: key)) '\(value)' and --set \(key)=\(other) disagree; give one")
                }
                given[key] = value
            }
            return given
        }

        private func report(_ outcome: ProjectInitializer.Outcome, template: String, dryRun: Bool) -> String {
            var lines = [
                dryRun
                    ? "Would make a project in \(shown) from template \(template) (dry run, nothing written):"
                    : "Made a project in \(shown) from template \(template):"
            ]
            lines += outcome.written.map { "  \(dryRun ? "would write" : "wrote") \($0)" }
            lines += outcome.kept.map { "  \(dryRun ? "would keep " : "kept ") \($0) (already there, left as it was)" }
            if !dryRun {
                lines += ["", "Next:", "  flowpkg validate \(New.shellQuoted(shown))"]
            }
            return lines.joined(separator: "\n")
        }
    }
}
