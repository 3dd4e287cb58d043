/// flowpkg's own version: printed by `--version` and written into every manifest's `generator`.
public enum ToolVersion {
    public static let current = "0.1.0"
    /// The manifest's `generator` value.
    public static var generator: String { "flowpkg \(current)" }
}
