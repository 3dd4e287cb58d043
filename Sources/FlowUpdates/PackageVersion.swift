/// A package version compared as Semantic Versioning orders them: `1.10.0` after `1.9.2`,
/// `2.0.0-beta.1` before `2.0.0`; build metadata (`+42`) does not count.
public struct PackageVersion: Comparable, Sendable, CustomStringConvertible {
    public let text: String
    private let release: [UInt64]
    private let prerelease: [Substring]

    /// Nil when `text` does not start with dot-separated numbers (`1`, `1.2`, `1.2.3`, ...).
    public init?(_ text: String) {
        self.text = text
        let withoutBuild = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutBuild.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        var numbers: [UInt64] = []
        for component in parts[0].split(separator: ".", omittingEmptySubsequences: false) {
            guard !component.isEmpty, let number = UInt64(component) else { return nil }
            numbers.append(number)
        }
        guard !numbers.isEmpty else { return nil }
        release = numbers
        prerelease = parts.count > 1 ? parts[1].split(separator: ".", omittingEmptySubsequences: false) : []
    }

    public var description: String { text }

    public static func == (lhs: PackageVersion, rhs: PackageVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    public static func < (lhs: PackageVersion, rhs: PackageVersion) -> Bool {
        let count = max(lhs.release.count, rhs.release.count)
        for index in 0..<count {
            let left = index < lhs.release.count ? lhs.release[index] : 0
            let right = index < rhs.release.count ? rhs.release[index] : 0
            if left != right { return left < right }
        }
        // A pre-release comes before its release.
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): break
        }
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
            switch (UInt64(left), UInt64(right)) {
            case let (l?, r?): return l < r
            case (.some, nil): return true  // numeric identifiers sort before alphanumeric ones
            case (nil, .some): return false
            case (nil, nil): return left < right
            }
        }
        return lhs.prerelease.count < rhs.prerelease.count
    }
}
