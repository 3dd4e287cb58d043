// The catalogue, FP101–FP199: flowpkg.json and the project folder (see DiagnosticCodes.swift).
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
}
