/// flowpkg's catalogue of codes: every code once, with its default severity, its title and
/// what it means (what an editor shows on hovering a code, `flowpkg lsp`). Rules refer to
/// these entries, never to a code's text; docs/diagnostics.md lists the same codes (code,
/// severity, title), and a test holds the two together.
///
/// The entries are declared in Codes/, a file per hundred codes (DiagnosticCodes+FP1xx.swift
/// for FP101–FP199, and so on; the lint rules' codes generated from their files under
/// Sources/FlowAnalysis/Lint/Rules/, see DiagnosticCodes+Lint.swift); this file lists
/// them all, in order, and looks them up.
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
            .luaSyntaxError, .notText, .moduleTooLarge, .syntaxErrorWhenLoaded, .notUTF8, .notFormatted,
            .invalidFormatConfiguration, .formatFileUnusable, .formatWouldChangeMeaning, .unknownRequire,
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
            .lockedFileUnavailable, .pathDependencyChanged, .dependencyCycle, .dependencyNameClash, .rockBuildRefused,
            .vendorLinkRefused,
            // Types (issue 47).
            .malformedAnnotation, .argumentTypeMismatch, .tooManyReturns, .tooFewReturns, .unknownClassField,
            .callOfNonFunction, .assignmentTypeMismatch, .deprecatedUse, .unreadableLuaLSConfiguration,
            .missingClassField,
        ]

    private static let byCode: [String: DiagnosticCode] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The catalogue's entry for `code` (`FP405`), or nil for a code flowpkg does not have.
    public static func entry(for code: String) -> DiagnosticCode? { byCode[code] }

    /// The explanation of `code` (`FP405`), or nil for a code flowpkg does not have.
    public static func explanation(of code: String) -> String? { byCode[code]?.explanation }
}
