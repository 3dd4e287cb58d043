import CLua

/// Where `lua_dump` writes.
private final class DumpBuffer {
    var bytes: [UInt8] = []
}

/// Reads what ldump.c writes (Lua 5.4): each function's line information, or the whole
/// without the lines (`canonical`).
struct LuaDumpReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    struct Malformed: Error {}

    /// `lua_dump` of the function on top of `L`'s stack (left there), or nil when it fails.
    static func dump(_ L: OpaquePointer, stripped: Bool) -> [UInt8]? {
        let box = DumpBuffer()
        let writer: lua_Writer = { _, bytes, count, box in
            guard let bytes, let box else { return 0 }
            let buffer = Unmanaged<DumpBuffer>.fromOpaque(box).takeUnretainedValue()
            buffer.bytes += UnsafeRawBufferPointer(start: bytes, count: count)
            return 0
        }
        let status = withExtendedLifetime(box) {
            lua_dump(L, writer, Unmanaged.passUnretained(box).toOpaque(), stripped ? 1 : 0)
        }
        return status == 0 ? box.bytes : nil
    }

    /// A stripped dump without each function's first and last line (which `lua_dump` writes
    /// even when stripping): what two chunks that differ only in layout and comments share.
    mutating func canonical() throws -> [UInt8] {
        try skip(4 + 1 + 1 + 6)
        let instructionSize = Int(try byte()), integerSize = Int(try byte()), numberSize = Int(try byte())
        guard instructionSize == 4 else { throw Malformed() }
        try skip(integerSize + numberSize + 1)
        var output = Array(bytes[0..<position])
        try canonicalFunction(into: &output, integerSize: integerSize, numberSize: numberSize)
        return output
    }

    private mutating func canonicalFunction(into output: inout [UInt8], integerSize: Int, numberSize: Int) throws {
        try string()
        _ = try size()  // linedefined
        _ = try size()  // lastlinedefined
        var start = position
        try skip(3)  // numparams, is_vararg, maxstacksize
        try skip(try size() * 4)  // code
        for _ in 0..<(try size()) {  // constants
            switch try byte() {
            case 0x13: try skip(numberSize)
            case 0x03: try skip(integerSize)
            case 0x04, 0x14: try string()
            default: break
            }
        }
        try skip(try size() * 3)  // upvalues
        let protos = try size()
        output += bytes[start..<position]
        for _ in 0..<protos { try canonicalFunction(into: &output, integerSize: integerSize, numberSize: numberSize) }
        start = position
        // Debug information: empty in a stripped dump, four counts of zero.
        for _ in 0..<4 { guard try size() == 0 else { throw Malformed() } }
        output += bytes[start..<position]
    }

    mutating func activeLines() throws -> Set<Int> {
        try lineFacts().lines
    }

    /// The lines with code in the chunk, and each function's: where it is defined and its own
    /// lines (nested functions before the function holding them).
    mutating func lineFacts() throws -> (lines: Set<Int>, functions: [LuaFunctionLines]) {
        // Signature (4), version, format, LUAC_DATA (6), three sizes, LUAC_INT, LUAC_NUM, the
        // main closure's upvalue count.
        try skip(4 + 1 + 1 + 6)
        let instructionSize = Int(try byte()), integerSize = Int(try byte()), numberSize = Int(try byte())
        guard instructionSize == 4 else { throw Malformed() }
        try skip(integerSize + numberSize + 1)
        var lines = Set<Int>()
        var functions: [LuaFunctionLines] = []
        try function(into: &lines, functions: &functions, integerSize: integerSize, numberSize: numberSize)
        return (lines, functions)
    }

    private mutating func function(
        into lines: inout Set<Int>, functions: inout [LuaFunctionLines], integerSize: Int, numberSize: Int
    ) throws {
        try string()
        let lineDefined = try size()
        _ = try size()  // lastlinedefined
        try skip(1)  // numparams
        let isVararg = try byte() != 0
        try skip(1)  // maxstacksize
        try skip(try size() * 4)  // code
        for _ in 0..<(try size()) {  // constants
            switch try byte() {
            case 0x13: try skip(numberSize)
            case 0x03: try skip(integerSize)
            case 0x04, 0x14: try string()
            default: break
            }
        }
        try skip(try size() * 3)  // upvalues
        for _ in 0..<(try size()) {
            try function(into: &lines, functions: &functions, integerSize: integerSize, numberSize: numberSize)
        }
        let lineInfo = (0..<(try size())).map { _ in Int8(bitPattern: (try? byte()) ?? 0) }
        var absolute: [Int: Int] = [:]
        for _ in 0..<(try size()) {
            let pc = try size()
            absolute[pc] = try size()
        }
        for _ in 0..<(try size()) {  // local variables
            try string()
            _ = try size()
            _ = try size()
        }
        for _ in 0..<(try size()) { try string() }  // upvalue names
        var line = lineDefined
        var own = Set<Int>()
        for (pc, delta) in lineInfo.enumerated() {
            line = delta == -0x80 ? (absolute[pc] ?? line) : line + Int(delta)
            // A vararg function's first instruction (VARARGPREP) is no line of its own.
            if pc > 0 || !isVararg { own.insert(line) }
        }
        lines.formUnion(own)
        functions.append(LuaFunctionLines(lineDefined: lineDefined, lines: own))
    }

    private mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw Malformed() }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func skip(_ count: Int) throws {
        guard count >= 0, position + count <= bytes.count else { throw Malformed() }
        position += count
    }

    private mutating func size() throws -> Int {
        var value = 0
        while true {
            let next = try byte()
            value = (value << 7) | Int(next & 0x7f)
            if next & 0x80 != 0 { return value }
            guard value < 1 << 40 else { throw Malformed() }
        }
    }

    private mutating func string() throws {
        let length = try size()
        if length > 0 { try skip(length - 1) }
    }
}
