import FlowDiagnostics

/// Sorts findings into `ValidationReport.precedes` order without moving them while sorting.
///
/// A project's findings number in the tens of thousands and come grouped by file: each file
/// gets a rank once (its path compared with the others' only when the ranks are made), then
/// small keys (rank, line, column, position) are sorted, and the findings are laid out once in
/// that order. The same order as `sort(by: ValidationReport.precedes)`, ties included: equal
/// findings keep their order, as Swift's stable sort keeps them.
enum ReportOrder {
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard diagnostics.count > 1 else { return diagnostics }
        // Rank 0 for findings about no file in particular; files from 1, in byte order.
        var fileIndex: [String: Int32] = [:]
        var files: [String] = []
        var fileOf = [Int32](repeating: 0, count: diagnostics.count)
        var last: (file: String, index: Int32)?
        for (position, diagnostic) in diagnostics.enumerated() {
            guard let file = diagnostic.file else { continue }
            if let last, last.file == file {
                fileOf[position] = last.index
                continue
            }
            let index: Int32
            if let known = fileIndex[file] {
                index = known
            } else {
                index = Int32(files.count + 1)
                fileIndex[file] = index
                files.append(file)
            }
            fileOf[position] = index
            last = (file, index)
        }
        let byName = files.indices.sorted { files[$0].utf8.lexicographicallyPrecedes(files[$1].utf8) }
        var rank = [Int32](repeating: 0, count: files.count + 1)
        for (order, index) in byName.enumerated() { rank[index + 1] = Int32(order + 1) }

        var keys = diagnostics.indices.map { position in
            Key(
                rank: rank[Int(fileOf[position])], line: diagnostics[position].line ?? 0,
                column: diagnostics[position].column ?? 0, position: Int32(position))
        }
        keys.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if a.line != b.line { return a.line < b.line }
            if a.column != b.column { return a.column < b.column }
            let x = diagnostics[Int(a.position)]
            let y = diagnostics[Int(b.position)]
            if x.severity != y.severity { return x.severity < y.severity }
            if x.code != y.code { return x.code < y.code }
            if x.message != y.message { return x.message < y.message }
            return a.position < b.position
        }
        return keys.map { diagnostics[Int($0.position)] }
    }

    private struct Key {
        var rank: Int32
        var line: Int
        var column: Int
        var position: Int32
    }
}
