/// A failure reported by Lua, with its message copied out of the state.
public struct LuaError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The chunk does not compile.
        case syntax
        /// The chunk compiled and raised an error while running.
        case runtime
        /// Lua ran out of memory.
        case memory
        /// Anything else Lua reports (an error in a message handler, a bad state).
        case other
    }

    public var kind: Kind
    /// Lua's own message, e.g. `main.lua:3: attempt to index a nil value`.
    public var message: String
    /// The chunk name the error happened in, when the message starts with one.
    public var chunk: String?
    /// The line in `chunk`, when Lua gives one.
    public var line: Int?
    /// Lua's `stack traceback:` lines, for runtime errors.
    public var traceback: String?

    public init(kind: Kind, message: String, chunk: String? = nil, line: Int? = nil, traceback: String? = nil) {
        self.kind = kind
        self.message = message
        self.chunk = chunk
        self.line = line
        self.traceback = traceback
    }

    public var description: String {
        guard let traceback, !traceback.isEmpty else { return message }
        return message + "\n" + traceback
    }

    /// Splits Lua's `chunk:line: text` message into its parts.
    static func locate(_ message: String) -> (chunk: String, line: Int, text: String)? {
        // Chunk names may hold colons (`[string "a:b"]`), so look for the first `:<digits>:`.
        let bytes = Array(message.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ":") {
                var end = index + 1
                var line = 0
                while end < bytes.count, bytes[end] >= 48, bytes[end] <= 57, line < 100_000_000 {
                    line = line * 10 + Int(bytes[end] - 48)
                    end += 1
                }
                if end > index + 1, end < bytes.count, bytes[end] == UInt8(ascii: ":") {
                    let chunk = String(decoding: bytes[0..<index], as: UTF8.self)
                    var textStart = end + 1
                    if textStart < bytes.count, bytes[textStart] == UInt8(ascii: " ") { textStart += 1 }
                    let text = String(decoding: bytes[textStart...], as: UTF8.self)
                    return (chunk, line, text)
                }
            }
            index += 1
        }
        return nil
    }
}
