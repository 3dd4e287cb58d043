import FlowLoader
import Testing

/// Every row of DESIGN.md's "Which source wins at start-up" (the sixth row, a module in no
/// source, is the loader's: LoaderTests.moduleInNoSourceListsEveryPlace).
@Suite struct SourcePolicyTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var situation: SourceSituation
        var expected: SourcePlan
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "release host: embedded only, nothing listens",
            situation: .init(monitor: .absent, primary: .ready(.embeddedPackage)),
            expected: SourcePlan(order: [.embeddedPackage])),
        Row(
            name: "monitor on, live connected in time: live first, embedded for the rest",
            situation: .init(monitor: .connected, primary: .ready(.embeddedPackage)),
            expected: SourcePlan(order: [.live, .embeddedPackage])),
        Row(
            name: "monitor on, nothing connected: embedded, a later connection takes over",
            situation: .init(monitor: .notConnected, primary: .ready(.embeddedPackage)),
            expected: SourcePlan(order: [.embeddedPackage], acceptsLaterConnection: true)),
        Row(
            name: "live source of another identifier: refused with a message, embedded stays",
            situation: .init(
                monitor: .refused(reason: "it serves 'com.other.app', not 'com.example.app'"),
                primary: .ready(.embeddedPackage)),
            expected: SourcePlan(
                order: [.embeddedPackage],
                warnings: [
                    "live source refused: it serves 'com.other.app', not 'com.example.app'; using the embedded code"
                ])),
        Row(
            name: "live source fails authentication: refused with a message, embedded stays",
            situation: .init(
                monitor: .refused(reason: "the token was rejected (401)"), primary: .ready(.embeddedPackage)),
            expected: SourcePlan(
                order: [.embeddedPackage],
                warnings: [
                    "live source refused: the token was rejected (401); using the embedded code"
                ])),
        Row(
            name: "embedded package missing, release host: an error naming the file",
            situation: .init(monitor: .absent, primary: .unusable(location: "/app/App.luapkg", reason: "no such file")),
            expected: SourcePlan(order: [], failure: "/app/App.luapkg: no such file")),
        Row(
            name: "embedded package corrupt, nothing connected: an error naming the file",
            situation: .init(
                monitor: .notConnected,
                primary: .unusable(location: "/app/App.luapkg", reason: "modules/main.lua: SHA-256 mismatch")),
            expected: SourcePlan(order: [], failure: "/app/App.luapkg: modules/main.lua: SHA-256 mismatch")),
        Row(
            name: "embedded package of another identifier, live connected: live alone, with a warning",
            situation: .init(
                monitor: .connected,
                primary: .unusable(location: "/app/App.luapkg", reason: "identifier 'com.other.app'")),
            expected: SourcePlan(
                order: [.live],
                warnings: [
                    "embedded package unusable: /app/App.luapkg: identifier 'com.other.app'"
                ])),
        Row(
            name: "project folder (flowpkg run DIR) plays the embedded package's part",
            situation: .init(monitor: .absent, primary: .ready(.projectFolder)),
            expected: SourcePlan(order: [.projectFolder])),
    ]

    @Test(arguments: rows) func row(_ row: Row) {
        #expect(SourcePolicy.plan(for: row.situation) == row.expected)
    }
}
