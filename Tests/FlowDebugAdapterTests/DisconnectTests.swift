import FlowDebugAdapter
import FlowTestSupport
import Foundation
import Testing

/// `disconnect` with `terminateDebuggee`: the adapter answers once the program it launched has
/// gone, since an editor may kill the adapter as soon as it reads the answer.
@Suite(.serialized) struct DisconnectTests {
    /// The built `flowpkg`, next to this test bundle.
    static var flowpkg: URL { FlowpkgProcess.executable }

    @Test func disconnectIsAnsweredOnceTheLaunchedProgramHasGone() throws {
        let work = try Scratch("dap").url
        let root = work.appendingPathComponent("Demo")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try #"{"name": "Demo", "identifier": "com.example.demo", "version": "1.0.0", "startModule": "Main"}"#
            .write(to: root.appendingPathComponent("flowpkg.json"), atomically: true, encoding: .utf8)
        try "io.stderr:write('spinning\\n')\nwhile true do end\n"
            .write(to: root.appendingPathComponent("Sources/Main.lua"), atomically: true, encoding: .utf8)
        // `flowpkg run`, as a program that takes a second to end after SIGTERM (a shell passing
        // it on after cleaning up): the window in which an answer sent first finds it running.
        let slowToEnd = work.appendingPathComponent("slow-to-end")
        try """
        #!/bin/sh
        trap 'sleep 1; kill $child; wait $child; exit 143' TERM
        "\(Self.flowpkg.path)" "$@" &
        child=$!
        wait $child
        """.write(to: slowToEnd, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: slowToEnd.path)

        let client = InProcessDapClient(workingDirectory: work.path, flowpkgExecutable: slowToEnd.path)
        defer { client.close() }
        try client.succeed("initialize", ["clientID": "tests", "adapterID": "flowpkg", "linesStartAt1": true])
        try client.succeed("launch", ["program": root.path, "cwd": work.path])
        _ = try client.event("initialized")
        try client.succeed("configurationDone")
        _ = try client.event("output") { ($0["body"] as? [String: Any])?["output"] as? String == "spinning\n" }
        let (process, _) = try client.event("process")
        let pid = try #require((process["body"] as? [String: Any])?["systemProcessId"] as? Int)
        #expect(Self.isRunning(pid_t(pid)))

        try client.succeed("disconnect", ["terminateDebuggee": true])
        #expect(!Self.isRunning(pid_t(pid)), "the launched program \(pid) still ran when disconnect was answered")
    }

    /// Whether `pid` is a process that has not ended (a zombie has ended).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}
