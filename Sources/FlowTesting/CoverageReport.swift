import FlowLua
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `--coverage`: the project's own modules (not specs, not dependencies), each with the lines
/// Lua 5.4 marks executable (its `activelines`, read from the compiled chunk) and how often
/// each ran, written as lcov's `lcov.info`, luacov's `luacov.report.out`, Cobertura's XML and
/// an HTML report.
public struct CoverageReport: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Relative to the project folder, as the specs' chunk names give it.
        public var path: String
        /// The lines that hold code, ascending.
        public var executableLines: [Int]
        /// Hits of each line that ran.
        public var hits: [Int: Int]
        public var sourceLines: [String]

        public var hitLines: Int { executableLines.filter { (hits[$0] ?? 0) > 0 }.count }

        public init(path: String, executableLines: [Int], hits: [Int: Int], sourceLines: [String]) {
            self.path = path
            self.executableLines = executableLines
            self.hits = hits
            self.sourceLines = sourceLines
        }
    }

    public var files: [File]

    public init(files: [File]) { self.files = files }

    /// Covered executable lines, in percent of all (100 when there are none).
    public var percent: Double {
        let total = files.reduce(0) { $0 + $1.executableLines.count }
        return total == 0 ? 100 : Double(files.reduce(0) { $0 + $1.hitLines }) * 100 / Double(total)
    }

    /// The report for `modules` (paths relative to `root`) from a run's `lineHits`.
    public static func make(root: String, modules: [String], lineHits: [String: [Int: Int]]) -> CoverageReport {
        var files: [File] = []
        for path in modules.sorted() {
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
            let bytes = [UInt8](data)
            let executable = (try? LuaState(openLibraries: false).activeLines(ofChunk: bytes, chunkName: path)) ?? []
            let text = String(decoding: bytes, as: UTF8.self)
            files.append(
                File(
                    path: path, executableLines: executable.sorted(), hits: lineHits[path] ?? [:],
                    sourceLines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
        }
        return CoverageReport(files: files)
    }

    /// lcov's tracefile: a record per file, `DA:line,hits` for each executable line.
    public var lcov: String {
        var out = ""
        for file in files {
            out += "TN:\nSF:\(file.path)\n"
            for line in file.executableLines { out += "DA:\(line),\(file.hits[line] ?? 0)\n" }
            out += "LF:\(file.executableLines.count)\nLH:\(file.hitLines)\nend_of_record\n"
        }
        return out
    }

    /// luacov's default report: each file's lines with their hits (`****0` for a line never
    /// run), then a summary table.
    public var luacov: String {
        let rule = String(repeating: "=", count: 78) + "\n"
        var out = ""
        for file in files {
            out += rule + file.path + "\n" + rule
            let executable = Set(file.executableLines)
            for (index, text) in file.sourceLines.enumerated() {
                let line = index + 1
                if index == file.sourceLines.count - 1 && text.isEmpty { break }
                let hits = file.hits[line] ?? 0
                let mark = executable.contains(line) ? (hits == 0 ? "****0" : String(hits)) : ""
                out += mark.leftPadded(to: 6) + " " + text + "\n"
            }
            out += "\n"
        }
        out += rule + "Summary\n" + rule + "\n"
        let width = max(4, files.map(\.path.count).max() ?? 0)
        out += "File".padded(to: width) + "  Hits Missed Coverage\n"
        var hit = 0, total = 0
        for file in files {
            hit += file.hitLines
            total += file.executableLines.count
            out += row(file.path, file.hitLines, file.executableLines.count, width: width)
        }
        return out + row("Total", hit, total, width: width)
    }

    private func row(_ name: String, _ hit: Int, _ total: Int, width: Int) -> String {
        let percent = total == 0 ? 0 : Double(hit) * 100 / Double(total)
        return name.padded(to: width) + "  " + String(hit).padded(to: 4) + " " + String(total - hit).padded(to: 6)
            + " " + String(printf: "%.2f%%", percent) + "\n"
    }

    /// Writes every report into `folder` (made when missing): `lcov.info`, `luacov.report.out`,
    /// `cobertura.xml` (its `<source>` is `sourceRoot`, the project folder) and the HTML report
    /// (`index.html`, `style.css`, a page per file), each file whole or not at all; returns the
    /// files written, the HTML report's index standing for its pages.
    public func write(to folder: String, sourceRoot: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let timestamp = Int64(Date().timeIntervalSince1970 * 1000)
        var outputs = [
            ("lcov.info", lcov), ("luacov.report.out", luacov),
            ("cobertura.xml", cobertura(sourceRoot: sourceRoot, timestamp: timestamp)),
        ]
        outputs += html.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var written: [String] = []
        for (name, text) in outputs {
            let target = URL(fileURLWithPath: folder + "/" + name)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let output = try AtomicOutput(beside: target)
            defer { output.removeIfLeft() }
            try Data(text.utf8).write(to: URL(fileURLWithPath: output.path))
            try output.moveIntoPlace()
            if !name.hasSuffix(".html") && name != "style.css" || name == "index.html" { written.append(target.path) }
        }
        return written
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
