import CLua

extension LuaState {
    /// The lines of a chunk that hold code, in every function it defines: Lua 5.4's
    /// `activelines`, for the functions `lua_getinfo` cannot reach before they exist. The chunk
    /// is compiled (not run) and its line information read from `lua_dump`'s output.
    package func activeLines(ofChunk source: [UInt8], chunkName: String) throws -> Set<Int> {
        let L = mainThread
        try source.withUnsafeBytes { try loadFile($0, rawChunkName: "@" + chunkName, on: L) }
        let box = DumpBuffer()
        let writer: lua_Writer = { _, bytes, count, box in
            guard let bytes, let box else { return 0 }
            let buffer = Unmanaged<DumpBuffer>.fromOpaque(box).takeUnretainedValue()
            buffer.bytes += UnsafeRawBufferPointer(start: bytes, count: count)
            return 0
        }
        let status = withExtendedLifetime(box) { lua_dump(L, writer, Unmanaged.passUnretained(box).toOpaque(), 0) }
        flowlua_pop(L, 1)
        guard status == 0 else { throw LuaError(kind: .other, message: "cannot read the chunk's lines") }
        var reader = DumpReader(bytes: box.bytes)
        return try reader.activeLines()
    }
}

private final class DumpBuffer {
    var bytes: [UInt8] = []
}

/// Reads what ldump.c writes (Lua 5.4), keeping only each function's line information.
private struct DumpReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    struct Malformed: Error {}

    mutating func activeLines() throws -> Set<Int> {
        // Signature (4), version, format, LUAC_DATA (6), three sizes, LUAC_INT, LUAC_NUM, the
        // main closure's upvalue count.
        try skip(4 + 1 + 1 + 6)
        let instructionSize = Int(try byte()), integerSize = Int(try byte()), numberSize = Int(try byte())
        guard instructionSize == 4 else { throw Malformed() }
        try skip(integerSize + numberSize + 1)
        var lines = Set<Int>()
        try function(into: &lines, integerSize: integerSize, numberSize: numberSize)
        return lines
    }

    private mutating func function(into lines: inout Set<Int>, integerSize: Int, numberSize: Int) throws {
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
        for _ in 0..<(try size()) { try function(into: &lines, integerSize: integerSize, numberSize: numberSize) }
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
        for (pc, delta) in lineInfo.enumerated() {
            line = delta == -0x80 ? (absolute[pc] ?? line) : line + Int(delta)
            // A vararg function's first instruction (VARARGPREP) is no line of its own.
            if pc > 0 || !isVararg { lines.insert(line) }
        }
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
