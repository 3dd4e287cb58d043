import FlowTesting

/// `--format tap`: the Test Anything Protocol as busted's TAP handler writes it: a line per
/// test (errors outside tests count as failed ones), failure details as `#` comments.
enum TestTAPReport {
    static func text(_ report: TestReport) -> String {
        var out = ""
        var number = 0
        for record in report.records {
            number += 1
            switch record.status {
            case .success, .listed:
                out += "ok \(number) - \(record.name)\n"
            case .pending:
                out += "ok \(number) - # SKIP \(record.message ?? record.name)\n"
            case .failure, .error:
                out += "not ok \(number) - \(record.name)\n"
                out += "# \(record.file) @ \(record.line ?? 0)\n"
                let message = (record.message ?? "").split(separator: "\n", omittingEmptySubsequences: false)
                out += "# Failure message: " + message.joined(separator: "\n# ") + "\n"
            }
        }
        return out + "1..\(number)\n"
    }
}
