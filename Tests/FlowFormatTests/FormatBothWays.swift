import Foundation

@testable import FlowFormat

/// Formats with one of the formatter's own switches (`settledStatements`, `emitsStatements`:
/// ways to the same output, not StyLua options) off and on, for the suites that prove the
/// output is the same either way.
enum FormatBothWays {
    static func format(
        _ source: [UInt8], _ options: FormatOptions, _ toggle: WritableKeyPath<FormatOptions, Bool>
    ) throws -> (off: [UInt8], on: [UInt8]) {
        var off = options
        off[keyPath: toggle] = false
        var on = options
        on[keyPath: toggle] = true
        return (try LuaFormat.format(source, options: off), try LuaFormat.format(source, options: on))
    }

    /// The files (not Lua ones skipped: ldoc stubs) that format differently off and on.
    static func differing(
        _ files: [String], _ options: FormatOptions, _ toggle: WritableKeyPath<FormatOptions, Bool>
    ) throws -> [String] {
        var differing: [String] = []
        for path in files {
            let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let (off, on) = try? format(source, options, toggle) else { continue }
            if off != on { differing.append(path) }
        }
        return differing
    }
}

extension Doc {
    /// The text of a `.text`, or of a `.slice` read from `source`; nil for other nodes.
    func plainText(_ source: [UInt8]) -> String? {
        switch self {
        case .text(let string, _): return string
        case .slice(let start, let length, _):
            return String(decoding: source[Int(start)..<Int(start + length)], as: UTF8.self)
        default: return nil
        }
    }
}
