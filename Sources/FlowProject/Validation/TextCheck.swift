/// Tells a Lua text file from binary junk: NUL bytes and precompiled chunks (FP302); and text
/// that is not UTF-8 (FP305, a warning: Lua reads source as bytes, so Latin-1 text still runs).
enum TextCheck {
    struct Problem: Equatable {
        var message: String
        var line: Int
        var column: Int
        var hint: String?
        /// Only the text's encoding is wrong (FP305): the file is still Lua source.
        var isEncoding = false
    }

    /// The first reason `bytes` is not Lua source text (a NUL byte anywhere, a precompiled
    /// chunk); else the first byte that is not UTF-8 (`isEncoding`); nil for UTF-8 source text.
    static func problem(in bytes: [UInt8]) -> Problem? {
        if bytes.first == 0x1B {
            return Problem(
                message: "the file is a precompiled Lua chunk, not source text", line: 1, column: 1,
                hint: "packages hold Lua source only: add the .lua source instead")
        }
        return bytes.withUnsafeBufferPointer { buffer -> Problem? in
            // Fast path: plain ASCII without NUL, 32 then eight bytes at a time (the flags of
            // four words are or-ed, so the loop branches once per 32 bytes).
            var index = 0
            var encoding: Problem?
            let count = buffer.count
            let raw = UnsafeRawPointer(buffer.baseAddress)
            @inline(__always) func flags(_ word: UInt64) -> UInt64 {
                (word | ((word &- 0x0101_0101_0101_0101) & ~word)) & 0x8080_8080_8080_8080
            }
            if let raw {
                while index + 32 <= count {
                    let a = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let b = raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                    let c = raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                    let d = raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
                    if flags(a) | flags(b) | flags(c) | flags(d) != 0 { break }
                    index += 32
                }
                while index + 8 <= count {
                    if flags(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) != 0 { break }
                    index += 8
                }
            }
            while index < count {
                let byte = buffer[index]
                if byte == 0 {
                    return problem(
                        "the file contains a NUL byte: it is binary, not Lua source text", at: index, in: buffer,
                        hint: "a binary file belongs under Resources/, not under a sources folder")
                }
                if byte < 0x80 {
                    index += 1
                    continue
                }
                let length = sequenceLength(buffer, at: index)
                if length == 0 {
                    // Kept while the rest is scanned: a NUL byte further on is the worse news.
                    if encoding == nil {
                        encoding = problem(
                            "the file is not UTF-8 text (byte 0x\(String(byte, radix: 16, uppercase: true))); "
                                + "Lua reads it as bytes, so it runs and is packaged as it is",
                            at: index, in: buffer, hint: "save it as UTF-8 so that editors and messages show it right")
                        encoding?.isEncoding = true
                    }
                    index += 1
                    continue
                }
                index += length
            }
            return encoding
        }
    }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0 when it is invalid
    /// (overlong forms, surrogates and values past U+10FFFF included).
    private static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = buffer[index]
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 0
        }
        guard index + length <= buffer.count else { return 0 }
        let second = buffer[index + 1]
        guard second >= lower && second <= upper else { return 0 }
        for offset in 2..<length where buffer[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }

    private static func problem(_ message: String, at offset: Int, in buffer: UnsafeBufferPointer<UInt8>, hint: String)
        -> Problem
    {
        var line = 1
        var lineStart = 0
        for i in 0..<offset where buffer[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return Problem(message: message, line: line, column: offset - lineStart + 1, hint: hint)
    }
}
