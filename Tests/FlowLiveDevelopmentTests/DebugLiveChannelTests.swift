@testable import FlowLiveDevelopment
import Foundation
import Testing

/// The debug channel through a live source is made only for a URL its relay can be at.
@Suite struct DebugLiveChannelTests {
    @Test func aLiveSourceURLWithoutAHostIsRefusedWithItsReason() throws {
        let program = LiveReporter.thisProgram(identifier: "com.example.live")
        let relative = try #require(URL(string: "live-source/v1"))
        #expect {
            _ = try DebugLiveChannel(url: relative, token: "test-token", program: program)
        } throws: { error in
            "\(error)".contains("live-source/v1") && "\(error)".contains("not a URL the debug relay is at")
        }
        let served = try #require(URL(string: "http://127.0.0.1:7315"))
        #expect(throws: Never.self) { _ = try DebugLiveChannel(url: served, token: "test-token", program: program) }
    }
}
