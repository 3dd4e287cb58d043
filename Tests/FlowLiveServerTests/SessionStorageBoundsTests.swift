import FlowLiveProtocol
import FlowTestSupport
import Foundation
import Testing

@testable import FlowLiveServer

/// What one token holder can make `serve` keep or compute is bounded (issue 38): counted in
/// calls, items and bytes, never timed.
@Suite struct SessionStorageBoundsTests {
    static func program(_ number: Int) -> LiveProgram {
        LiveProgram(
            id: "program-\(number)", identifier: "com.example.live", hostName: "test", platform: "Linux",
            processID: Int32(number))
    }

    /// 16 KB of `X.lua:1` took seconds a report, every candidate asking the file system.
    @Test func findingTheErrorPlaceAsksABoundedNumberOfPaths() {
        let noise = String(repeating: "X.lua:1", count: LiveProtocol.maxLineBytes / 7)
        var asked = 0
        let found = SessionEvent.location(in: noise) { _ in
            asked += 1
            return false
        }
        #expect(found == nil)
        #expect(asked <= SessionEvent.maximumLocationCandidates)
        // Spaced out, as a real traceback is: still at most the cap.
        asked = 0
        _ = SessionEvent.location(in: String(repeating: "X.lua:1 ", count: 2_000)) { _ in
            asked += 1
            return false
        }
        #expect(asked == SessionEvent.maximumLocationCandidates)
        // A real message is found as before.
        let place = SessionEvent.location(in: "reloading main: Sources/main.lua:12: boom") {
            $0 == "Sources/main.lua"
        }
        #expect(place?.file == "Sources/main.lua")
        #expect(place?.line == 12)
        // Only the start of the text is searched.
        let late = String(repeating: "x", count: SessionEvent.locationSearchBytes) + " Sources/main.lua:3: late"
        #expect(SessionEvent.location(in: late) { _ in true } == nil)
    }

    @Test func loadedItemsAreCappedAndLookedUpByName() throws {
        let sessions = ProgramSessions(root: try Scratch("sessions").url)
        let items = (0..<(ProgramSessions.maxLoadedItems + 500)).map {
            LiveLoadedItem(kind: .module, name: "m\($0)", source: "live", size: 1, sha256: "", loadedAt: 0)
        }
        _ = sessions.receive(
            LiveReport(program: Self.program(1), dropped: 0, events: [LiveEvent(kind: .loaded, items: items)]))
        // The same names again replace, and add nothing.
        _ = sessions.receive(
            LiveReport(
                program: Self.program(1), dropped: 0,
                events: [LiveEvent(kind: .loaded, items: Array(items.prefix(10)))]))
        let state = try #require(sessions.all.first)
        #expect(state.loaded.count == ProgramSessions.maxLoadedItems)
        #expect(state.discarded == 500)
    }

    /// 32 programs × 2,000 lines × 16 KB kept 1 GB: all of them now share a few MB.
    @Test func everyProgramTogetherKeepsWithinOneByteBudget() throws {
        let sessions = ProgramSessions(root: try Scratch("sessions").url)
        let line = String(repeating: "y", count: LiveProtocol.maxLineBytes - 64)
        for number in 0..<ProgramSessions.maxPrograms {
            for _ in 0..<4 {
                let events = (0..<500).map { _ in LiveEvent(kind: .output, stream: .stdout, text: line) }
                _ = sessions.receive(LiveReport(program: Self.program(number), dropped: 0, events: events))
            }
        }
        let all = sessions.all
        #expect(all.count == ProgramSessions.maxPrograms)
        let kept = all.reduce(0) { $0 + $1.console.reduce(0) { $0 + $1.text.utf8.count } }
        #expect(kept <= ProgramSessions.maxStoredBytes)
        #expect(all.reduce(0) { $0 + $1.storedBytes } <= ProgramSessions.maxStoredBytes)
        #expect(all.allSatisfy { $0.discarded > 0 })
        // What the page polls: within the budget too, with "discarded" in it.
        let json = try JSONEncoder().encode(all)
        #expect(json.count <= ProgramSessions.maxStoredBytes + (1 << 20))
        #expect(String(decoding: json, as: UTF8.self).contains("\"discarded\""))
        // The newest lines are the ones kept.
        #expect(all.allSatisfy { !$0.console.isEmpty })
    }
}
