import FlowTesting

/// `flowpkg test`'s text output: a progress mark per test while files end (on a terminal),
/// then each pending test, failure and error with its place and message, then the counts.
enum TestTextReport {
    /// busted's marks: ● success, ◼ failure, ✱ error, ◌ pending.
    static func progress(_ file: SpecFileResult) -> String {
        file.records.map { record in
            switch record.status {
            case .success, .listed: return "●"
            case .failure: return "◼"
            case .error: return "✱"
            case .pending: return "◌"
            }
        }.joined()
    }

    static func text(_ report: TestReport, useColor: Bool) -> String {
        var out = ""
        func paint(_ text: String, _ code: String) -> String { useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        for record in report.records where record.status == .pending {
            out += paint("Pending", "33") + " → " + place(record) + record.name + "\n"
            if let message = record.message { out += message + "\n" }
            out += "\n"
        }
        for record in report.records where record.status == .failure || record.status == .error {
            let word = record.status == .failure ? paint("Failure", "31") : paint("Error", "35")
            out += word + " → " + place(record) + record.name + "\n"
            out += (record.message ?? "") + "\n\n"
        }
        return out + summary(report) + "\n"
    }

    /// `7 successes / 1 failure / 2 errors / 2 pending : 0.05 seconds`, as busted counts.
    static func summary(_ report: TestReport) -> String {
        func counted(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        let seconds = (report.duration * 1000).rounded() / 1000
        return counted(report.count(.success), "success", "successes") + " / "
            + counted(report.count(.failure), "failure", "failures") + " / "
            + counted(report.count(.error), "error", "errors") + " / "
            + "\(report.count(.pending)) pending : \(seconds) seconds"
    }

    /// `--list`: `file:line: full name`, one test a line.
    static func list(_ report: TestReport) -> String {
        report.records.filter(\.isTest).map { place($0) + $0.name + "\n" }.joined()
    }

    /// `--format github`: an annotation per failure and error, then the counts.
    static func github(_ report: TestReport) -> String {
        var out = ""
        for record in report.records where record.status == .failure || record.status == .error {
            var properties = ["file=" + DiagnosticRenderer.githubProperty(record.failureFile ?? record.file)]
            if let line = record.failureLine ?? record.line { properties.append("line=\(line)") }
            properties.append("title=" + DiagnosticRenderer.githubProperty(record.name))
            out +=
                "::error " + properties.joined(separator: ",") + "::"
                + DiagnosticRenderer.githubData(record.message ?? record.status.rawValue) + "\n"
        }
        return out + summary(report) + "\n"
    }

    private static func place(_ record: SpecRecord) -> String {
        record.file + (record.line.map { ":\($0)" } ?? "") + ": "
    }
}
