import LuaSyntax

/// What became of one file.
package struct FormatResult: Sendable, Equatable {
    package enum Outcome: Sendable, Equatable {
        /// Already formatted.
        case unchanged
        /// Rewritten in place.
        case formatted
        /// `--check`: the file would change, as this unified diff shows.
        case wouldChange(diff: String)
        /// Left as it was, for this reason.
        case failed(FormatProblem)
    }

    /// The file as it was named or found (absolute, or as the user gave it).
    package var path: String
    package var outcome: Outcome

    package init(path: String, outcome: Outcome) {
        self.path = path
        self.outcome = outcome
    }
}

/// Why a file was left as it was.
package struct FormatProblem: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Not Lua 5.4 (FP301): the parser's or Lua's message, at its place.
        case syntax
        /// A configuration file that applies is not valid (FP312); `file` is that file.
        case configuration
        /// The file cannot be read or replaced (FP313).
        case unusable
        /// flowpkg's own fault (FP314): the result would not mean the same.
        case meaningChanged
    }

    package var kind: Kind
    package var message: String
    /// The file the problem is in (the configuration file for `configuration`).
    package var file: String
    package var line: Int?
    package var column: Int?

    package init(kind: Kind, message: String, file: String, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }
}
