import FlowSupport
import FlowTesting

/// `--format junit`: one `testsuite` of `testcase`s (classname `file:line`, name the full name),
/// failures, errors and skipped tests as JUnit consumers read them; an error outside the tests
/// is a test case of its own, so a CI shows it.
enum TestJUnitReport {
    static func xml(_ report: TestReport) -> String {
        let records = report.records
        let failures = report.count(.failure), errors = report.count(.error), skipped = report.count(.pending)
        let time = seconds(report.duration)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(records.count)\" failures=\"\(failures)\" errors=\"\(errors)\" "
        out += "skipped=\"\(skipped)\" time=\"\(time)\">\n"
        out += "  <testsuite name=\"flowpkg test\" tests=\"\(records.count)\" failures=\"\(failures)\" "
        out += "errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\">\n"
        for record in records {
            let classname = escaped(record.file + ":" + String(record.line ?? 0))
            out += "    <testcase classname=\"\(classname)\" name=\"\(escaped(record.name))\""
            out += " time=\"\(seconds(record.duration ?? 0))\""
            switch record.status {
            case .success, .listed:
                out += "/>\n"
            case .pending:
                out += ">\n      <skipped message=\"\(escaped(record.message ?? ""))\"/>\n    </testcase>\n"
            case .failure, .error:
                let tag = record.status == .failure ? "failure" : "error"
                let message = record.message ?? ""
                let first = String(message.split(separator: "\n").first ?? "")
                out += ">\n      <\(tag) message=\"\(escaped(first))\" type=\"\(tag)\">"
                out += escaped(message + (record.traceback.map { "\n" + $0 } ?? ""))
                out += "</\(tag)>\n    </testcase>\n"
            }
        }
        return out + "  </testsuite>\n</testsuites>\n"
    }

    private static func seconds(_ value: Double) -> String {
        String((value * 1000).rounded() / 1000)
    }

    private static func escaped(_ text: String) -> String { text.markupEscaped }
}
