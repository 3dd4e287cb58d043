import FlowTestSupport
import Foundation
import Testing

/// No descriptor of dev's reaches its program (issue 43, item 15): dev's signal pipe was
/// inherited, and `os.execute("printf '\002' >&4")` in the program stopped dev as Ctrl-C would.
@Suite(.serialized) struct DevDescriptorTests {
    /// The program writes a signal number into every descriptor from 3 to 40; dev must still
    /// be there to start it again at the next save.
    @Test func theProgramCannotReachDevsSignalPipe() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        func program(_ word: String) -> String {
            """
            for fd = 3, 40 do os.execute("printf '\\\\002\\\\017' >&" .. fd .. " 2>/dev/null") end
            print("\(word) wrote")

            """
        }
        let root = try fixture.project("App", modules: ["main.lua": program("first")])
        let dev = try BackgroundFlowpkg(["dev", "App"], in: fixture.url)
        defer { dev.interrupt() }
        #expect(dev.waitFor { stdout, _ in stdout.contains("first wrote") }, "\(dev.stdout)\(dev.stderr)")
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), program("second"))
        #expect(
            dev.waitFor(timeout: 20) { stdout, _ in stdout.contains("second wrote") || stdout.contains("Stopped.") },
            "\(dev.stdout)\(dev.stderr)")
        #expect(!dev.stdout.contains("Stopped.") && dev.process.isRunning, "\(dev.stdout)\(dev.stderr)")
        #expect(dev.interrupt() == 130)
    }
}
