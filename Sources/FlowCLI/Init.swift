import ArgumentParser
import FlowPackage
import FlowProject
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
    /// `flowpkg init`: a project in a folder that already has things in it, as `cargo init` does.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
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

        @OptionGroup var values: TemplateValueOptions

        @OptionGroup var rocks: RocksServerOptions

        @Flag(help: "Print what would be written and what kept, and write nothing.")
        var dryRun = false

        func validate() throws {
            _ = try values.givenValues()
        }

        func run() throws {
            let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let folder = URL(fileURLWithPath: directory, relativeTo: workingDirectory).standardizedFileURL
            do {
                var given = try values.givenValues()
                let catalog = try TemplateCatalog.bundled()
                // Say what is wrong with DIR before asking anything.
                var isDirectory = false
                if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
                    !isDirectory
                {
                    throw TemplateError.destinationNotAFolder(path: shown)
                }
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent("flowpkg.json").path) {
                    throw TemplateError.alreadyAProject(path: shown)
                }
                if values.template == nil, var code = ExistingCode.scan(folder) {
                    // Requires the tree leaves unanswered, looked up on the servers given.
                    code.findRocks(servers: rocks.dependencyOptions().rocksServers ?? [], root: folder.path)
                    try adopt(code, in: folder, given: given)
                    return
                }
                let chosen = try catalog.template(
                    named: TemplateChoice.choose(values.template, catalog: catalog),
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

        /// A folder with Lua code already: flowpkg.json only, made to fit the code (see ExistingCode).
        private func adopt(_ code: ExistingCode, in folder: URL, given: [String: String]) throws {
            let name = given["name"] ?? folder.lastPathComponent
            let identifier = given["identifier"] ?? "com.example." + TemplateValues.identifierPart(from: name)
            if let problem = ProjectFile.nameProblem(name) {
                throw ValidationError("the name '\(name)' is not valid: \(problem); give another with --name")
            }
            if let problem = PackageIdentifier.problem(in: identifier) {
                throw ValidationError(
                    "the identifier '\(identifier)' is not valid: \(problem); give another with --identifier")
            }
            var startModule = given["startModule"] ?? code.startModule
            var decisions = code.decisions
            if startModule == nil, !code.startCandidates.isEmpty {
                let choices = code.startCandidates.joined(separator: ", ")
                if isatty(STDIN_FILENO) == 1, !dryRun {
                    startModule = askStartModule(among: code.startCandidates)
                }
                if let startModule {
                    decisions.append("startModule: \"\(startModule)\" (chosen)")
                } else {
                    decisions.append(
                        "startModule not set: \(choices) could each start it; set \"startModule\" in flowpkg.json or run init with --start-module"
                    )
                }
            }
            let text = code.projectFileText(name: name, identifier: identifier, startModule: startModule)
            var lines = [
                dryRun
                    ? "Would adopt the Lua code in \(shown) (dry run, nothing written):"
                    : "Adopted the Lua code in \(shown):"
            ]
            lines += decisions.map { "  " + $0 }
            let rcPath = folder.appendingPathComponent(".luacheckrc").path
            let rcText = FileManager.default.fileExists(atPath: rcPath) ? nil : code.luacheckrcText
            if dryRun {
                lines += ["  would write flowpkg.json:"] + text.split(separator: "\n").map { "    " + $0 }
                if let rcText {
                    lines += ["  would write .luacheckrc:"] + rcText.split(separator: "\n").map { "    " + $0 }
                }
                print(lines.joined(separator: "\n"))
                return
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard try Self.writeNew(text, at: folder.appendingPathComponent("flowpkg.json").path) else {
                throw TemplateError.alreadyAProject(path: shown)
            }
            if let rcText, try Self.writeNew(rcText, at: rcPath) {
                lines.append(
                    "  wrote .luacheckrc (\(code.luacheckStd ?? "")\(code.allowsDefinedTop ? ", allow_defined_top" : ""):"
                        + " the host's globals for validate and lint)")
            }
            lines += ["  wrote flowpkg.json (no template modules: the code is yours; every file kept)", "", "Next:"]
            if !code.dependencies.isEmpty { lines.append("  flowpkg lock \(New.shellQuoted(shown))") }
            lines.append("  flowpkg validate \(New.shellQuoted(shown))")
            print(lines.joined(separator: "\n"))
        }

        /// Writes `text` to a new file at `path` (O_EXCL: never over one that appeared since the
        /// check); false when one is there.
        private static func writeNew(_ text: String, at path: String) throws -> Bool {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            guard descriptor >= 0 else { return false }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            guard written == bytes.count else {
                unlink(path)
                throw ValidationError("cannot write \(path)")
            }
            return true
        }

        /// Asks on the terminal until the answer is one of `candidates`; an empty answer or the
        /// end of input leaves it unset.
        private func askStartModule(among candidates: [String]) -> String? {
            let choices = candidates.joined(separator: ", ")
            while true {
                StandardStream.error.write("Which module starts the program? (\(choices); empty: decide later): ")
                guard let line = readLine() else { return nil }
                let answer = String(line.split(separator: " ").first ?? "")
                if answer.isEmpty { return nil }
                if candidates.contains(answer) { return answer }
                New.printError("'\(answer)' is not one of \(choices)")
            }
        }

        /// The folder as the user wrote it.
        private var shown: String {
            var text = directory
            while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
            return text
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
