import ArgumentParser
import FlowDiagnostics
import FlowTemplates
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Flowpkg {
    /// `flowpkg new`: a project folder from a template, checked in full before anything is written.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Create a project folder from a template.",
            discussion: """
                Every value is checked before anything is written, and the folder is written all \
                at once, so a failure leaves nothing behind. The folder must not exist, or be empty \
                (to make a project in a folder that has files, use flowpkg init). When stdin is a \
                terminal, the template and values not given as flags are asked for, with their \
                defaults; otherwise the defaults are used (console-app when --template is not \
                given, which is noted). \
                A template with no use for a flag (lua-library has no start module) notes it and \
                goes on.

                Exit status: 0 created (or --dry-run), 64 a bad flag or value (unknown template, \
                invalid name, identifier or module name), 1 anything else (a folder that is not empty, a \
                broken template, a write that failed).
                """
        )

        @Argument(help: ArgumentHelp("The project folder to create; it must not exist, or be empty.", valueName: "dir"))
        var directory: String

        @OptionGroup var values: TemplateValueOptions

        @Flag(help: "Print the files that would be written, and write nothing.")
        var dryRun = false

        func validate() throws {
            // Malformed --set and flags that contradict it are usage errors, shown with usage.
            _ = try values.givenValues()
        }

        func run() throws {
            let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let destination = URL(fileURLWithPath: directory, relativeTo: workingDirectory).standardizedFileURL
            do {
                var given = try values.givenValues()
                let catalog = try TemplateCatalog.bundled()
                // Say that DIR is taken before asking questions, not after.
                try ProjectWriter.checkDestination(destination)
                let templateName = TemplateChoice.choose(values.template, catalog: catalog)
                let chosen = try catalog.template(named: templateName, relativeTo: workingDirectory)
                if isatty(STDIN_FILENO) == 1 {
                    given = Prompter.ask(template: chosen, destination: destination, given: given)
                }
                let project = try NewProject.plan(template: chosen, destination: destination, given: given)
                for note in project.values.notes { Self.printError("note: \(note)") }
                if dryRun {
                    print(
                        report(
                            project,
                            heading: "Would create \(shown) from template \(chosen.name) (dry run, nothing written):"))
                    return
                }
                try project.write()
                print(report(project, heading: "Created \(shown) from template \(chosen.name):"))
            } catch let error as TemplateError {
                throw Self.failure(for: error, shownDestination: shown)
            }
        }

        /// The folder as the user wrote it, for messages and the next commands.
        private var shown: String {
            var text = directory
            while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
            return text
        }

        private func report(_ project: NewProject, heading: String) -> String {
            var lines = [heading]
            lines += project.files.map { "  \($0.path)" }
            let steps = project.nextSteps
            if !steps.isEmpty && !dryRun {
                lines.append("")
                lines.append("Next:")
                lines += steps.map { "  flowpkg \($0.rawValue) \(Self.shellQuoted(shown))" }
            }
            return lines.joined(separator: "\n")
        }

        /// Prints `error` and gives the exit code: 64 for a bad flag or value, 1 for the rest.
        /// Destination paths are shown as the user wrote them.
        static func failure(for error: TemplateError, shownDestination: String? = nil) -> Error {
            switch error {
            case .unknownTemplate, .invalidValue, .unknownVariable, .missingValue:
                printError("error: \(error.description)")
                return ExitCode(64)
            case .invalidTemplate(let diagnostics):
                for diagnostic in diagnostics { printError(render(diagnostic)) }
                return ExitCode.failure
            case .destinationNotEmpty(let path):
                printError("error: \(TemplateError.destinationNotEmpty(path: shownDestination ?? path).description)")
                return ExitCode.failure
            case .destinationNotAFolder(let path):
                printError("error: \(TemplateError.destinationNotAFolder(path: shownDestination ?? path).description)")
                return ExitCode.failure
            case .writeFailed(let path, let reason):
                printError(
                    "error: \(TemplateError.writeFailed(path: shownDestination ?? path, reason: reason).description)")
                return ExitCode.failure
            case .alreadyAProject(let path):
                printError("error: \(TemplateError.alreadyAProject(path: shownDestination ?? path).description)")
                return ExitCode.failure
            case .pathBlocked, .linkedFolder:
                printError("error: \(error.description)")
                return ExitCode.failure
            }
        }

        /// `file:line:col: error: message [FPnnn]`, then the hint on its own line.
        static func render(_ diagnostic: Diagnostic) -> String {
            var place = diagnostic.file ?? "flowpkg"
            if let line = diagnostic.line { place += ":\(line)" }
            if let column = diagnostic.column { place += ":\(column)" }
            var text = "\(place): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code)]"
            if let hint = diagnostic.hint { text += "\n  hint: \(hint)" }
            return text
        }

        static func printError(_ text: String) {
            StandardStream.error.write(text + "\n")
        }

        static func shellQuoted(_ text: String) -> String {
            let plain = text.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                        || "/._-+,:@".unicodeScalars.contains($0))
            }
            return plain && !text.isEmpty ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
        }
    }
}
