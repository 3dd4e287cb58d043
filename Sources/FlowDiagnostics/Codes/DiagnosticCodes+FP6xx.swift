// The catalogue, FP601–FP699: templates (see DiagnosticCodes.swift).
extension DiagnosticCode {
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
}
