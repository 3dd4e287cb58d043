import CStyLuaToml

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TOML value as stylua.toml's reader needs it: toml++ parses (CStyLuaToml), this holds the
/// result in Swift values. Floats, arrays and dates are kept as their kind only: no StyLua key
/// takes one, so they are only ever reported as mistyped.
package indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case boolean(Bool)
    case table([String: TOMLEntry])
    case other(kind: String)

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var integer: Int64? { if case .integer(let number) = self { number } else { nil } }
    var boolean: Bool? { if case .boolean(let flag) = self { flag } else { nil } }
    var table: [String: TOMLEntry]? { if case .table(let members) = self { members } else { nil } }
}

/// A key's value and where it is written (1-based line and column of the value).
package struct TOMLEntry: Equatable, Sendable {
    package var value: TOMLValue
    package var line: Int
    package var column: Int
}

/// What toml++ refused, with the place it gives (1-based line and column).
package struct TOMLSyntaxError: Error, Equatable, Sendable {
    package var line: Int
    package var column: Int
    package var message: String
}

package enum TOMLDocument {
    /// The top-level table of `text`.
    package static func parse(_ text: String) throws(TOMLSyntaxError) -> [String: TOMLEntry] {
        var error: UnsafeMutablePointer<CChar>?
        var line: UInt32 = 0
        var column: UInt32 = 0
        // The bytes and a NUL after them: a pointer even for an empty file.
        let bytes = Array(text.utf8) + [0]
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                cstyluatoml_parse(chars.baseAddress, chars.count - 1, &error, &line, &column)
            }
        }
        guard let document = parsed else {
            let message = error.map { String(cString: $0) } ?? "not valid TOML"
            free(error)
            throw TOMLSyntaxError(line: Int(line), column: Int(column), message: message)
        }
        defer { cstyluatoml_free(document) }
        return tables(of: document)[-1] ?? [:]
    }

    /// Every table of the document by its entry's index (-1 the top), built from the innermost
    /// out: entries come parents first, so walking them backwards finishes a table before the
    /// entry that holds it is read.
    private static func tables(of document: OpaquePointer) -> [Int: [String: TOMLEntry]] {
        let count = Int(cstyluatoml_count(document))
        var tables: [Int: [String: TOMLEntry]] = [-1: [:]]
        for index in stride(from: count - 1, through: 0, by: -1) {
            let entry = cstyluatoml_at(document, index)
            let key = String(cString: entry.key)
            let value: TOMLValue
            switch entry.kind {
            case CSTYLUATOML_STRING: value = .string(entry.text.map { String(cString: $0) } ?? "")
            case CSTYLUATOML_INTEGER: value = .integer(entry.integer)
            case CSTYLUATOML_BOOLEAN: value = .boolean(entry.boolean != 0)
            case CSTYLUATOML_TABLE: value = .table(tables.removeValue(forKey: index) ?? [:])
            case CSTYLUATOML_FLOAT: value = .other(kind: "a float")
            case CSTYLUATOML_ARRAY: value = .other(kind: "an array")
            default: value = .other(kind: "a date or time")
            }
            tables[Int(entry.parent), default: [:]][key] = TOMLEntry(
                value: value, line: Int(entry.line), column: Int(entry.column))
        }
        return tables
    }
}
