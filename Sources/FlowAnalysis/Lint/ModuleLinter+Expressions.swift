import LuaSyntax

/// Reads of locals, as the walk meets names.
extension ModuleLinter {
    @inline(__always) mutating func read(_ symbol: Int32) {
        let bound = scopes.binding(of: symbol)
        guard bound >= 0 else { return }
        noteUse(of: bound)
        if variables[Int(bound)].insideOwnBody {
            variables[Int(bound)].accessedInOwnBody = true
        } else {
            variables[Int(bound)].accessed = true
        }
        variables[Int(bound)].readWhole = true
    }
}
