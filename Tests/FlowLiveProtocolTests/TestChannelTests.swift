import FlowLiveProtocol
import Foundation
import Testing

/// The test channel's messages: a request and every message round-trip as JSON, each message
/// decoded by its kind; a test event without text is refused, as every event kind's fields are.
@Suite struct TestChannelTests {
    @Test func aRequestAndItsMessagesRoundTrip() throws {
        var options = TestOptions()
        options.tags = ["fast"]
        options.shard = TestOptions.Shard(index: 2, count: 4)
        let request = LiveTestRequest(
            run: "run-1", files: ["spec/a_spec.lua"], options: options,
            sources: [LiveTestRequest.File(path: "spec/a_spec.lua", text: "it('x', function() end)\n")],
            modules: [LiveTestRequest.Module(name: "say", chunk: "say/init.lua", text: "return {}\n")])
        let decoded = try JSONDecoder().decode(LiveTestRequest.self, from: JSONEncoder().encode(request))
        #expect(decoded == request)
        #expect(request.textBytes == 24 + 10)

        let program = LiveProgram(identifier: "com.example.app", hostName: "mac", platform: "Linux", processID: 42)
        var result = SpecFileResult(
            file: "spec/a_spec.lua",
            records: [
                SpecRecord(
                    status: .failure, name: "a fails", descriptor: "it", file: "spec/a_spec.lua", line: 3,
                    message: "spec/a_spec.lua:4: Expected objects to be equal.", failureLine: 4)
            ])
        result.lineHits = ["src/a.lua": [1: 2]]
        let messages: [LiveTestMessage] = [
            .started(program), .file(result), .finished(seed: 7, duration: 0.5), .refused("no program"),
        ]
        for message in messages {
            let again = try JSONDecoder().decode(LiveTestMessage.self, from: JSONEncoder().encode(message))
            #expect(again == message)
        }
        #expect(messages.map(\.isLast) == [false, false, true, true])
    }

    @Test func aTestEventNeedsItsText() {
        #expect(LiveEvent(kind: .test).problem == "a test event needs text")
        #expect(LiveEvent(kind: .test, text: "spec/a_spec.lua: 1 success").problem == nil)
    }
}
