/// The `flowpkg help TOPIC` pages that are not commands: short references compiled into the
/// binary, each naming the DocC article that tells the whole story. `HelpTopicTests` holds
/// `codes` to the codes the sources emit, and every other page to an article that exists.
public enum HelpTopic: String, CaseIterable, Sendable {
    case codes
    case package
    case updates
    case live

    /// The page, ending with a newline.
    public var text: String {
        switch self {
        case .codes: return Self.codesText
        case .package: return Self.packageText
        case .updates: return Self.updatesText
        case .live: return Self.liveText
        }
    }
}
