// The catalogue, FP701–FP799: packages (`flowpkg verify`, the reader) (see DiagnosticCodes.swift).
extension DiagnosticCode {
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
}
