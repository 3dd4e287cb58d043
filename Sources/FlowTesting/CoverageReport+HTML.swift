import FlowSupport

extension CoverageReport {
    /// The static HTML report: `index.html` (a summary table, least covered file first), a page
    /// per file beside it at the file's own path plus `.html` (each line coloured by its hits) and
    /// `style.css`. Keys are paths relative to the report's folder, values the files' text. The
    /// markup and style are `Embedded/coverage/`'s files; only escaped values are filled in here.
    public var html: [String: String] {
        var pages: [String: String] = ["style.css": EmbeddedRunnerLua.coverageFile("style.css")]
        let rowTemplate = EmbeddedRunnerLua.coverageFile("index-row.html")
        var rows = ""
        for file in summaryOrder {
            let page = file.path + ".html"
            pages[page] = Self.page(of: file)
            let percent = Self.percent(file.hitLines, file.executableLines.count)
            rows += rowTemplate.filled([
                "level": Self.level(percent), "page": page.markupEscaped, "path": file.path.markupEscaped,
                "lines": String(file.executableLines.count), "hit": String(file.hitLines),
                "missed": String(file.executableLines.count - file.hitLines),
                "width": String(printf: "%.0f", percent), "percent": String(printf: "%.1f%%", percent),
            ])
        }
        let total = files.reduce(0) { $0 + $1.executableLines.count }
        let hit = files.reduce(0) { $0 + $1.hitLines }
        pages["index.html"] = EmbeddedRunnerLua.coverageFile("index.html").filled([
            "total": String(printf: "%.1f%%", percent), "hit": String(hit), "lines": String(total),
            "missed": String(total - hit), "count": String(files.count), "rows": rows,
        ])
        return pages
    }

    /// The files as the summary lists them: lowest coverage first, then by path.
    public var summaryOrder: [File] {
        files.sorted { left, right in
            let (a, b) = (
                Self.percent(left.hitLines, left.executableLines.count),
                Self.percent(right.hitLines, right.executableLines.count)
            )
            return a != b ? a < b : left.path < right.path
        }
    }

    private static func page(of file: File) -> String {
        let lineTemplate = EmbeddedRunnerLua.coverageFile("file-line.html")
        let executable = Set(file.executableLines)
        var rows = ""
        for (index, text) in file.sourceLines.enumerated() {
            if index == file.sourceLines.count - 1 && text.isEmpty { break }
            let number = index + 1
            let hits = file.hits[number] ?? 0
            let kind = executable.contains(number) ? (hits > 0 ? "hit" : "miss") : "none"
            rows += lineTemplate.filled([
                "kind": kind, "number": String(number), "hits": kind == "none" ? "" : String(hits),
                "text": text.markupEscaped,
            ])
        }
        let depth = file.path.split(separator: "/").count - 1
        let percent = Self.percent(file.hitLines, file.executableLines.count)
        return EmbeddedRunnerLua.coverageFile("file.html").filled([
            "path": file.path.markupEscaped, "percent": String(printf: "%.1f%%", percent),
            "up": String(repeating: "../", count: depth), "hit": String(file.hitLines),
            "lines": String(file.executableLines.count),
            "missed": String(file.executableLines.count - file.hitLines), "rows": rows,
        ])
    }

    static func percent(_ hit: Int, _ total: Int) -> Double {
        total == 0 ? 100 : Double(hit) * 100 / Double(total)
    }

    private static func level(_ percent: Double) -> String {
        percent >= 80 ? "high" : percent >= 50 ? "medium" : "low"
    }
}
