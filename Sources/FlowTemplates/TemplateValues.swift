import FlowPackage
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

/// The values a new project is rendered with, resolved from what the user gave, each template's
/// defaults and the destination's name, and checked before anything is written.
public struct TemplateValues: Sendable, Equatable {
    /// Every variable of the template, by name, each one valid.
    public var values: [String: String]
    /// Things the user should know that did not stop the project (a value the template ignores).
    public var notes: [String]

    /// Values every template accepts through a flag; a template without a use for one says so
    /// in a note instead of failing, so one command line works with any template.
    public static let flagVariables: [String: String] = ["startModule": "--start-module"]

    /// Resolves `given` (flags and `--set`) against `template`'s variables: fills in defaults,
    /// checks every value, and throws the first problem in the template's variable order.
    public static func resolve(
        template: Template, destination: URL,
        given: [String: String]
    ) throws(TemplateError) -> TemplateValues {
        let declared = Set(template.variables.map(\.name))
        var notes: [String] = []
        for key in given.keys.sorted() where !declared.contains(key) {
            if let flag = flagVariables[key] {
                notes.append("template '\(template.name)' has no use for \(flag); '\(given[key]!)' is ignored")
            } else {
                throw .unknownVariable(name: key, template: template.name, known: template.variables.map(\.name))
            }
        }
        var values: [String: String] = [:]
        for variable in template.variables {
            guard
                let value = given[variable.name]
                    ?? defaultValue(for: variable, destination: destination, values: values)
            else { throw .missingValue(variable: variable.name) }
            if let reason = variable.problem(with: value) {
                throw .invalidValue(variable: variable.name, value: value, reason: reason)
            }
            values[variable.name] = value
        }
        return TemplateValues(values: values, notes: notes)
    }

    /// The value `variable` takes when the user gives none: `name` comes from the destination
    /// folder, `identifier` from the name (so it needs `values["name"]` resolved first), the rest
    /// from `template.json`.
    public static func defaultValue(
        for variable: TemplateVariable, destination: URL,
        values: [String: String]
    ) -> String? {
        switch variable.name {
        case "name": return destination.standardizedFileURL.lastPathComponent
        case "identifier": return "com.example.\(identifierPart(from: values["name"] ?? destination.lastPathComponent))"
        default: return variable.defaultValue
        }
    }

    /// `name` as one part of a package identifier: lower case ASCII letters and digits, with
    /// every run of other characters turned into one `-` (`My App!` gives `my-app`). Latin
    /// letters with accents lose them (`Café Ünïcode` gives `cafe-unicode`, `Straße` gives
    /// `strasse`); a name with no Latin letter or digit at all (`日本語`) gives `app`.
    public static func identifierPart(from name: String) -> String {
        var part = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
            {
                part += String(scalar).lowercased()
            } else if let letters = latinLetters(for: scalar) {
                part += letters
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue  // a combining accent (e + U+0301): its letter is already in
            } else if !part.isEmpty && !part.hasSuffix("-") {
                part += "-"
            }
        }
        if part.count > 200 { part = String(part.prefix(200)) }
        while part.hasSuffix("-") { part.removeLast() }
        return part.isEmpty ? "app" : part
    }

    /// The ASCII letters a Latin letter with a diacritic or a ligature stands for, read from its
    /// Unicode name (`LATIN SMALL LETTER E WITH ACUTE` is `e`, `LATIN CAPITAL LIGATURE OE` is
    /// `oe`), or nil for anything else.
    static func latinLetters(for scalar: Unicode.Scalar) -> String? {
        guard !scalar.isASCII, let name = scalar.properties.name else { return nil }
        var words = name.split(separator: " ").map(String.init)
        if words.first == "FULLWIDTH" { words.removeFirst() }
        guard words.count >= 3, words[0] == "LATIN" else { return nil }
        words.removeFirst()
        if words.first == "SMALL" || words.first == "CAPITAL" { words.removeFirst() }
        guard let kind = words.first, kind == "LETTER" || kind == "LIGATURE", words.count >= 2 else { return nil }
        let letter = words[1]
        switch letter {
        case "SHARP": return "ss"
        case "THORN": return "th"
        case "ETH": return "d"
        case "DOTLESS": return words.count > 2 && words[2].count == 1 ? words[2].lowercased() : nil
        default:
            // One letter (E WITH ACUTE), or two for a ligature or digraph (AE, OE, IJ).
            guard letter.count <= 2, letter.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
            return letter.lowercased()
        }
    }

    /// What the template's files see: the values, `<name>Path` and `<name>Leaf` for module
    /// variables, and `flowpkgVersion`.
    /// Every name `renderingContext(for:)` may fill for `template`, with or without a value:
    /// its variables, the path and leaf forms of its module variables, and flowpkg's own.
    static func renderedNames(for template: Template) -> Set<String> {
        var names = TemplateVariable.reservedNames
        for variable in template.variables {
            names.insert(variable.name)
            if variable.kind == .module {
                names.insert("\(variable.name)Path")
                names.insert("\(variable.name)Leaf")
            }
        }
        return names
    }

    public func renderingContext(for template: Template) -> [String: String] {
        var context = values
        for variable in template.variables where variable.kind == .module {
            guard let value = values[variable.name] else { continue }
            context["\(variable.name)Path"] = value.replacingAll(".", with: "/")
            context["\(variable.name)Leaf"] = String(value.split(separator: ".").last ?? Substring(value))
        }
        context["flowpkgVersion"] = ToolVersion.current
        return context
    }
}
