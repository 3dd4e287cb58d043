/// Where a dependency is declared: the flowpkg.json that lists it (the project's own, or a
/// path dependency's) and the line and column of its entry, for a message an editor can open.
public struct DeclarationPlace: Sendable, Equatable {
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(file: String, line: Int?, column: Int?) {
        self.file = file
        self.line = line
        self.column = column
    }
}

extension DependencyDeclaration {
    /// This entry's place in `file`, the flowpkg.json it was read from.
    public func place(in file: String) -> DeclarationPlace {
        DeclarationPlace(file: file, line: line, column: column)
    }
}
