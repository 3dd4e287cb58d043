import Testing
@testable import LuaSyntax

/// The parser's buffer behaves as an Array would, through growth, moves between buffers and reuse.
@Suite struct ParseBufferTests {
    @Test func matchesAnArray() {
        var buffer = ParseBuffer<Int32>(capacity: 1)
        var other = ParseBuffer<Int32>(capacity: 1)
        var model: [Int32] = []
        for round in 0..<3 {
            buffer.removeAll()
            model.removeAll()
            for value in Int32(0)..<Int32(1_000 * (round + 1)) {
                buffer.append(value)
                model.append(value)
                if value % 7 == 0 {
                    other.removeAll()
                    other.append(repeating: value, count: 3)
                    other.append(-value)
                    buffer.append(other, from: 2)
                    model += [value, -value]
                }
                if value % 100 == 99 {
                    #expect(buffer.removeLast() == model.removeLast())
                    buffer.truncate(to: buffer.count - 5)
                    model.removeLast(5)
                }
            }
            #expect(Array(buffer.elements) == model)
            buffer[3] = 42
            #expect(buffer[3] == 42)
        }
    }
}
