import FlowDiagnostics
import FlowJSON

/// One entry of flowpkg.json's `dependencies`: a rock with a LuaRocks version constraint,
/// another flowpkg project by path, or a `.luapkg` library.
public struct DependencyDeclaration: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// `"inspect": "~> 3.1"`: a constraint as LuaRocks writes it (empty for any version).
        case rock(constraint: String)
        /// `"ui-kit": {"path": "../ui-kit"}`: a flowpkg project folder, relative to the project.
        case path(String)
        /// `"charts": {"package": "vendor/charts-2.0.0.luapkg"}`: a library package file.
        case package(String)
    }

    public var name: String
    public var source: Source
    /// Listed in `devDependencies`: for the project's tests and tools, never packaged.
    public var isDevelopment = false
    /// Where the entry's value is in flowpkg.json, for messages.
    public var line: Int?
    public var column: Int?

    public init(name: String, source: Source, line: Int? = nil, column: Int? = nil, isDevelopment: Bool = false) {
        self.name = name
        self.source = source
        self.isDevelopment = isDevelopment
        self.line = line
        self.column = column
    }

    /// `rock`, `path` or `package`: the lock's and the manifest's word for the kind.
    public var kind: String {
        switch source {
        case .rock: return "rock"
        case .path: return "path"
        case .package: return "package"
        }
    }

    /// What was asked for, as the lock records it: the constraint, the path or the file.
    public var requested: String {
        switch source {
        case .rock(let constraint): return constraint
        case .path(let path): return path
        case .package(let file): return file
        }
    }

    /// `"~> 3.1"`, `{"path": "../ui-kit"}`: the value as flowpkg.json writes it.
    public var jsonValue: String {
        switch source {
        case .rock(let constraint): return JSONText.quoted(constraint)
        case .path(let path): return "{\"path\": \(JSONText.quoted(path))}"
        case .package(let file): return "{\"package\": \(JSONText.quoted(file))}"
        }
    }

    /// Why `name` cannot name a dependency (a rock's name: letters, digits, `-`, `_`, `.`, not
    /// dots alone). A name becomes the folder `vendor/NAME/`, so `.` and `..` are never names.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.utf8.count > 100 { return "it is longer than 100 bytes" }
        if name.utf8.allSatisfy({ $0 == UInt8(ascii: ".") }) {
            return "a name made only of dots would name a folder outside vendor/"
        }
        let ok = name.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        return ok ? nil : "use ASCII letters, digits, '-', '_' and '.', as rock names do"
    }

    /// Why `constraint` is not a LuaRocks constraint list (`>= 1.2, < 2`, `~> 3.1`, `3.1.1-1`).
    public static func constraintProblem(_ constraint: String) -> String? {
        for part in constraint.split(separator: ",") {
            var text = part.drop { $0 == " " }
            for op in ["==", "~=", ">=", "<=", "~>", ">", "<", "="] where text.hasPrefix(op) {
                text = text.dropFirst(op.count)
                break
            }
            text = text.drop { $0 == " " }
            while text.last == " " { text = text.dropLast() }
            guard let first = text.first, first.isNumber,
                text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" })
            else {
                return "'\(part.trimmingCharacters(in: " "))' is not an operator (==, >=, <, ~>, ...) and a version"
            }
        }
        return nil
    }
}

/// Decodes `dependencies` and `rocksServers` from flowpkg.json's JSON, every problem with its place.
public struct DependencyDeclarationDecoder {
    /// The path diagnostics name the file by.
    public let path: String

    public init(path: String) { self.path = path }

    /// `"dependencies": {"inspect": "~> 3.1", "ui-kit": {"path": "../ui-kit"}}`.
    package func decodeDependencies(_ member: JSONNode.Member) -> ([DependencyDeclaration], [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        guard case .object(let entries) = member.value.value else {
            diagnostics.append(
                diagnostic(
                    .wrongValueType,
                    "\"dependencies\" must be an object of names and constraints, not \(member.value.kindDescription)",
                    at: member.keyPosition, hint: "\"dependencies\": {\"inspect\": \"~> 3.1\"}"))
            return ([], diagnostics)
        }
        var declarations: [DependencyDeclaration] = []
        for entry in entries {
            let position = entry.value.position
            if let problem = DependencyDeclaration.nameProblem(entry.key) {
                diagnostics.append(
                    diagnostic(
                        .invalidDependency, "the dependency name '\(entry.key)' is not valid: \(problem)",
                        at: entry.keyPosition))
                continue
            }
            switch entry.value.value {
            case .string(let constraint):
                if let problem = DependencyDeclaration.constraintProblem(constraint) {
                    diagnostics.append(
                        diagnostic(
                            .invalidDependency,
                            "the version constraint of '\(entry.key)' is not one LuaRocks reads: \(problem)",
                            at: position, hint: "write it as LuaRocks does: \"~> 3.1\", \">= 1.13\", \">= 1.0, < 2.0\"")
                    )
                    continue
                }
                declarations.append(
                    DependencyDeclaration(
                        name: entry.key, source: .rock(constraint: constraint), line: position.line,
                        column: position.column))
            case .object(let fields):
                var source: DependencyDeclaration.Source?
                for field in fields {
                    guard case .string(let text) = field.value.value, !text.isEmpty else {
                        diagnostics.append(
                            diagnostic(
                                .wrongValueType, "\"\(field.key)\" of '\(entry.key)' must be a non-empty string",
                                at: field.value.position))
                        continue
                    }
                    switch field.key {
                    case "path": source = .path(text)
                    case "package": source = .package(text)
                    default:
                        diagnostics.append(
                            diagnostic(
                                .invalidDependency, "unknown key \"\(field.key)\" in the dependency '\(entry.key)'",
                                at: field.keyPosition, hint: "a dependency is {\"path\": DIR} or {\"package\": FILE}"))
                    }
                }
                guard let source else {
                    diagnostics.append(
                        diagnostic(
                            .invalidDependency, "the dependency '\(entry.key)' needs \"path\" or \"package\"",
                            at: position, hint: "{\"path\": \"../ui-kit\"} or {\"package\": \"vendor/charts.luapkg\"}"))
                    continue
                }
                declarations.append(
                    DependencyDeclaration(name: entry.key, source: source, line: position.line, column: position.column)
                )
            default:
                diagnostics.append(
                    diagnostic(
                        .wrongValueType,
                        "the dependency '\(entry.key)' must be a version constraint or an object, not \(entry.value.kindDescription)",
                        at: position, hint: "\"~> 3.1\", {\"path\": \"../ui-kit\"} or {\"package\": \"lib.luapkg\"}"))
            }
        }
        return (declarations, diagnostics)
    }

    /// `"rocksServers": ["https://luarocks.org", "../rocks"]`: URLs or folders.
    package func decodeServers(_ member: JSONNode.Member) -> ([String], [Diagnostic]) {
        guard case .array(let elements) = member.value.value else {
            return (
                [],
                [
                    diagnostic(
                        .wrongValueType, "\"rocksServers\" must be an array of URLs or folders",
                        at: member.keyPosition, hint: "\"rocksServers\": [\"https://luarocks.org\"]")
                ]
            )
        }
        var servers: [String] = []
        var diagnostics: [Diagnostic] = []
        for element in elements {
            guard case .string(let text) = element.value, !text.isEmpty else {
                diagnostics.append(
                    diagnostic(
                        .wrongValueType, "\"rocksServers\" must hold URLs or folders, not \(element.kindDescription)",
                        at: element.position))
                continue
            }
            servers.append(text)
        }
        return (servers, diagnostics)
    }

    private func diagnostic(_ code: DiagnosticCode, _ message: String, at position: JSONPosition, hint: String? = nil)
        -> Diagnostic
    {
        Diagnostic(
            severity: .error, code: code, message: message, file: path, line: position.line, column: position.column,
            hint: hint)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = self
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return text
    }
}
