import ArgumentParser
import FlowTemplates
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

extension Flowpkg {
    /// `flowpkg templates`: the bundled templates and the values each one takes.
    struct Templates: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "templates",
            abstract: "List the project templates flowpkg new can use.",
            discussion: """
                Each template is shown with its one-line description and its variables: the flag \
                or --set KEY=VALUE that sets each one, and its default. Any folder with a \
                template.json works too: flowpkg new DIR --template PATH.
                """
        )

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @Option(help: "Output format: text or json.")
        var format: Format = .text

        func run() throws {
            let catalog: TemplateCatalog
            do {
                catalog = try TemplateCatalog.bundled()
            } catch {
                throw New.failure(for: error)
            }
            switch format {
            case .text: print(Self.text(for: catalog), terminator: "")
            case .json: print(try Self.json(for: catalog))
            }
        }

        /// One block per template: name and description, then one line per variable.
        static func text(for catalog: TemplateCatalog) -> String {
            let nameWidth = catalog.names.map(\.count).max() ?? 0
            var out = ""
            for (index, template) in catalog.templates.enumerated() {
                if index > 0 { out += "\n" }
                out += template.name.padded(to: nameWidth + 2)
                out += template.manifest.description + "\n"
                let rows = template.variables.map { variable -> (String, String) in
                    var help = variable.description
                    if let value = variable.defaultValue { help += " (default: \(value))" }
                    return (TemplateValueOptions.flag(for: variable.name), help)
                }
                let flagWidth = rows.map(\.0.count).max() ?? 0
                for (flag, help) in rows {
                    out += "    " + flag.padded(to: flagWidth + 2) + help + "\n"
                }
            }
            return out
        }

        struct Listing: Encodable {
            struct Entry: Encodable {
                var name: String
                var description: String
                var variables: [Variable]
            }
            struct Variable: Encodable {
                var name: String
                var flag: String
                var description: String
                var `default`: String?
                var kind: String
                var pattern: String?

                func encode(to encoder: Encoder) throws {
                    // Written by hand so a missing default or pattern is an explicit null.
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(name, forKey: .name)
                    try container.encode(flag, forKey: .flag)
                    try container.encode(description, forKey: .description)
                    try container.encode(`default`, forKey: .default)
                    try container.encode(kind, forKey: .kind)
                    try container.encode(pattern, forKey: .pattern)
                }

                enum CodingKeys: String, CodingKey { case name, flag, description, `default`, kind, pattern }
            }
            var templates: [Entry]
        }

        static func json(for catalog: TemplateCatalog) throws -> String {
            let listing = Listing(
                templates: catalog.templates.map { template in
                    Listing.Entry(
                        name: template.name, description: template.manifest.description,
                        variables: template.variables.map {
                            Listing.Variable(
                                name: $0.name, flag: TemplateValueOptions.flag(for: $0.name),
                                description: $0.description,
                                default: $0.defaultValue, kind: $0.kind.rawValue, pattern: $0.pattern)
                        })
                })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(listing), as: UTF8.self)
        }
    }
}
