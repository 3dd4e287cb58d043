import FlowLua

/// A chunk's line counts as the coverage hook returns them: `{ [line] = hits }`, which crosses
/// into Swift as an array when the lines run are exactly 1...n.
enum LineHits {
    static func decode(_ value: LuaValue) -> [Int: Int] {
        var hits: [Int: Int] = [:]
        switch value {
        case .array(let counts):
            for (index, count) in counts.enumerated() {
                if case .integer(let number) = count { hits[index + 1] = Int(number) }
            }
        case .table(let counts):
            for (line, count) in counts {
                if let line = Int(line), case .integer(let number) = count { hits[line] = Int(number) }
            }
        default: break
        }
        return hits
    }
}
