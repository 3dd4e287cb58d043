import FlowDiagnostics

extension LintRules {
    /// One module's lint diagnostics as its rules word them, filtered by its file's options.
    struct Report {
        let file: String
        let options: LintOptions
        var diagnostics: [Diagnostic] = []

        init(file: String, options: LintOptions) {
            self.file = file
            self.options = options
        }

        /// Adds a finding of `rule`, unless the options leave it out.
        mutating func add(_ rule: any LintClass.Type, _ finding: LintFinding) {
            guard let (message, name) = rule.message(for: finding, options: options),
                options.reports(rule.luacheckNumber, name: name)
            else { return }
            // A long line is reported where it passes the limit, as luacheck does.
            let column =
                rule.code == .lineTooLong ? Int32((options.lineLimit(for: finding.detail) ?? 0) + 1) : finding.column
            diagnostics.append(
                Diagnostic(
                    severity: rule.code.severity, code: rule.code, message: message, file: file,
                    line: Int(finding.line), column: Int(column)))
        }

        /// luacheck's globals (1xx): a free name is a global whatever `_ENV` holds (Lua's manual
        /// calls `_ENV.x` a global too), and only the environment or the configuration declares
        /// one; setting it declares nothing, in this module or for the others (unless
        /// `allow_defined`). A .luacheckrc written for luacheck means the same here.
        mutating func judgeGlobals(
            _ lint: LintFacts, environment: Environment, readOnlyGlobals: Set<String>, read: Set<String>,
            implicit: Set<String>
        ) {
            var definedHere: Set<String> = []
            for set in lint.globalSets {
                let name = set.global
                let finding = LintFinding(0, line: set.line, column: set.column, name: name)
                if readOnlyGlobals.contains(name) || options.readGlobals.contains(name) {
                    add(SettingReadOnlyGlobalRule.self, finding)
                } else if options.defines(global: name, in: environment) {
                    continue
                } else if options.allowDefined || (options.allowDefinedTop && set.isTopLevel) {
                    if definedHere.insert(name).inserted, !read.contains(name) { add(UnusedGlobalRule.self, finding) }
                } else if !implicit.contains(name) {
                    add(SettingGlobalRule.self, finding)
                }
            }
            for set in lint.globalFieldSets {
                judgeFieldSet(set, environment: environment, readOnlyGlobals: readOnlyGlobals, implicit: implicit)
            }
            for field in lint.unknownFieldReads where !field.isGuarded {
                if options.globals.contains(field.global)
                    || options.readGlobals.contains(field.global + "." + field.field)
                {
                    continue
                }
                add(
                    UndefinedFieldRule.self,
                    LintFinding(0, line: field.line, column: field.column, name: field.global, detail: field.field))
            }
        }

        /// A field set on a global: 122 or 142 on a library table, 112 on a global nothing declares.
        private mutating func judgeFieldSet(
            _ set: LintFacts.GlobalAccess, environment: Environment, readOnlyGlobals: Set<String>,
            implicit: Set<String>
        ) {
            let name = set.global
            // luacheck's name for a field warning is the global's (`122/debug`).
            let finding = LintFinding(0, line: set.line, column: set.column, name: name, detail: set.field)
            if let fields = StandardLibraryFields.fields[name], readOnlyGlobals.contains(name),
                !options.globals.contains(name)
            {
                if StandardLibraryFields.isWritable(name, set.field) || set.field.isEmpty { return }
                let rule: any LintClass.Type =
                    fields.contains(set.field) ? SettingReadOnlyFieldRule.self : SettingUndefinedFieldRule.self
                add(rule, finding)
            } else if !options.defines(global: name, in: environment), !implicit.contains(name) {
                add(MutatingGlobalRule.self, finding)
            }
        }
    }
}
