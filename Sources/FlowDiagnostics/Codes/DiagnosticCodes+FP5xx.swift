// The catalogue, FP501–FP599: export (see DiagnosticCodes.swift).
extension DiagnosticCode {
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
}
