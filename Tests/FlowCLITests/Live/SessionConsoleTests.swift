import FlowTestSupport
import Foundation
import Testing

/// The session page's console, in headless Chromium: a line evaluated in the program that runs
/// under `flowpkg run --live`, through `flowpkg serve`'s debug relay and the page's token.
@Suite(.serialized) struct SessionConsoleTests {
    private func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    @Test func theConsoleEvaluatesInTheRunningProgramWithTheToken() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "answer = 6 * 7\nprint('started')\n"])
        // --verbose: the request lines the test waits for.
        let served = try ServedProject(root, in: fixture.url, extra: ["--verbose"])
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", root.path, "--live", served.url, "--token", ServedProject.token, "--watch"], in: fixture.url)
        defer { run.interrupt() }
        #expect(
            served.server.waitFor { stdout, _ in stdout.contains("/v1/debug/program") && stdout.contains("started") },
            "\(served.server.stdout)")
        let page = served.url + "/session?token=" + ServedProject.token
        let dom = try LiveSessionTests.dumpDOM(page + "#evaluate=" + encoded("answer + 0"), in: fixture.url)
        #expect(dom.contains("<div class=\"console-result\">42</div>"), "\(dom)")
        let broken = try LiveSessionTests.dumpDOM(page + "#evaluate=" + encoded("1 +"), in: fixture.url)
        #expect(broken.contains("class=\"console-error\">error: "), "\(broken)")
        let refused = try LiveSessionTests.dumpDOM(
            served.url + "/session?token=wrong#evaluate=" + encoded("answer"), in: fixture.url)
        #expect(!refused.contains("console-result"))
        #expect(run.process.isRunning)
    }
}
