import FlowDependencies
import FlowDiagnostics
import FlowJSON
import FlowPackage

/// Turns the bytes of a `flowpkg.json` into a `ProjectFile`, collecting every problem with its
/// place (FP101–FP107) instead of stopping at the first.
struct ProjectFileDecoder {
    /// What decoding gives: the file (with defaults for whatever was missing or wrong, so
    /// discovery can go on), where its values were, and the problems found.
    struct Result {
        var projectFile: ProjectFile?
        /// False when a value the model cannot do without (identifier, start module) is unusable.
        var isUsable = true
        var diagnostics: [Diagnostic] = []
        /// Where each top-level key's value starts.
        var valuePositions: [String: JSONPosition] = [:]
        /// Where each `resources` entry starts, parallel to `projectFile.resources`.
        var resourcePositions: [JSONPosition] = []
        /// Where each `sources` entry starts, parallel to `projectFile.sources`.
        var sourcePositions: [JSONPosition] = []
        var rootPosition = JSONPosition(line: 1, column: 1)
    }

    /// The path diagnostics name the file by.
    let path: String

    func decode(_ bytes: [UInt8], identifierOverride: String? = nil, versionOverride: String? = nil) -> Result {
        var result = Result()
        guard let members = parseMembers(bytes, into: &result) else {
            result.isUsable = false
            return result
        }
        var file = ProjectFile(name: "", identifier: "", version: "")
        decodeIdentity(
            members, identifierOverride: identifierOverride, versionOverride: versionOverride, into: &file,
            result: &result)
        decodeStartModule(members, into: &file, result: &result)
        decodeContents(members, into: &file, result: &result)
        decodeEnvironment(members, into: &file, result: &result)
        decodeOptions(members, into: &file, result: &result)
        result.projectFile = file
        return result
    }

    /// The top-level members by key, and where the root object starts, with the lookups every
    /// key group shares.
    private struct Members {
        let byKey: [String: JSONNode.Member]
        let rootPosition: JSONPosition

        subscript(key: String) -> JSONNode.Member? { byKey[key] }
    }

    /// Parses the bytes and checks they hold an object, warning about unknown keys (FP101–FP103);
    /// nil when the file is not a JSON object.
    private func parseMembers(_ bytes: [UInt8], into result: inout Result) -> Members? {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            result.diagnostics.append(
                diagnostic(
                    .error, .invalidProjectJSON, "\(ProjectFile.fileName) is not valid JSON: \(error.message)",
                    at: error.position))
            return nil
        }
        result.rootPosition = root.position
        guard case .object(let members) = root.value else {
            result.diagnostics.append(
                diagnostic(
                    .error, .wrongValueType,
                    "\(ProjectFile.fileName) must hold a JSON object, not \(root.kindDescription)",
                    at: root.position, hint: "start from {\"name\": ..., \"identifier\": ..., \"version\": ...}"))
            return nil
        }
        var byKey: [String: JSONNode.Member] = [:]
        // The parser has refused a key given twice (FP101), so each key is here once.
        for member in members {
            byKey[member.key] = member
            result.valuePositions[member.key] = member.value.position
            if !ProjectFile.knownKeys.contains(member.key) {
                result.diagnostics.append(
                    diagnostic(
                        .warning, .unknownKey, "unknown key \"\(member.key)\" is ignored", at: member.keyPosition,
                        hint: NameSuggestions.hint(for: member.key, in: ProjectFile.knownKeys)
                            ?? "known keys: " + ProjectFile.knownKeys.joined(separator: ", ")))
            }
        }
        return Members(byKey: byKey, rootPosition: root.position)
    }

    /// The string value of `key` and where it is; nil (with a diagnostic when it is required or of
    /// the wrong type) when it is missing, null (if optional) or not a string.
    private func string(
        _ key: String, in members: Members, required: Bool, into diagnostics: inout [Diagnostic]
    ) -> (text: String, position: JSONPosition)? {
        guard let member = members[key] else {
            if required {
                diagnostics.append(
                    diagnostic(
                        .error, .missingKey, "the required key \"\(key)\" is missing",
                        at: members.rootPosition, hint: Self.missingKeyHint(key)))
            }
            return nil
        }
        if !required, case .null = member.value.value { return nil }
        guard case .string(let text) = member.value.value else {
            diagnostics.append(wrongType(member, expected: "a string"))
            return nil
        }
        return (text, member.value.position)
    }

    /// The strings of the array under `key` with their places, skipping (with a diagnostic) any
    /// element that is not a string; nil when the key is missing or not an array.
    private func stringList(
        _ key: String, in members: Members, into diagnostics: inout [Diagnostic]
    ) -> [(String, JSONPosition)]? {
        guard let member = members[key] else { return nil }
        guard case .array(let elements) = member.value.value else {
            diagnostics.append(wrongType(member, expected: "an array of strings"))
            return nil
        }
        var values: [(String, JSONPosition)] = []
        for element in elements {
            guard case .string(let text) = element.value else {
                diagnostics.append(
                    diagnostic(
                        .error, .wrongValueType, "\"\(key)\" must hold strings, not \(element.kindDescription)",
                        at: element.position))
                continue
            }
            values.append((text, element.position))
        }
        return values
    }

    /// `name`, `identifier` and `version`, each possibly given on the command line instead.
    private func decodeIdentity(
        _ members: Members, identifierOverride: String?, versionOverride: String?, into file: inout ProjectFile,
        result: inout Result
    ) {
        if let (name, position) = string("name", in: members, required: true, into: &result.diagnostics) {
            file.name = name
            if let problem = ProjectFile.nameProblem(name) {
                result.diagnostics.append(
                    diagnostic(.error, .invalidValue, "the name '\(name)' is not valid: \(problem)", at: position))
            }
        }

        let identifier =
            identifierOverride
            ?? string("identifier", in: members, required: identifierOverride == nil, into: &result.diagnostics)?
            .text
        if let identifier {
            file.identifier = identifier
            if let problem = PackageIdentifier.problem(in: identifier) {
                let overridden = identifierOverride != nil
                result.diagnostics.append(
                    diagnostic(
                        .error, .invalidIdentifier,
                        "\(overridden ? "the identifier override" : "the identifier") '\(identifier)' is not valid: \(problem)",
                        at: overridden ? nil : members["identifier"]?.value.position,
                        hint: "use reverse-DNS with ASCII letters, digits and '-', like com.example.myapp"))
                result.isUsable = false
            }
        } else {
            result.isUsable = false
        }

        if let version = versionOverride
            ?? string("version", in: members, required: versionOverride == nil, into: &result.diagnostics)?.text
        {
            file.version = version
            if let problem = ProjectFile.versionProblem(version) {
                let overridden = versionOverride != nil
                result.diagnostics.append(
                    diagnostic(
                        .error, .invalidValue,
                        "\(overridden ? "the version override" : "the version") '\(version)' is not valid: \(problem)",
                        at: overridden ? nil : members["version"]?.value.position))
            }
        }
    }

    /// `startModule`: a module name, or null (or absent) for a library.
    private func decodeStartModule(_ members: Members, into file: inout ProjectFile, result: inout Result) {
        guard let member = members["startModule"] else { return }
        switch member.value.value {
        case .null:
            break
        case .string(let start):
            if let problem = ModuleName.problem(in: start) {
                result.diagnostics.append(
                    diagnostic(
                        .error, .invalidValue, "the start module '\(start)' is not a valid module name: \(problem)",
                        at: member.value.position))
                result.isUsable = false
            } else {
                file.startModule = start
            }
        default:
            result.diagnostics.append(wrongType(member, expected: "a string (or null for a library)"))
            result.isUsable = false
        }
    }

    /// `sources` and `resources`, with where each entry is (the root when the key is absent).
    private func decodeContents(_ members: Members, into file: inout ProjectFile, result: inout Result) {
        if let sources = stringList("sources", in: members, into: &result.diagnostics) {
            file.sources = sources.map(\.0)
            result.sourcePositions = sources.map(\.1)
        } else {
            result.sourcePositions = [members.rootPosition]
        }

        if let types = stringList("types", in: members, into: &result.diagnostics) { file.types = types.map(\.0) }
        for (glob, position) in stringList("exclude", in: members, into: &result.diagnostics) ?? [] {
            guard !glob.isEmpty, !glob.hasPrefix("/"), !glob.split(separator: "/").contains("..") else {
                result.diagnostics.append(
                    diagnostic(
                        .error, .folderOutsideProject,
                        "the exclude glob '\(glob)' must be relative to the project folder, inside it", at: position,
                        hint: "write it as luacheck's exclude_files are: \"bench\", \"examples/**/*.lua\""))
                continue
            }
            file.exclude.append(glob)
        }

        if let member = members["resources"] {
            let (entries, positions) = decodeResources(member, into: &result.diagnostics)
            file.resources = entries
            result.resourcePositions = positions
        } else {
            result.resourcePositions = [members.rootPosition]
        }
    }

    /// What the code runs against: `environment`, `globals` and `externalModules`.
    private func decodeEnvironment(_ members: Members, into file: inout ProjectFile, result: inout Result) {
        if let (environment, position) = string(
            "environment", in: members, required: false, into: &result.diagnostics)
        {
            file.environment = environment
            if !ProjectFile.knownEnvironments.contains(environment) {
                result.diagnostics.append(
                    diagnostic(
                        .error, .unknownEnvironment, "unknown environment '\(environment)'", at: position,
                        hint: "known environments: " + ProjectFile.knownEnvironments.joined(separator: ", ")
                            + "; list your host's own globals in \"globals\""))
            }
        }

        for (global, position) in stringList("globals", in: members, into: &result.diagnostics) ?? [] {
            // A `*` stands for any run of characters: `rspamd_*`, `*_config`.
            let plain = global.replacingAll("*", with: "x")
            if plain.contains(".") || !ModuleName.isLuaIdentifier(Substring(plain)) {
                result.diagnostics.append(
                    diagnostic(
                        .error, .invalidValue, "the global '\(global)' is not a Lua identifier or a glob of one",
                        at: position, hint: "write a name (MyHostAPI) or a glob (rspamd_*, *_config)"))
            } else {
                file.globals.append(global)
            }
        }

        for (module, position) in stringList("externalModules", in: members, into: &result.diagnostics) ?? [] {
            if let problem = ProjectFile.externalModuleProblem(module) {
                result.diagnostics.append(
                    diagnostic(
                        .error, .invalidValue, "the external module '\(module)' is not valid: \(problem)",
                        at: position, hint: "write a module name (lpeg), a prefix (MyHost.*) or a glob (rspamd_*)"))
            } else {
                file.externalModules.append(module)
            }
        }
    }

    /// `ignore`, `runtimeVersion`, `dependencies` and `rocksServers`.
    private func decodeOptions(_ members: Members, into file: inout ProjectFile, result: inout Result) {
        if let member = members["ignore"] {
            file.ignore = decodeIgnore(member, into: &result.diagnostics)
        }

        if let (runtimeVersion, position) = string(
            "runtimeVersion", in: members, required: false, into: &result.diagnostics)
        {
            if runtimeVersion.isEmpty || runtimeVersion.utf8.count > 64 {
                result.diagnostics.append(
                    diagnostic(.error, .invalidValue, "the runtime version must be 1 to 64 characters", at: position))
            } else {
                file.runtimeVersion = runtimeVersion
            }
        }

        let dependencyDecoder = DependencyDeclarationDecoder(path: path)
        if let member = members["dependencies"] {
            let (declarations, problems) = dependencyDecoder.decodeDependencies(member)
            file.dependencies = declarations
            result.diagnostics += problems
        }
        if let member = members[ProjectFile.devDependenciesKey] {
            let (declarations, problems) = dependencyDecoder.decodeDependencies(member)
            file.dependencies += declarations.map { declaration in
                var development = declaration
                development.isDevelopment = true
                return development
            }
            result.diagnostics += problems
        }
        file.tests = (stringList("tests", in: members, into: &result.diagnostics) ?? []).map(\.0)
        if let member = members["rocksServers"] {
            let (servers, problems) = dependencyDecoder.decodeServers(member)
            file.rocksServers = servers
            result.diagnostics += problems
        }
    }

    func wrongType(_ member: JSONNode.Member, expected: String) -> Diagnostic {
        diagnostic(
            .error, .wrongValueType, "\"\(member.key)\" must be \(expected), not \(member.value.kindDescription)",
            at: member.keyPosition)
    }

    func diagnostic(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String, at position: JSONPosition?,
        hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(
            severity: severity, code: code, message: message, file: position == nil ? nil : path,
            line: position?.line, column: position?.column, hint: hint)
    }

    private static func missingKeyHint(_ key: String) -> String {
        switch key {
        case "name": return "add \"name\": \"MyApp\""
        case "identifier": return "add \"identifier\": \"com.example.myapp\""
        default: return "add \"version\": \"1.0.0\""
        }
    }
}
