/// What flowpkg's parser can say of a chunk: Lua 5.4 compiles it, it does not, or only Lua's
/// compiler can tell.
///
/// `valid` is a promise: every check of Lua's parser, lexer and code generator passes, so
/// validation may skip compiling the chunk with Lua. Anything the parser cannot mirror exactly
/// (the compiler's limits, the semantic errors Lua words its own way) is `compilerDecides`,
/// and validation compiles the chunk as before. Wrongly saying `valid` would ship a syntax
/// error; wrongly saying `compilerDecides` only costs a compile.
package enum SyntaxVerdict: Equatable, Sendable {
    case valid
    /// The grammar or a token is wrong: where the parser stopped.
    case invalid(LuaSyntaxError)
    /// Parsed, but a check only Lua's compiler makes exactly might fail: why.
    case compilerDecides(String)

    package var isValid: Bool {
        if case .valid = self { return true }
        return false
    }
}

extension LuaParser {
    /// The verdict on the chunk just parsed by `parseChunk()` (whose root is `root`).
    package func verdict(root: Int32) -> SyntaxVerdict {
        if maximumDepthReached > ChunkScreen.maximumDepth {
            return .compilerDecides("nested \(maximumDepthReached) levels deep, near Lua's limit of 200")
        }
        var screen = ChunkScreen(
            nodes: nodes.elements, lists: lists.elements,
            constantsAmong: attributeCount > 0 ? lexer.symbols.count : nil)
        if let reason = screen.check(root: root) { return .compilerDecides(reason) }
        return .valid
    }

    /// Parses `source` and screens it: the verdict alone (tests, and callers with no tree to keep).
    package static func verdict(_ source: UnsafeRawBufferPointer) -> SyntaxVerdict {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count + 4)
        bytes.append(contentsOf: source)
        bytes.append(contentsOf: [0, 0, 0, 0])  // end-of-input sentinels the lexer relies on
        let count = source.count
        return bytes.withUnsafeBufferPointer { buffer -> SyntaxVerdict in
            var parser = LuaParser(lexer: LuaLexer(base: buffer.baseAddress!, count: count))
            do throws(LuaSyntaxError) {
                let root = try parser.parseChunk()
                return parser.verdict(root: root)
            } catch {
                return .invalid(error)
            }
        }
    }

    /// The verdict on a chunk held in an array.
    package static func verdict(_ source: [UInt8]) -> SyntaxVerdict {
        source.withUnsafeBytes { verdict($0) }
    }
}
