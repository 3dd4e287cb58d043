/// flowpkg's catalogue of codes: every code once, with its default severity, its title and
/// what it means (what an editor shows on hovering a code, `flowpkg lsp`). Rules refer to
/// these entries, never to a code's text; docs/diagnostics.md lists the same codes (code,
/// severity, title), and a test holds the two together.
extension DiagnosticCode {
    // flowpkg.json
    public static let invalidProjectJSON = DiagnosticCode(
        "FP101", .error, "flowpkg.json is not valid JSON",
        "flowpkg.json is not valid JSON; the message gives the line and column where reading stopped.")
    public static let wrongValueType = DiagnosticCode(
        "FP102", .error, "a key holds the wrong type of value",
        "A key of flowpkg.json holds the wrong type of value (for example a number where a string is expected).")
    public static let unknownKey = DiagnosticCode(
        "FP103", .warning, "unknown key",
        "flowpkg.json has a key flowpkg does not know; it is ignored (a warning). Often a misspelt key.")
    public static let missingKey = DiagnosticCode(
        "FP104", .error, "a required key is missing",
        "A required key of flowpkg.json is missing: name, identifier and version are needed.")
    public static let invalidIdentifier = DiagnosticCode(
        "FP105", .error, "invalid package identifier",
        "The identifier is not a valid reverse-DNS package identifier (ASCII letters, digits, '-' and '.').")
    public static let invalidValue = DiagnosticCode(
        "FP106", .error, "invalid name, version or other value",
        "The project's name, version or another value of flowpkg.json (such as an ignore entry's code) is not valid.")
    public static let unknownEnvironment = DiagnosticCode(
        "FP107", .error, "unknown environment",
        "The environment is unknown; known environments are 'lua' and 'codeflow-ios'.")
    public static let projectUnreadable = DiagnosticCode(
        "FP108", .error, "project folder or flowpkg.json missing or unreadable",
        "The project folder or its flowpkg.json is missing or cannot be read.")
    public static let missingFolder = DiagnosticCode(
        "FP109", .error, "missing sources or resources folder",
        "A sources or resources folder is missing.")
    public static let folderOutsideProject = DiagnosticCode(
        "FP110", .error, "folder not inside the project",
        "A sources or resources folder is not a path relative to the project folder, or lies outside it.")
    // flowpkg.json: links out of the repository (issue 38)
    public static let linkOutsideRepository = DiagnosticCode(
        "FP111", .error, "link outside the project's repository",
        "A linked resource, or a .luacheckrc that is a symbolic link, lies outside the project's repository (the git work tree holding flowpkg.json, or the project folder when there is none). Allow it with --allow-outside-links or FLOWPKG_ALLOW_OUTSIDE_LINKS=1, never from flowpkg.json."
    )
    public static let linkRefused = DiagnosticCode(
        "FP112", .error, "link to a system folder, special file or a folder holding the project",
        "A linked resource, or a .luacheckrc that is a symbolic link, is in /proc, /sys or /dev, is a special file (a FIFO, socket or device), or is a folder that holds the project (such as /). Nothing allows it."
    )
    // Modules and resources
    public static let invalidModuleName = DiagnosticCode(
        "FP201", .error, "invalid module name",
        "A file cannot be a module: its name has a dot, a control character or a character require cannot use.")
    public static let duplicateModule = DiagnosticCode(
        "FP202", .error, "duplicate module",
        "Two files are the same module (for example Foo.lua and Foo/init.lua): require would find only one.")
    public static let modulesDifferOnlyByCase = DiagnosticCode(
        "FP203", .error, "modules differ only by case",
        "Two modules differ only by case: they collide on case-insensitive file systems.")
    public static let invalidResourceName = DiagnosticCode(
        "FP204", .error, "invalid resource name",
        "A resource's name is not valid.")
    public static let duplicateResource = DiagnosticCode(
        "FP205", .error, "duplicate resource",
        "Two files give the same resource (name and type).")
    public static let resourcesDifferOnlyByCase = DiagnosticCode(
        "FP206", .error, "resources differ only by case",
        "Two resources differ only by case: they collide on case-insensitive file systems.")
    public static let missingLinkedResource = DiagnosticCode(
        "FP207", .error, "missing linked resource",
        "A linked resource (an object entry of \"resources\") points at a file that does not exist.")
    public static let unreadableFile = DiagnosticCode(
        "FP208", .error, "unreadable file",
        "A module or resource file cannot be read, or is not a regular file.")
    public static let missingStartModule = DiagnosticCode(
        "FP209", .error, "start module missing",
        "The start module named in flowpkg.json is not a module of the project.")
    public static let linkEscapesProject = DiagnosticCode(
        "FP210", .error, "link escapes the project",
        "A symbolic link in the project leads outside it, or in a loop.")
    // Each module
    public static let luaSyntaxError = DiagnosticCode(
        "FP301", .error, "Lua syntax error",
        "The module is not valid Lua 5.4: the real Lua compiler refused it at this place. Always an error, whether or not the module loads when the program starts: export would package it, and the require that first loads it would fail."
    )
    public static let notText = DiagnosticCode(
        "FP302", .error, "binary module",
        "The module is not Lua source text: it holds a NUL byte, or it is a precompiled Lua chunk.")
    public static let moduleTooLarge = DiagnosticCode(
        "FP303", .error, "module too large or nested too deep",
        "The module is too large, or nested too deeply for Lua's compiler (about 200 levels, 200 locals per function).")
    public static let syntaxErrorWhenLoaded = DiagnosticCode(
        "FP304", .warning, "retired: a syntax error is always FP301",
        "No longer reported. It was a syntax error in a module nothing loads at start, graded a warning; since export would package a module that cannot load, every syntax error is now an error, FP301."
    )
    public static let notUTF8 = DiagnosticCode(
        "FP305", .warning, "module is not UTF-8 text",
        "The module holds bytes that are not UTF-8 (Latin-1 text, say). Lua 5.4 reads source as bytes, so the module compiles, runs and is packaged as it is; editors and flowpkg's messages may show those bytes wrongly (a warning; save the file as UTF-8)."
    )
    // Static analysis (can be silenced)
    public static let unknownRequire = DiagnosticCode(
        "FP401", .error, "unknown require",
        "require names a module that neither the project, Lua's standard library nor the environment provides, at a module's top level (unconditional, unprotected): loading the module fails, whether or not it loads at start."
    )
    public static let unknownRequireWhenRun = DiagnosticCode(
        "FP402", .warning, "unknown require reached only when it runs",
        "require names a module nobody provides, inside a function, a condition or a pcall: it fails when it runs (a warning)."
    )
    public static let requireCycle = DiagnosticCode(
        "FP403", .error, "require cycle",
        "Modules require each other in a cycle at their top level, and one of them loads when the program starts: Lua 5.4's require recurses until the stack overflows. Elsewhere a warning, FP407; a require inside a function breaks the cycle."
    )
    public static let unknownResource = DiagnosticCode(
        "FP404", .error, "getResource names no resource",
        "getResource names a resource (name and type) the project does not have, at a module's top level: loading the module fails, whether or not it loads at start. Inside a function or a condition, a warning, FP408."
    )
    public static let undefinedGlobal = DiagnosticCode(
        "FP405", .warning, "undefined global",
        "A global is read that neither the environment, flowpkg.json's \"globals\", .luacheckrc nor a _G.name = ... definition declares (luacheck's 113): often a typo or a missing local (a warning)."
    )
    public static let unnamedResource = DiagnosticCode(
        "FP406", .warning, "resource no module names",
        "No module names this resource in a string literal: it may be unused (a warning; silence it for resources whose names are computed)."
    )
    public static let requireCycleWhenRun = DiagnosticCode(
        "FP407", .warning, "require cycle reached only when it runs",
        "Modules require each other in a cycle at load time, but none of them loads when the program starts: the first require of one of them recurses until Lua stops with a stack overflow (a warning)."
    )
    public static let unknownResourceWhenRun = DiagnosticCode(
        "FP408", .warning, "getResource names no resource, reached only when it runs",
        "getResource names a resource the project does not have, inside a function or a condition: that call raises an error when it runs (a warning)."
    )
    // Export
    public static let outputUnwritable = DiagnosticCode(
        "FP501", .error, "output cannot be written",
        "The package cannot be written where asked.")
    public static let inputUnreadable = DiagnosticCode(
        "FP502", .error, "input unreadable or changed during export",
        "An input file could not be read, or changed while it was exported.")
    public static let packageLimit = DiagnosticCode(
        "FP503", .error, "package limit exceeded",
        "The package would exceed one of the format's limits.")
    public static let invalidSourceDateEpoch = DiagnosticCode(
        "FP504", .error, "invalid SOURCE_DATE_EPOCH",
        "SOURCE_DATE_EPOCH is not a whole number of seconds.")
    public static let exportCancelled = DiagnosticCode(
        "FP505", .error, "export cancelled",
        "The export was cancelled; no package was written.")
    public static let outputWouldReplace = DiagnosticCode(
        "FP506", .error, "output would replace a file that is not a package",
        "The output would replace a file that is not a package, or one of the project's own files (--force allows it).")
    // Templates
    public static let invalidTemplateManifest = DiagnosticCode(
        "FP601", .error, "missing or invalid template.json",
        "A template's template.json is missing or not valid JSON.")
    public static let invalidTemplateKey = DiagnosticCode(
        "FP602", .error, "missing or unknown key in template.json",
        "A template's template.json has a missing or unknown key.")
    public static let invalidTemplateFile = DiagnosticCode(
        "FP603", .error, "Mustache error or unreadable template file",
        "A template file does not parse as Mustache, or cannot be read.")
    public static let invalidRenderedPath = DiagnosticCode(
        "FP604", .error, "rendered path leaves the project or is not valid",
        "A template file renders to a path that leaves the project or is not valid.")
    public static let renderedPathCollision = DiagnosticCode(
        "FP605", .error, "rendered paths collide",
        "Two template files render to the same path.")
    public static let undeclaredTemplateVariable = DiagnosticCode(
        "FP606", .error, "undeclared template variable",
        "A template names a variable it does not declare, so it would render as empty text.")
    // Packages (`flowpkg verify`, the reader)
    public static let packageUnreadable = DiagnosticCode(
        "FP701", .error, "package cannot be read",
        "The package cannot be opened, is not a zip archive, or its archive is damaged.")
    public static let manifestNotFirst = DiagnosticCode(
        "FP702", .error, "manifest.json missing or not first",
        "manifest.json is missing, is not the archive's first entry, is not a regular file or is over the size limit.")
    public static let invalidManifest = DiagnosticCode(
        "FP703", .error, "invalid manifest",
        "manifest.json is not valid JSON or breaks the format's rules (a missing field, a bad name, a wrong digest).")
    public static let unsafeEntry = DiagnosticCode(
        "FP704", .error, "unsafe entry",
        "An entry's path is absolute, climbs out with '..', or is not valid; or the entry is a folder, a symbolic link or another non-regular file."
    )
    public static let entryNotListed = DiagnosticCode(
        "FP705", .error, "entry unlisted, missing or repeated",
        "The archive and the manifest disagree: an entry the manifest does not list, a listed entry the archive lacks, or an entry stored twice."
    )
    public static let corruptEntry = DiagnosticCode(
        "FP706", .error, "entry size or SHA-256 mismatch",
        "An entry's bytes are not what the manifest says (size or SHA-256), or cannot be read.")
    public static let packageLimitExceeded = DiagnosticCode(
        "FP707", .error, "package over the reader's limits",
        "The archive holds more entries than a package may, or an entry would inflate far past what it takes in the archive (a zip bomb)."
    )
    public static let identifierMismatch = DiagnosticCode(
        "FP708", .error, "another package identifier",
        "The package's identifier is not the one asked for (verify --identifier, or the host's).")
    public static let untrustedSignature = DiagnosticCode(
        "FP709", .error, "signature missing, unreadable or untrusted",
        "manifest.sig is missing, too large, unreadable, or not made by a trusted key.")
    public static let moreProblems = DiagnosticCode(
        "FP710", .error, "more problems than are listed",
        "Past the first hundred, a package's problems are counted rather than listed.")

    // Dependencies (issue 36): flowpkg.json's dependencies, flowpkg.lock, LuaRocks, the cache.
    public static let invalidDependency = DiagnosticCode(
        "FP801", .error, "invalid dependency entry",
        "An entry of flowpkg.json's dependencies or rocksServers is not a LuaRocks constraint, {\"path\": DIR} or {\"package\": FILE}, or its name is not a rock name."
    )
    public static let lockOutOfDate = DiagnosticCode(
        "FP802", .error, "flowpkg.lock missing or out of date",
        "flowpkg.lock does not pin what flowpkg.json's dependencies ask for (run flowpkg lock), or --locked found it had to change."
    )
    public static let lockedFileMismatch = DiagnosticCode(
        "FP803", .error, "locked file differs from the lock",
        "A dependency file's bytes (in the cache, vendor/, a fetched rock or a package) do not have the SHA-256 flowpkg.lock pins; nothing is packaged from it."
    )
    public static let luarocksMissing = DiagnosticCode(
        "FP804", .error, "luarocks not installed",
        "Rock dependencies are resolved and fetched by LuaRocks, which is not on the PATH.")
    public static let unknownRock = DiagnosticCode(
        "FP805", .error, "no such rock",
        "No rocks server lists a rock of that name.")
    public static let unsatisfiableConstraint = DiagnosticCode(
        "FP806", .error, "no version matches the constraint",
        "The rocks servers have the rock, but no version of it satisfies the constraint (or the constraints of what depends on it)."
    )
    public static let rocksServerUnreachable = DiagnosticCode(
        "FP807", .error, "rocks server unreachable",
        "A rocks server (URL or folder) could not be read: no manifest there, or the connection failed.")
    public static let rockHasCCode = DiagnosticCode(
        "FP808", .error, "rock with C code",
        "A rock builds C code or installs a lib/ file; only pure Lua travels in a package. List the C module in externalModules if the host provides it."
    )
    public static let pathDependencyUnusable = DiagnosticCode(
        "FP809", .error, "path dependency missing or not a project",
        "A path dependency's folder does not exist or holds no usable flowpkg.json.")
    public static let packageDependencyUnusable = DiagnosticCode(
        "FP810", .error, "package dependency unreadable or corrupt",
        "A .luapkg dependency is missing, not a package, or fails its manifest and hash checks.")
    public static let moduleProvidedTwice = DiagnosticCode(
        "FP811", .error, "module provided twice",
        "Two dependencies, or a dependency and the project's own sources, provide a module of the same name.")
    public static let luarocksFailed = DiagnosticCode(
        "FP812", .error, "luarocks failed",
        "LuaRocks failed for another reason; its own output is quoted.")
    public static let lockedFileUnavailable = DiagnosticCode(
        "FP813", .error, "locked file not available offline",
        "A file flowpkg.lock pins is neither in flowpkg's cache nor in vendor/, and --offline forbids fetching it.")
    public static let pathDependencyChanged = DiagnosticCode(
        "FP814", .error, "path dependency changed since the lock",
        "A file of a path dependency is not what flowpkg.lock recorded (export --locked).")
    public static let dependencyCycle = DiagnosticCode(
        "FP815", .error, "path dependencies form a cycle",
        "A path dependency depends, through its own dependencies, on itself or on the project that uses it.")
    public static let dependencyNameClash = DiagnosticCode(
        "FP816", .error, "one dependency name, two sources",
        "Two dependencies of the same name (the project's and a dependency's own, or two dependencies' own) come from different places."
    )
}

/// Looking codes up by their text.
public enum DiagnosticCodes {
    /// Every code of the catalogue, in order.
    public static let all: [DiagnosticCode] =
        [
            .invalidProjectJSON, .wrongValueType, .unknownKey, .missingKey, .invalidIdentifier, .invalidValue,
            .unknownEnvironment, .projectUnreadable, .missingFolder, .folderOutsideProject, .linkOutsideRepository,
            .linkRefused, .invalidModuleName,
            .duplicateModule, .modulesDifferOnlyByCase, .invalidResourceName, .duplicateResource,
            .resourcesDifferOnlyByCase, .missingLinkedResource, .unreadableFile, .missingStartModule,
            .linkEscapesProject,
            .luaSyntaxError, .notText, .moduleTooLarge, .syntaxErrorWhenLoaded, .notUTF8, .unknownRequire,
            .unknownRequireWhenRun,
            .requireCycle, .unknownResource, .undefinedGlobal, .unnamedResource, .requireCycleWhenRun,
            .unknownResourceWhenRun,
        ] + lint + [
            .outputUnwritable, .inputUnreadable, .packageLimit,
            .invalidSourceDateEpoch, .exportCancelled, .outputWouldReplace, .invalidTemplateManifest,
            .invalidTemplateKey,
            .invalidTemplateFile, .invalidRenderedPath, .renderedPathCollision, .undeclaredTemplateVariable,
            .packageUnreadable, .manifestNotFirst, .invalidManifest, .unsafeEntry, .entryNotListed, .corruptEntry,
            .packageLimitExceeded, .identifierMismatch, .untrustedSignature, .moreProblems,
            // Dependencies (issue 36).
            .invalidDependency, .lockOutOfDate, .lockedFileMismatch, .luarocksMissing, .unknownRock,
            .unsatisfiableConstraint, .rocksServerUnreachable,
            .rockHasCCode, .pathDependencyUnusable, .packageDependencyUnusable, .moduleProvidedTwice, .luarocksFailed,
            .lockedFileUnavailable, .pathDependencyChanged, .dependencyCycle, .dependencyNameClash,
        ]

    private static let byCode: [String: DiagnosticCode] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The catalogue's entry for `code` (`FP405`), or nil for a code flowpkg does not have.
    public static func entry(for code: String) -> DiagnosticCode? { byCode[code] }

    /// The explanation of `code` (`FP405`), or nil for a code flowpkg does not have.
    public static func explanation(of code: String) -> String? { byCode[code]?.explanation }
}

// Lint (issue 34): luacheck's warning classes, each with its luacheck number, and the checks
// only a whole-project view makes (FP48x). Warnings, all of them; they can be silenced.
extension DiagnosticCode {
    public static let settingGlobal = DiagnosticCode(
        "FP409", .warning, "setting a non-standard global (luacheck 111)",
        "A module assigns a global that neither Lua 5.4, the environment, flowpkg.json's \"globals\" nor .luacheckrc declares (`x = 1`, `function x() end`): often a missing `local`."
    )
    public static let mutatingGlobal = DiagnosticCode(
        "FP410", .warning, "mutating a non-standard global (luacheck 112)",
        "A module sets a field of a global nothing declares (`x.y = 1`).")
    public static let settingReadOnlyGlobal = DiagnosticCode(
        "FP411", .warning, "setting a read-only global (luacheck 121)",
        "A module assigns a global of Lua's standard library or the environment (`string = 2`).")
    public static let settingReadOnlyField = DiagnosticCode(
        "FP412", .warning, "setting a read-only field of a global (luacheck 122)",
        "A module replaces a field of a standard library table (`string.format = f`).")
    public static let unusedGlobal = DiagnosticCode(
        "FP413", .warning, "unused global (luacheck 131)",
        "With .luacheckrc's allow_defined or allow_defined_top, a module defines a global no module reads.")
    public static let settingUndefinedField = DiagnosticCode(
        "FP414", .warning, "setting an undefined field of a global (luacheck 142)",
        "A module adds a field to a standard library table (`table.unpack2 = 1`).")
    public static let undefinedField = DiagnosticCode(
        "FP415", .warning, "accessing an undefined field of a global (luacheck 143)",
        "A module reads a field Lua 5.4's library table does not have (`string.formt`): often a typo. A field of another Lua version read where the code tests it (`math.pow or f`) is not reported."
    )
    public static let unusedVariable = DiagnosticCode(
        "FP421", .warning, "unused variable (luacheck 211)",
        "A local variable or local function is never read (a function called only from its own body too).")
    public static let unusedArgument = DiagnosticCode(
        "FP422", .warning, "unused argument (luacheck 212)",
        "A function's argument (its implicit self or its `...` too) is never read; name it `_` when it must be there.")
    public static let unusedLoopVariable = DiagnosticCode(
        "FP423", .warning, "unused loop variable (luacheck 213)",
        "A loop variable is never read; name it `_` when it must be there.")
    public static let variableNeverSet = DiagnosticCode(
        "FP425", .warning, "variable never set (luacheck 221)",
        "A local variable is read but never given a value: it is always nil.")
    public static let variableNeverAccessed = DiagnosticCode(
        "FP426", .warning, "variable never accessed (luacheck 231)",
        "A local variable is set, but its value is never read.")
    public static let argumentNeverAccessed = DiagnosticCode(
        "FP427", .warning, "argument never accessed (luacheck 232)",
        "An argument is set again, but never read.")
    public static let loopVariableNeverAccessed = DiagnosticCode(
        "FP428", .warning, "loop variable never accessed (luacheck 233)",
        "A loop variable is set, but never read.")
    public static let variableMutatedNeverAccessed = DiagnosticCode(
        "FP429", .warning, "variable mutated but never accessed (luacheck 241)",
        "A local table is filled (`t.x = 1`) but never read.")
    public static let fieldOverwritten = DiagnosticCode(
        "FP434", .warning, "table field overwritten (luacheck 314)",
        "A table constructor sets the same key twice (`{a = 1, a = 2}`): the first value is lost.")
    public static let redefinedLocal = DiagnosticCode(
        "FP441", .warning, "variable redefined (luacheck 411)",
        "A local is declared again in the same scope, hiding the first.")
    public static let redefinedArgument = DiagnosticCode(
        "FP442", .warning, "argument redefined (luacheck 412)",
        "A local of a function's body has the name of one of its arguments.")
    public static let redefinedLoopVariable = DiagnosticCode(
        "FP443", .warning, "loop variable redefined (luacheck 413)",
        "A local of a loop's body has the name of its loop variable.")
    public static let shadowedLocal = DiagnosticCode(
        "FP444", .warning, "shadowing a local (luacheck 421)",
        "A local in a nested block hides a local of the same function.")
    public static let shadowedArgument = DiagnosticCode(
        "FP445", .warning, "shadowing an argument (luacheck 422)",
        "A local in a nested block hides an argument of the same function.")
    public static let shadowedLoopVariable = DiagnosticCode(
        "FP446", .warning, "shadowing a loop variable (luacheck 423)",
        "A local in a nested block hides a loop variable of the same function.")
    public static let shadowedUpvalue = DiagnosticCode(
        "FP447", .warning, "shadowing an upvalue (luacheck 431)",
        "A local hides a local of an enclosing function.")
    public static let shadowedUpvalueArgument = DiagnosticCode(
        "FP448", .warning, "shadowing an upvalue argument (luacheck 432)",
        "A local hides an argument of an enclosing function (its implicit self too).")
    public static let shadowedUpvalueLoopVariable = DiagnosticCode(
        "FP449", .warning, "shadowing an upvalue loop variable (luacheck 433)",
        "A local hides a loop variable of an enclosing function.")
    public static let unreachableCode = DiagnosticCode(
        "FP451", .warning, "unreachable code (luacheck 511)",
        "Code after a return, break, goto, an if whose every branch leaves, or an endless loop: it never runs.")
    public static let loopRunsOnce = DiagnosticCode(
        "FP452", .warning, "loop executed at most once (luacheck 512)",
        "Every way through the loop's body ends in break or return.")
    public static let unusedLabel = DiagnosticCode(
        "FP453", .warning, "unused label (luacheck 521)",
        "No goto of the function names this label.")
    public static let assignmentTooManyValues = DiagnosticCode(
        "FP454", .warning, "more values than targets (luacheck 531)",
        "An assignment has more values on its right side than names on its left: the extra ones are lost.")
    public static let assignmentTooFewValues = DiagnosticCode(
        "FP455", .warning, "fewer values than targets (luacheck 532)",
        "An assignment has fewer values than targets, the last not a call: the extra targets get nil.")
    public static let emptyDoBlock = DiagnosticCode(
        "FP456", .warning, "empty do..end block (luacheck 541)",
        "A do..end block holds nothing.")
    public static let emptyIfBranch = DiagnosticCode(
        "FP457", .warning, "empty if branch (luacheck 542)",
        "An if, elseif or else branch holds nothing.")
    public static let reversedNumericLoop = DiagnosticCode(
        "FP459", .warning, "numeric for loop from #t up to 1 (luacheck 571)",
        "`for i = #t, 1 do` without a negative step runs at most once: add `, -1`.")
    public static let simplifiableNegation = DiagnosticCode(
        "FP460", .warning, "negation can be simplified (luacheck 581)",
        "`not (a == b)` says `a ~= b` (and the like), if neither side is a table or NaN.")
    public static let errorProneNegation = DiagnosticCode(
        "FP461", .warning, "error-prone negation (luacheck 582)",
        "`not a == b` compares `not a`, a boolean, with b: `not` binds tighter than comparison.")
    public static let whitespaceOnlyLine = DiagnosticCode(
        "FP471", .warning, "line contains only whitespace (luacheck 611)",
        "A line holds nothing but spaces or tabs.")
    public static let trailingWhitespace = DiagnosticCode(
        "FP472", .warning, "trailing whitespace (luacheck 612)",
        "A line of code ends in spaces or tabs.")
    public static let trailingWhitespaceInString = DiagnosticCode(
        "FP473", .warning, "trailing whitespace in a string (luacheck 613)",
        "A line inside a long string ends in spaces or tabs.")
    public static let trailingWhitespaceInComment = DiagnosticCode(
        "FP474", .warning, "trailing whitespace in a comment (luacheck 614)",
        "A comment ends in spaces or tabs.")
    public static let inconsistentIndentation = DiagnosticCode(
        "FP475", .warning, "inconsistent indentation (luacheck 621)",
        "A line's indentation has a space followed by a tab.")
    public static let unknownModuleField = DiagnosticCode(
        "FP481", .warning, "unknown field of a project module",
        "A module reads a field of a project module it required (`Banner.fram`) that the module's table does not have: the module returns a table whose every field is known (a constructor, `M.name = ...`, `function M.name()`), and no module adds this one. Often a typo: the hint names the closest field and where it is set."
    )
    public static let lineTooLong = DiagnosticCode(
        "FP476", .warning, "line too long (luacheck 631)",
        "A line is longer than the limit: 120 characters unless .luacheckrc sets max_line_length (or max_code_line_length, max_string_line_length, max_comment_line_length)."
    )
}

extension DiagnosticCodes {
    /// The lint codes by luacheck number (`211`): how `.luacheckrc` options and `-- luacheck:`
    /// comments name them.
    public static let byLuacheckNumber: [Int: DiagnosticCode] = [
        111: .settingGlobal, 112: .mutatingGlobal, 121: .settingReadOnlyGlobal, 122: .settingReadOnlyField,
        131: .unusedGlobal, 142: .settingUndefinedField, 143: .undefinedField, 211: .unusedVariable,
        212: .unusedArgument, 213: .unusedLoopVariable, 221: .variableNeverSet, 231: .variableNeverAccessed,
        232: .argumentNeverAccessed, 233: .loopVariableNeverAccessed, 241: .variableMutatedNeverAccessed,
        314: .fieldOverwritten, 411: .redefinedLocal, 412: .redefinedArgument, 413: .redefinedLoopVariable,
        421: .shadowedLocal, 422: .shadowedArgument, 423: .shadowedLoopVariable, 431: .shadowedUpvalue,
        432: .shadowedUpvalueArgument, 433: .shadowedUpvalueLoopVariable, 511: .unreachableCode, 512: .loopRunsOnce,
        521: .unusedLabel, 531: .assignmentTooManyValues, 532: .assignmentTooFewValues, 541: .emptyDoBlock,
        542: .emptyIfBranch, 571: .reversedNumericLoop, 581: .simplifiableNegation, 582: .errorProneNegation,
        611: .whitespaceOnlyLine, 612: .trailingWhitespace, 613: .trailingWhitespaceInString,
        614: .trailingWhitespaceInComment, 621: .inconsistentIndentation, 631: .lineTooLong, 113: .undefinedGlobal,
    ].merging(valueFlowByLuacheckNumber) { first, _ in first }

    /// The lint codes, in order.
    static let lintClasses: [DiagnosticCode] = [
        .settingGlobal, .mutatingGlobal, .settingReadOnlyGlobal, .settingReadOnlyField, .unusedGlobal,
        .settingUndefinedField, .undefinedField, .unusedVariable, .unusedArgument, .unusedLoopVariable,
        .variableNeverSet, .variableNeverAccessed, .argumentNeverAccessed, .loopVariableNeverAccessed,
        .variableMutatedNeverAccessed, .fieldOverwritten, .redefinedLocal, .redefinedArgument,
        .redefinedLoopVariable, .shadowedLocal, .shadowedArgument, .shadowedLoopVariable, .shadowedUpvalue,
        .shadowedUpvalueArgument, .shadowedUpvalueLoopVariable, .unreachableCode, .loopRunsOnce, .unusedLabel,
        .assignmentTooManyValues, .assignmentTooFewValues, .emptyDoBlock, .emptyIfBranch, .reversedNumericLoop,
        .simplifiableNegation, .errorProneNegation, .whitespaceOnlyLine, .trailingWhitespace,
        .trailingWhitespaceInString, .trailingWhitespaceInComment, .inconsistentIndentation, .lineTooLong,
        .unknownModuleField,
    ]
}
