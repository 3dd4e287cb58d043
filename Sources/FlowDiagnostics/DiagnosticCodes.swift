/// What each FP code means, in a sentence or two: what an editor shows on hovering a code
/// (`flowpkg lsp`). The README's table groups the same codes by hundreds.
public enum DiagnosticCodes {
    /// The explanation of `code` (`FP405`), or nil for a code flowpkg does not have.
    public static func explanation(of code: String) -> String? { explanations[code] }

    /// Every code with its explanation.
    public static let explanations: [String: String] = [
        "FP101": "flowpkg.json is not valid JSON; the message gives the line and column where reading stopped.",
        "FP102":
            "A key of flowpkg.json holds the wrong type of value (for example a number where a string is expected).",
        "FP103": "flowpkg.json has a key flowpkg does not know; it is ignored (a warning). Often a misspelt key.",
        "FP104": "A required key of flowpkg.json is missing: name, identifier and version are needed.",
        "FP105": "The identifier is not a valid reverse-DNS package identifier (ASCII letters, digits, '-' and '.').",
        "FP106":
            "The project's name, version or another value of flowpkg.json (such as an ignore entry's code) is not valid.",
        "FP107": "The environment is unknown; known environments are 'lua' and 'codeflow-ios'.",
        "FP108": "The project folder or its flowpkg.json is missing or cannot be read.",
        "FP109": "A sources or resources folder is missing.",
        "FP110": "A sources or resources folder is not a path relative to the project folder, or lies outside it.",
        "FP201":
            "A file cannot be a module: its name has a dot, a control character or a character require cannot use.",
        "FP202": "Two files are the same module (for example Foo.lua and Foo/init.lua): require would find only one.",
        "FP203": "Two modules differ only by case: they collide on case-insensitive file systems.",
        "FP204": "A resource's name is not valid.",
        "FP205": "Two files give the same resource (name and type).",
        "FP206": "Two resources differ only by case: they collide on case-insensitive file systems.",
        "FP207": "A linked resource (an object entry of \"resources\") points at a file that does not exist.",
        "FP208": "A module or resource file cannot be read, or is not a regular file.",
        "FP209": "The start module named in flowpkg.json is not a module of the project.",
        "FP210": "A symbolic link in the project leads outside it, or in a loop.",
        "FP301": "The module is not valid Lua 5.4: the real Lua compiler refused it at this place.",
        "FP302": "The module is not text: binary content, or not valid UTF-8.",
        "FP303":
            "The module is too large, or nested too deeply for Lua's compiler (about 200 levels, 200 locals per function).",
        "FP401":
            "require names a module that neither the project, Lua's standard library nor the environment provides, at a module's top level: loading the module fails.",
        "FP402":
            "require names a module nobody provides, inside a function, a condition or a pcall: it fails when it runs (a warning).",
        "FP403": "Modules require each other in a cycle at load time: one of them would see the other half-loaded.",
        "FP404": "getResource names a resource (name and type) the project does not have.",
        "FP405":
            "A global is read that no module assigns and neither the environment nor flowpkg.json's \"globals\" define: often a typo or a missing local (a warning).",
        "FP406":
            "No module names this resource in a string literal: it may be unused (a warning; silence it for resources whose names are computed).",
        "FP501": "The package cannot be written where asked.",
        "FP502": "An input file could not be read, or changed while it was exported.",
        "FP503": "The package would exceed one of the format's limits.",
        "FP504": "SOURCE_DATE_EPOCH is not a whole number of seconds.",
        "FP505": "The export was cancelled; no package was written.",
        "FP506":
            "The output would replace a file that is not a package, or one of the project's own files (--force allows it).",
        "FP601": "A template's template.json is missing or not valid JSON.",
        "FP602": "A template's template.json has a missing or unknown key.",
        "FP603": "A template file does not parse as Mustache, or cannot be read.",
        "FP604": "A template file renders to a path that leaves the project or is not valid.",
        "FP605": "Two template files render to the same path.",
        "FP606": "A template names a variable it does not declare, so it would render as empty text.",
    ]
}
