import FlowDependencies
import FlowDiagnostics
import FlowJSON
import FlowPackage

/// The entries of flowpkg.json that are lists of objects: `ignore` rules and `resources`.
extension ProjectFileDecoder {
    /// `"ignore": ["FP405", {"code": "FP406", "path": "Resources/runtime/*"}]`.
    func decodeIgnore(_ member: JSONNode.Member, into diagnostics: inout [Diagnostic]) -> [ProjectFile
        .IgnoreRule]
    {
        guard case .array(let elements) = member.value.value else {
            diagnostics.append(wrongType(member, expected: "an array of codes and {\"code\", \"path\"} objects"))
            return []
        }
        var rules: [ProjectFile.IgnoreRule] = []
        func checked(_ code: String, at position: JSONPosition) -> Bool {
            guard Suppressions.isSuppressible(code) else {
                diagnostics.append(
                    diagnostic(
                        .error, .invalidValue,
                        "'\(code)' cannot be ignored: only static-analysis and lint codes (FP401 to FP483) can",
                        at: position,
                        hint: "errors in the project file, files or syntax must be fixed; write a code like \"FP405\""))
                return false
            }
            return true
        }
        for element in elements {
            switch element.value {
            case .string(let code):
                if checked(code, at: element.position) { rules.append(.init(code: code)) }
            case .object(let fields):
                var code: String?
                var path: String?
                var valid = true
                for field in fields {
                    switch field.key {
                    case "code", "path":
                        guard case .string(let text) = field.value.value else {
                            diagnostics.append(wrongType(field, expected: "a string"))
                            valid = false
                            continue
                        }
                        if field.key == "code" { code = text } else { path = text }
                    default:
                        diagnostics.append(
                            diagnostic(
                                .warning, .unknownKey, "unknown key \"\(field.key)\" in an ignore entry is ignored",
                                at: field.keyPosition, hint: "an ignore entry has \"code\" and \"path\""))
                    }
                }
                guard valid else { continue }
                guard let code else {
                    diagnostics.append(
                        diagnostic(
                            .error, .missingKey, "an ignore entry needs a \"code\"", at: element.position,
                            hint: "{\"code\": \"FP406\", \"path\": \"Resources/runtime/*\"}"))
                    continue
                }
                if checked(code, at: element.position) { rules.append(.init(code: code, path: path)) }
            default:
                diagnostics.append(
                    diagnostic(
                        .error, .wrongValueType,
                        "\"ignore\" must hold codes or {\"code\", \"path\"} objects, not \(element.kindDescription)",
                        at: element.position))
            }
        }
        return rules
    }

    func decodeResources(_ member: JSONNode.Member, into diagnostics: inout [Diagnostic])
        -> ([ProjectFile.ResourceEntry], [JSONPosition])
    {
        guard case .array(let elements) = member.value.value else {
            diagnostics.append(wrongType(member, expected: "an array of folder names and {\"path\", \"name\"} objects"))
            return ([], [])
        }
        var entries: [ProjectFile.ResourceEntry] = []
        var positions: [JSONPosition] = []
        for element in elements {
            switch element.value {
            case .string(let folder):
                entries.append(.folder(folder))
                positions.append(element.position)
            case .object(let fields):
                var path: String?
                var name: String?
                var valid = true
                for field in fields {
                    switch field.key {
                    case "path", "name":
                        guard case .string(let text) = field.value.value else {
                            diagnostics.append(wrongType(field, expected: "a string"))
                            valid = false
                            continue
                        }
                        if field.key == "path" { path = text } else { name = text }
                    default:
                        diagnostics.append(
                            diagnostic(
                                .warning, .unknownKey, "unknown key \"\(field.key)\" in a resource entry is ignored",
                                at: field.keyPosition, hint: "a resource entry has \"path\" and \"name\""))
                    }
                }
                if path == nil, valid {
                    diagnostics.append(
                        diagnostic(
                            .error, .missingKey, "a resource entry needs a \"path\"", at: element.position,
                            hint: "{\"path\": \"../texts/h2g2.txt\", \"name\": \"h2g2\"}"))
                }
                if let path, valid {
                    entries.append(.linked(path: path, name: name))
                    positions.append(element.position)
                }
            default:
                diagnostics.append(
                    diagnostic(
                        .error, .wrongValueType,
                        "\"resources\" must hold folder names or {\"path\", \"name\"} objects, not \(element.kindDescription)",
                        at: element.position))
            }
        }
        return (entries, positions)
    }
}
