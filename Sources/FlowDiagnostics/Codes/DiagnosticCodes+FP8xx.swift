// The catalogue, FP801–FP899: dependencies (see DiagnosticCodes.swift).
extension DiagnosticCode {
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
    public static let rockBuildRefused = DiagnosticCode(
        "FP817", .error, "rock build not pure Lua",
        "A rock builds with something other than the builtin or none build type (a command, make, cmake, a custom back end), or installs files that are not Lua modules (build.install.bin, conf, lib, copy_directories); it is refused before LuaRocks runs any build."
    )
    public static let vendorLinkRefused = DiagnosticCode(
        "FP818", .error, "symbolic link under vendor/",
        "vendor/, a folder below it or a file flowpkg vendor writes is a symbolic link (or not a folder); flowpkg writes nothing through a link, as linked resources outside the repository are refused (FP111)."
    )
}
