import FlowLua
import LuaSyntax

/// Why a file was not formatted.
package enum FormatFailure: Error, Equatable, Sendable {
    /// The file is not valid Lua 5.4: left as it is.
    case syntax(LuaSyntaxError)
    /// Lua 5.4's compiler refuses the file beyond the grammar (a `goto` without its label, a
    /// limit): its message; left as it is.
    case notCompiled(String)
    /// The result would compile to other bytecode, or lose or reorder a comment: flowpkg's
    /// own fault; nothing is written.
    case meaningChanged(String)
}

/// Formats and proves the result means what the source meant before anyone writes it: Lua 5.4
/// compiles both, and their bytecode stripped of debug information and line spans must be
/// the same bytes (the instructions, the constants in order, the functions' nesting), and the
/// comments must be the same, in the same order. One per thread.
package final class CheckedFormat {
    private let checker = LuaChunkChecker()

    package init() {}

    /// The formatted text of `source`, checked unless it is the source itself.
    package func format(_ source: [UInt8], options: FormatOptions, range: Range<Int>? = nil, chunkName: String)
        throws(FormatFailure) -> [UInt8]
    {
        let formatted: [UInt8]
        var source = source
        do {
            // `sort_requires` reorders statements, as asked: the layout is checked against the
            // source with its requires sorted.
            if options.sortRequires && range == nil { source = try LuaFormat.sortingRequires(source) }
            var layout = options
            layout.sortRequires = false
            formatted = try LuaFormat.format(source, options: layout, range: range)
        } catch {
            throw .syntax(error)
        }
        if formatted != source { try verify(source, formatted, chunkName: chunkName) }
        return formatted
    }

    /// Throws `meaningChanged` unless `formatted` means what `original` does.
    package func verify(_ original: [UInt8], _ formatted: [UInt8], chunkName: String) throws(FormatFailure) {
        let before: [UInt8], after: [UInt8]
        do {
            before = try checker.strippedBytecode(original, chunkName: chunkName)
        } catch {
            // Lua refuses what the parser took (a limit, a goto): nothing to compare against.
            throw .notCompiled("\(error)")
        }
        do {
            after = try checker.strippedBytecode(formatted, chunkName: chunkName)
        } catch {
            throw .meaningChanged("the formatted text does not compile: \(error)")
        }
        guard before == after else { throw .meaningChanged("the formatted text compiles to other bytecode") }
        guard Self.comments(original) == Self.comments(formatted) else {
            throw .meaningChanged("the formatted text does not keep the comments as they were")
        }
    }

    /// A chunk's comments in order (line comments without trailing spaces).
    static func comments(_ source: [UInt8]) -> [String] {
        guard let stream = try? LuaTokenStream(source: source) else { return [] }
        var comments: [String] = []
        for index in stream.tokens.indices where stream.hasComment(before: index) {
            for case .comment(let text, _) in stream.trivia(before: index) { comments.append(text) }
        }
        return comments
    }
}
