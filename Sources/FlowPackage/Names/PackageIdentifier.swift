/// A package identifier: reverse-DNS, as the host passes it to the loader (`com.example.app`).
public struct PackageIdentifier: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let rawValue: String

    /// Checks `rawValue` against the identifier rules; the error says which rule it breaks.
    public init(_ rawValue: String) throws(NameError) {
        if let problem = Self.problem(in: rawValue) {
            throw NameError(kind: .identifier, value: rawValue, reason: problem)
        }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Why `value` is not a valid identifier, or nil when it is.
    public static func problem(in value: String) -> String? {
        // Every identifier a package holds passes this byte scan; only one that breaks a rule
        // goes on to the checks below, which say which rule.
        if isPlainlyValid(value) { return nil }
        if value.isEmpty { return "it is empty" }
        if value.utf8.count > 255 { return "it is longer than 255 characters" }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count < 2 { return "it needs at least two dot-separated parts, like com.example.app" }
        for part in parts {
            if part.isEmpty { return "it has an empty part between dots" }
            for scalar in part.unicodeScalars {
                let ok =
                    scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
                if !ok { return "'\(scalar)' is not allowed: use ASCII letters, digits, '-' and '.'" }
            }
            if part.hasPrefix("-") || part.hasSuffix("-") { return "a part may not start or end with '-'" }
        }
        return nil
    }

    /// Whether `value` keeps every rule `problem(in:)` checks, in one pass over its UTF-8:
    /// at most 255 bytes, two or more parts between dots, each of ASCII letters, digits and
    /// '-', neither starting nor ending with '-'. False also when the string's UTF-8 is not
    /// contiguous (`problem(in:)` then checks it the slow way).
    private static func isPlainlyValid(_ value: String) -> Bool {
        let valid = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.isEmpty, bytes.count <= 255 else { return false }
            var parts = 1
            var partLength = 0
            var previous: UInt8 = 0
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "."):
                    guard partLength > 0, previous != UInt8(ascii: "-") else { return false }
                    parts += 1
                    partLength = 0
                case UInt8(ascii: "-"):
                    guard partLength > 0 else { return false }
                    partLength += 1
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    partLength += 1
                default: return false
                }
                previous = byte
            }
            return parts >= 2 && partLength > 0 && previous != UInt8(ascii: "-")
        }
        return valid ?? false
    }
}

/// A name that breaks the rules for its kind, with the rule it breaks.
public struct NameError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        case identifier = "package identifier"
        case module = "module name"
        case resource = "resource name"
    }

    public var kind: Kind
    public var value: String
    public var reason: String

    public var description: String { "'\(value)' is not a valid \(kind.rawValue): \(reason)" }
}
