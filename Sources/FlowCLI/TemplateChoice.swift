import ArgumentParser
import FlowTemplates
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which template `new` and `init` use when `--template` is not given, and what shell
/// completion offers for it.
enum TemplateChoice {
    /// The template used when none is named: a program that runs anywhere with flowpkg run.
    static let defaultName = "console-app"

    /// `--template`'s completions: the bundled templates' names (a path works too).
    static let completion = CompletionKind.custom { _, _, prefix in names().filter { $0.hasPrefix(prefix) } }

    static func names() -> [String] {
        (try? TemplateCatalog.bundled().names) ?? []
    }

    /// The template to use: `given`; or, on a terminal, the one the user picks (the default
    /// on an empty answer); or the default, said in a note.
    static func choose(_ given: String?, catalog: TemplateCatalog) -> String {
        if let given { return given }
        let fallback = catalog.names.contains(defaultName) ? defaultName : catalog.names.first ?? defaultName
        guard isatty(STDIN_FILENO) == 1 else {
            Flowpkg.New.printError(
                "note: no --template given; using \(fallback) (flowpkg templates lists the others)")
            return fallback
        }
        let width = catalog.names.map(\.count).max() ?? 0
        var menu = "Templates:\n"
        for template in catalog.templates {
            menu +=
                "  " + template.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                + template.manifest.description + "\n"
        }
        FileHandle.standardError.write(Data(menu.utf8))
        while true {
            FileHandle.standardError.write(Data("Template [\(fallback)]: ".utf8))
            guard let line = readLine() else { return fallback }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if answer.isEmpty { return fallback }
            if catalog.names.contains(answer) || answer.contains("/") { return answer }
            Flowpkg.New.printError(
                "no template named '\(answer)'; choose one of \(catalog.names.joined(separator: ", "))")
        }
    }
}
