import FlowProject
import FlowTestSupport

/// The type findings (FP9xx) of a one-module project whose start module `Main` is `main`, each
/// as "CODE FILE:LINE:COL" (and its message, with `messages`): what the type suites compare.
enum TypeFindings {
    static func of(_ main: String, messages: Bool) throws -> [String] {
        let scratch = try Scratch("types")
        defer { scratch.remove() }
        try scratch.file(
            "flowpkg.json",
            #"{"name": "T", "identifier": "com.example.t", "version": "1.0.0", "startModule": "Main"}"#)
        try scratch.file("Sources/Main.lua", main)
        let report = Validator.validate(projectAt: scratch.url)
        return report.diagnostics.filter { $0.code.code.hasPrefix("FP9") }.map {
            "\($0.code.code) \($0.place(relativeTo: scratch.url))" + (messages ? " \($0.message)" : "")
        }
    }
}
