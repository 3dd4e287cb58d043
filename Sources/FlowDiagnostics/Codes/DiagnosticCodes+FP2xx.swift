// The catalogue, FP201–FP299: which files are modules and resources (see DiagnosticCodes.swift).
extension DiagnosticCode {
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
}
