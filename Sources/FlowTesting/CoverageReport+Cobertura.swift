import FlowSupport

extension CoverageReport {
    /// Cobertura's XML (the shape of its `coverage-04.dtd`, which GitLab, Jenkins and
    /// pycobertura read): a package per folder, a class per file with its executable lines and
    /// their hits. Lines only: `branch-rate` is 0 and no branches are listed. `sourceRoot` is the
    /// project folder the file names are relative to; `timestamp` is in milliseconds since 1970.
    public func cobertura(sourceRoot: String, timestamp: Int64) -> String {
        let packages = Dictionary(grouping: files) { Self.folder(of: $0.path) }
        var out = """
            <?xml version="1.0" ?>
            <!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">

            """
        let total = files.reduce(0) { $0 + $1.executableLines.count }
        let hit = files.reduce(0) { $0 + $1.hitLines }
        out += "<coverage line-rate=\"\(Self.rate(hit, total))\" branch-rate=\"0\" lines-covered=\"\(hit)\""
        out += " lines-valid=\"\(total)\" branches-covered=\"0\" branches-valid=\"0\" complexity=\"0\""
        out += " version=\"flowpkg\" timestamp=\"\(timestamp)\">\n"
        out += "  <sources>\n    <source>\(sourceRoot.markupEscaped)</source>\n  </sources>\n  <packages>\n"
        for name in packages.keys.sorted() {
            let members = packages[name] ?? []
            let packageTotal = members.reduce(0) { $0 + $1.executableLines.count }
            let packageHit = members.reduce(0) { $0 + $1.hitLines }
            out += "    <package name=\"\(name.markupEscaped)\" line-rate=\"\(Self.rate(packageHit, packageTotal))\""
            out += " branch-rate=\"0\" complexity=\"0\">\n      <classes>\n"
            for file in members { out += Self.coberturaClass(file) }
            out += "      </classes>\n    </package>\n"
        }
        return out + "  </packages>\n</coverage>\n"
    }

    private static func coberturaClass(_ file: File) -> String {
        let name = String((file.path.split(separator: "/").last ?? "").dropLast(file.path.hasSuffix(".lua") ? 4 : 0))
        var out = "        <class name=\"\(name.markupEscaped)\" filename=\"\(file.path.markupEscaped)\""
        out += " line-rate=\"\(rate(file.hitLines, file.executableLines.count))\" branch-rate=\"0\" complexity=\"0\">\n"
        out += "          <methods/>\n          <lines>\n"
        for line in file.executableLines {
            out += "            <line number=\"\(line)\" hits=\"\(file.hits[line] ?? 0)\" branch=\"false\"/>\n"
        }
        return out + "          </lines>\n        </class>\n"
    }

    /// The folder of a path relative to the project (`.` for the top), as a package name with
    /// dots as Cobertura's consumers show Java packages.
    static func folder(of path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.count > 1 ? parts.dropLast().joined(separator: ".") : "."
    }

    /// A fraction from 0 to 1 with four decimals (1 when there is nothing to count).
    static func rate(_ hit: Int, _ total: Int) -> String {
        total == 0 ? "1" : String(printf: "%.4f", Double(hit) / Double(total))
    }
}
