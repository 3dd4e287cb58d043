import FlowLua

/// Finds where Lua code nests deepest.
///
/// Lua 5.4 reports nesting past its limit as a bare `C stack overflow`, with no line; this
/// scan gives the diagnostic a place. It counts brackets and block keywords (`function`, `if`,
/// `do`, `repeat` against `end`, `until`) and skips strings and comments; an approximation good
/// enough to point at the deep spot, never used to decide whether the code is valid.
enum NestingScanner {
    static func deepestPlace(in source: UnsafeRawBufferPointer) -> (line: Int, column: Int)? {
        var depth = 0
        var deepest = 0
        var place: (line: Int, column: Int)?
        var scanner = LuaByteScanner(source)
        func deeper(at start: Int) {
            depth += 1
            if depth > deepest {
                deepest = depth
                place = (scanner.line, scanner.column(of: start))
            }
        }
        while let token = scanner.next() {
            switch token {
            case .open(let start): deeper(at: start)
            case .close: depth = max(0, depth - 1)
            case .separator: break
            case .word(let start):
                if scanner.word(start, is: "function") || scanner.word(start, is: "if")
                    || scanner.word(start, is: "do") || scanner.word(start, is: "repeat")
                {
                    deeper(at: start)
                } else if scanner.word(start, is: "end") || scanner.word(start, is: "until") {
                    depth = max(0, depth - 1)
                }
            }
        }
        return place
    }
}
