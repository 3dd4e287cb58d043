import FlowDiagnostics
import FlowJSON
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

/// What `template.json` says about a template: a one-line description and the variables its
/// files use besides the ones every template gets (`name`, `identifier`).
public struct TemplateManifest: Sendable, Equatable {
    public var description: String
    public var variables: [TemplateVariable]

    public init(description: String, variables: [TemplateVariable]) {
        self.description = description
        self.variables = variables
    }

    /// Reads `template.json`, collecting every problem as an FP6xx diagnostic naming `file`.
    public static func parse(_ data: Data, file: String) -> Result<TemplateManifest, TemplateError> {
        func problem(_ code: DiagnosticCode, _ message: String, hint: String? = nil) -> Diagnostic {
            Diagnostic(severity: .error, code: code, message: message, file: file, hint: hint)
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(data))
        } catch {
            var diagnostic = problem(.invalidTemplateManifest, "template.json is not valid JSON: \(error.message)")
            diagnostic.line = error.position.line
            diagnostic.column = error.position.column
            return .failure(.invalidTemplate([diagnostic]))
        }
        guard case .object(let members) = root.value else {
            return .failure(
                .invalidTemplate([problem(.invalidTemplateManifest, "template.json must hold a JSON object")]))
        }
        var diagnostics: [Diagnostic] = []
        var description = ""
        if case .string(let text)? = root["description"]?.value { description = text }
        if description.trimmingSpaces().isEmpty {
            diagnostics.append(problem(.invalidTemplateKey, "template.json needs a non-empty \"description\" string"))
        }
        for key in members.map(\.key).sorted() where !["description", "variables"].contains(key) {
            diagnostics.append(
                problem(
                    .invalidTemplateKey, "unknown key \"\(key)\" in template.json",
                    hint: "template.json has \"description\" and \"variables\""))
        }
        var variables: [TemplateVariable] = []
        var seen: Set<String> = []
        let list = root["variables"]?.value ?? .array([])
        guard case .array(let entries) = list else {
            diagnostics.append(problem(.invalidTemplateKey, "\"variables\" must be an array of objects"))
            return .failure(.invalidTemplate(diagnostics))
        }
        for (index, entry) in entries.enumerated() {
            switch TemplateVariable.parse(entry) {
            case .failure(let failure):
                diagnostics.append(problem(.invalidTemplateKey, "variables[\(index)]: \(failure.message)"))
            case .success(let variable):
                if TemplateVariable.builtIn.contains(where: { $0.name == variable.name })
                    || TemplateVariable.reservedNames.contains(variable.name)
                {
                    diagnostics.append(
                        problem(
                            .invalidTemplateKey,
                            "variables[\(index)]: \"\(variable.name)\" is provided by flowpkg; declare another name"))
                } else if !seen.insert(variable.name).inserted {
                    diagnostics.append(
                        problem(.invalidTemplateKey, "variables[\(index)]: \"\(variable.name)\" is declared twice"))
                } else {
                    variables.append(variable)
                }
            }
        }
        if !diagnostics.isEmpty { return .failure(.invalidTemplate(diagnostics)) }
        return .success(TemplateManifest(description: description, variables: variables))
    }
}

/// One value a template's files use as `{{name}}`, with what it means, its default and its rules.
public struct TemplateVariable: Sendable, Equatable, Codable {
    /// What rules a value must follow beyond `pattern`.
    public enum Kind: String, Sendable, Codable {
        /// Any non-empty text on one line.
        case text
        /// A Lua module name (`Main`, `App.Main`); the template also gets `<name>Path`
        /// (`App/Main`, for file names) and `<name>Leaf` (`Main`, for class names).
        case module
        /// A reverse-DNS package identifier.
        case identifier
    }

    public var name: String
    public var description: String
    /// Nil when the value has no fixed default (`name` and `identifier` are computed).
    public var defaultValue: String?
    public var kind: Kind
    /// A regular expression the whole value must match, when the kind alone is not enough.
    public var pattern: String?

    public init(name: String, description: String, defaultValue: String?, kind: Kind = .text, pattern: String? = nil) {
        self.name = name
        self.description = description
        self.defaultValue = defaultValue
        self.kind = kind
        self.pattern = pattern
    }

    enum CodingKeys: String, CodingKey {
        case name, description, defaultValue = "default", kind, pattern
    }

    /// The product name and package identifier: every template gets them, declared or not.
    public static let builtIn: [TemplateVariable] = [
        TemplateVariable(name: "name", description: "Product name (default: the new folder's name)", defaultValue: nil),
        TemplateVariable(
            name: "identifier",
            description: "Package identifier the host loads (default: com.example.<name>)",
            defaultValue: nil, kind: .identifier),
    ]

    /// Names flowpkg adds to every rendering; a template may not declare them.
    static let reservedNames: Set<String> = ["flowpkgVersion"]

    /// Reads one entry of `"variables"`; the failure is a message for the template's author.
    static func parse(_ entry: JSONNode) -> Result<TemplateVariable, Problem> {
        guard case .object(let members) = entry.value else { return .failure(Problem("must be an object")) }
        func string(_ key: String) -> String? {
            if case .string(let text)? = entry[key]?.value { return text }
            return nil
        }
        for key in members.map(\.key).sorted()
        where !["name", "description", "default", "kind", "pattern"].contains(key) {
            return .failure(
                Problem("unknown key \"\(key)\" (a variable has name, description, default, kind, pattern)"))
        }
        guard let name = string("name"), isMustacheName(name) else {
            return .failure(Problem("\"name\" must be a string of letters, digits and '_', not starting with a digit"))
        }
        guard let description = string("description"), !description.isEmpty else {
            return .failure(Problem("\"\(name)\" needs a non-empty \"description\""))
        }
        var defaultValue: String?
        if let value = entry["default"], value.value != .null {
            guard let text = string("default") else {
                return .failure(Problem("\"\(name)\": \"default\" must be a string"))
            }
            defaultValue = text
        }
        var kind = Kind.text
        if entry["kind"] != nil {
            guard let text = string("kind"), let parsed = Kind(rawValue: text) else {
                return .failure(Problem("\"\(name)\": \"kind\" must be \"text\", \"module\" or \"identifier\""))
            }
            kind = parsed
        }
        var pattern: String?
        if entry["pattern"] != nil {
            guard let text = string("pattern"), (try? Regex(text)) != nil else {
                return .failure(Problem("\"\(name)\": \"pattern\" must be a valid regular expression"))
            }
            pattern = text
        }
        let variable = TemplateVariable(
            name: name, description: description, defaultValue: defaultValue,
            kind: kind, pattern: pattern)
        if let defaultValue, let problem = variable.problem(with: defaultValue) {
            return .failure(Problem("\"\(name)\": its default '\(defaultValue)' is not valid: \(problem)"))
        }
        return .success(variable)
    }

    /// What is wrong with one variable declaration, for the template's author.
    struct Problem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static func isMustacheName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    /// Why `value` does not suit this variable, or nil when it does.
    public func problem(with value: String) -> String? {
        switch kind {
        case .module:
            if let problem = ModuleName.problem(in: value) { return problem }
        case .identifier:
            if let problem = PackageIdentifier.problem(in: value) { return problem }
        case .text:
            if let problem = Self.textProblem(in: value) { return problem }
        }
        if let pattern, let regex = try? Regex("^(?:\(pattern))$") {
            if (try? regex.firstMatch(in: value)) ?? nil == nil { return "it does not match the pattern \(pattern)" }
        }
        return nil
    }

    /// Text values end up in JSON strings, Lua strings and file names: keep them on one line and
    /// free of the characters that would need escaping there.
    static func textProblem(in value: String) -> String? {
        if value.trimmingSpaces().isEmpty { return "it is empty" }
        if value != value.trimmingSpaces() { return "it starts or ends with a space" }
        for scalar in value.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F { return "it contains a control character" }
            if scalar == "\"" || scalar == "\\" || scalar == "/" {
                return "'\(scalar)' is not allowed (it would need escaping in JSON, Lua and file names)"
            }
        }
        return nil
    }
}
