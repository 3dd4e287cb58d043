import FlowDiagnostics

/// The type checks of a project: each module's own findings, and its calls, field reads and
/// typed assignments against the project's `TypeCatalog`. Only what is certain is reported.
public enum TypeRules {
    /// One module's types, named as the project knows it.
    public struct Module: Sendable {
        public var name: String?
        public var file: String
        public var types: ModuleTypes

        public init(name: String?, file: String, types: ModuleTypes) {
            self.name = name
            self.file = file
            self.types = types
        }
    }

    /// lua-language-server's name for each finding, which `---@diagnostic` comments use.
    static func luaLSName(_ kind: TypeFinding.Kind) -> String {
        switch kind {
        case .malformedAnnotation: return "luadoc-syntax"
        case .argumentType: return "param-type-mismatch"
        case .tooManyReturns: return "redundant-return-value"
        case .tooFewReturns: return "missing-return-value"
        case .unknownField: return "undefined-field"
        case .notCallable: return "call-non-callable"
        case .assignmentType: return "assign-type-mismatch"
        case .missingField: return "missing-fields"
        case .deprecated: return "deprecated"
        }
    }

    /// The LuaLS names whose `diagnostics.disable` silences `code`.
    public static func luaLSNames(of code: DiagnosticCode) -> [String] {
        let kinds: [TypeFinding.Kind] = [
            .malformedAnnotation, .argumentType, .tooManyReturns, .tooFewReturns, .unknownField, .notCallable,
            .assignmentType, .deprecated, .missingField,
        ]
        return kinds.filter { self.code($0) == code }.map(luaLSName)
    }

    static func code(_ kind: TypeFinding.Kind) -> DiagnosticCode {
        switch kind {
        case .malformedAnnotation: return .malformedAnnotation
        case .argumentType: return .argumentTypeMismatch
        case .tooManyReturns: return .tooManyReturns
        case .tooFewReturns: return .tooFewReturns
        case .unknownField: return .unknownClassField
        case .notCallable: return .callOfNonFunction
        case .assignmentType: return .assignmentTypeMismatch
        case .missingField: return .missingClassField
        case .deprecated: return .deprecatedUse
        }
    }

    /// Every type finding of `modules`, checked against `catalog` (which holds them and the definition files).
    public static func check(modules: [Module], catalog: TypeCatalog) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for module in modules {
            var findings = module.types.findings
            findings += callFindings(module.types, catalog: catalog)
            findings += fieldFindings(module.types, catalog: catalog)
            for assignment in module.types.typedAssignments
            where assignment.value != .nil
                && TypeRelations.rejects(assignment.declared, assignment.value, catalog: catalog, coerces: false)
            {
                findings.append(
                    TypeFinding(
                        kind: .assignmentType, line: assignment.line, column: assignment.column,
                        message:
                            "'\(assignment.name)' is declared ---@type \(assignment.declared), but is given a \(TypeRelations.valueText(assignment.value))"
                    ))
            }
            for finding in findings where !module.types.silences(luaLSName(finding.kind), line: finding.line) {
                let code = code(finding.kind)
                diagnostics.append(
                    Diagnostic(
                        severity: code.severity, code: code, message: finding.message, file: module.file,
                        line: finding.line, column: finding.column, hint: finding.hint))
            }
        }
        return diagnostics
    }

    /// The signature, name and deprecation of a call's callee, when the catalogue knows it.
    public static func resolve(_ callee: CallSite.Callee, catalog: TypeCatalog) -> (TypeMember, String)? {
        member(callee, catalog: catalog).map { ($0, name(callee)) }
    }

    /// The callee's member, when the catalogue knows it.
    private static func member(_ callee: CallSite.Callee, catalog: TypeCatalog) -> TypeMember? {
        switch callee {
        case .signature(let signature, let name, let deprecation):
            return TypeMember(name: name, type: .function(signature), deprecation: deprecation)
        case .moduleField(let module, let name):
            return catalog.exports(ofModule: module)[name]
        case .classField(let className, let name):
            return catalog.member(ofClass: className, named: name)
        case .global(let name):
            return catalog.globals[name]
        case .globalField(let table, let name):
            return catalog.globalFields[table]?[name]
        }
    }

    /// The callee as a finding names it (`module.name`, `Class.name`, `name`).
    private static func name(_ callee: CallSite.Callee) -> String {
        switch callee {
        case .signature(_, let name, _), .global(let name): return name
        case .moduleField(let module, let name): return "\(module).\(name)"
        case .classField(let className, let name): return "\(className).\(name)"
        case .globalField(let table, let name): return "\(table).\(name)"
        }
    }

    private static func callFindings(_ types: ModuleTypes, catalog: TypeCatalog) -> [TypeFinding] {
        var findings: [TypeFinding] = []
        for site in types.calls {
            // Most calls resolve to a member that gives no finding: their name is made only for one that does.
            guard let member = member(site.callee, catalog: catalog) else { continue }
            guard
                member.deprecation != nil || TypeRelations.isCertainlyNotCallable(member.type)
                    || (member.signature != nil && site.arguments.contains { $0.type != nil })
            else { continue }
            let name = name(site.callee)
            if let deprecation = member.deprecation {
                findings.append(
                    TypeFinding(
                        kind: .deprecated, line: site.line, column: site.column,
                        message: "'\(name)' is deprecated" + (deprecation.isEmpty ? "" : ": \(deprecation)")))
            }
            if TypeRelations.isCertainlyNotCallable(member.type) {
                findings.append(
                    TypeFinding(
                        kind: .notCallable, line: site.line, column: site.column,
                        message: "'\(name)' is called, but it is declared \(member.type), not a function"))
                continue
            }
            guard let signature = member.signature else { continue }
            let found = argumentFindings(site, signature: signature, name: name, catalog: catalog)
            if !found.isEmpty, !fitsAnOverload(site, signature: signature, name: name, catalog: catalog) {
                findings += found
            }
        }
        return findings
    }

    /// Whether one of the signature's `---@overload`s takes the call's arguments: then none is
    /// reported. An overload of a method whose first parameter is `self` lists it, as a
    /// function written with `.` does.
    private static func fitsAnOverload(_ site: CallSite, signature: FunctionType, name: String, catalog: TypeCatalog)
        -> Bool
    {
        signature.overloads.contains { overload in
            var candidate = overload
            if overload.parameters.first?.name == "self" { candidate.isMethod = false }
            return argumentFindings(site, signature: candidate, name: name, catalog: catalog).isEmpty
        }
    }

    /// Literal arguments against the parameters' annotated types.
    private static func argumentFindings(_ site: CallSite, signature: FunctionType, name: String, catalog: TypeCatalog)
        -> [TypeFinding]
    {
        // `o:m(a)` of a function written `M.m(self, a)`, and `M.m(o, a)` of one written `M:m(a)`.
        var shift = 0
        if site.isMethodCall && !signature.isMethod { shift = 1 }
        if !site.isMethodCall && signature.isMethod { shift = -1 }
        var findings: [TypeFinding] = []
        for (index, argument) in site.arguments.enumerated() {
            let position = index + shift
            guard position >= 0, position < signature.parameters.count, let value = argument.type else { continue }
            let parameter = signature.parameters[position]
            // An explicit nil stands for an argument left out: never reported.
            if value == .nil { continue }
            if let keys = site.constructorKeys[index],
                let missing = missingFields(keys, of: parameter.type, catalog: catalog)
            {
                findings.append(
                    TypeFinding(
                        kind: .missingField, line: argument.line, column: argument.column,
                        message:
                            "argument \(index + 1) of '\(name)' is a \(parameter.type) without its required field\(missing.count == 1 ? "" : "s") "
                            + missing.map { "'\($0)'" }.joined(separator: ", ")))
                continue
            }
            guard TypeRelations.rejects(parameter.type, value, catalog: catalog) else { continue }
            findings.append(
                TypeFinding(
                    kind: .argumentType, line: argument.line, column: argument.column,
                    message:
                        "argument \(index + 1) of '\(name)' is a \(TypeRelations.valueText(value)), but parameter '\(parameter.name)' is \(parameter.type)"
                ))
        }
        return findings
    }

    /// The required fields of the class `type` names that `keys` lacks; nil when none or not certain.
    private static func missingFields(_ keys: Set<String>, of type: LuaType, catalog: TypeCatalog) -> [String]? {
        guard case .named(let className) = type, catalog.classes[className] != nil, catalog.isClosed(className)
        else { return nil }
        let missing = catalog.requiredFields(ofClass: className).subtracting(keys).sorted()
        return missing.isEmpty ? nil : missing
    }

    private static func fieldFindings(_ types: ModuleTypes, catalog: TypeCatalog) -> [TypeFinding] {
        var findings: [TypeFinding] = []
        var closed: [String: Bool] = [:]
        for read in types.fieldReads {
            let isClosed = closed[read.className] ?? catalog.isClosed(read.className)
            closed[read.className] = isClosed
            guard isClosed, catalog.member(ofClass: read.className, named: read.name) == nil else { continue }
            var suggestions = Suggestions(catalog.fields(ofClass: read.className).keys)
            let hint = suggestions.closest(to: read.name).map { "did you mean '\($0)'?" }
            findings.append(
                TypeFinding(
                    kind: .unknownField, line: read.line, column: read.column,
                    message: "class '\(read.className)' has no field '\(read.name)'", hint: hint))
        }
        return findings
    }
}
