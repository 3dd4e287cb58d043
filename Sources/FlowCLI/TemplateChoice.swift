import ArgumentParser
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
                "  " + template.name.padded(to: width + 2)
                + template.manifest.description + "\n"
        }
        StandardStream.error.write(menu)
        while true {
            StandardStream.error.write("Template [\(fallback)]: ")
            guard let line = readLine() else { return fallback }
            let answer = line.trimmingSpaces()
            if answer.isEmpty { return fallback }
            if catalog.names.contains(answer) || answer.contains(Character("/")) { return answer }
            Flowpkg.New.printError(
                "no template named '\(answer)'; choose one of \(catalog.names.joined(separator: ", "))")
        }
    }
}
