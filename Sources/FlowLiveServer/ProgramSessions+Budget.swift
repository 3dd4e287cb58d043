/// Keeping all programs within `maxStoredBytes` together, oldest entries first.
extension ProgramSessions {
    /// Lets the oldest entries of the largest program go until all programs together keep at
    /// most `maxStoredBytes`; each program counts what it lost in `discarded`.
    static func keepWithinBudget(_ programs: inout [String: Program], budget: Int = maxStoredBytes) {
        var total = programs.values.reduce(0) { $0 + $1.storedBytes }
        while total > budget,
            let (largest, held) = programs.max(by: { $0.value.storedBytes < $1.value.storedBytes })
        {
            var state = held
            let before = state.storedBytes
            // At most a quarter of what it holds at a time, oldest first, so that the programs
            // end up sharing the budget rather than the largest losing everything.
            var freed = 0
            let goal = min(total - budget, max(1, state.storedBytes / 4))
            var console = 0
            while freed < goal, console < state.console.count {
                freed += size(state.console[console])
                console += 1
            }
            var errors = 0
            while freed < goal, errors < state.errors.count {
                freed += size(state.errors[errors])
                errors += 1
            }
            var reloads = 0
            while freed < goal, reloads < state.reloads.count {
                freed += size(state.reloads[reloads])
                reloads += 1
            }
            state.console.removeFirst(console)
            state.consoleDropped += console
            state.errors.removeFirst(errors)
            state.reloads.removeFirst(reloads)
            var lost = console + errors + reloads
            if freed < goal, !state.loaded.isEmpty {
                lost += state.loaded.count
                freed += state.loaded.reduce(0) { $0 + size($1) }
                state.loaded = []
                state.loadedIndex = [:]
            }
            state.storedBytes -= freed
            state.discarded += lost
            programs[largest] = state
            total -= before - state.storedBytes
            if lost == 0 { break }
        }
    }

    /// Drops the oldest past `limit`; returns the bytes they took.
    static func trim<T>(_ list: inout [T], to limit: Int, size: (T) -> Int) -> Int {
        guard list.count > limit else { return 0 }
        let freed = list.prefix(list.count - limit).reduce(0) { $0 + size($1) }
        list.removeFirst(list.count - limit)
        return freed
    }
}
