@testable import FlowCLI
import FlowTestSupport
import Foundation
import Testing

/// `flowpkg serve`'s refusals: each a clear message and the right exit status.
@Suite struct ServeCommandTests {
    @Test func aTakenPortIsAClearError() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let first = try ServedProject(root, in: fixture.url)
        defer { first.server.interrupt() }
        let port = String(first.url.split(separator: ":").last!)
        let second = try FlowpkgProcess.run(
            ["serve", root.path, "--port", port, "--token", "abcdefgh"], in: fixture.url)
        #expect(second.status == 1)
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port): the port is in use"))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let host = try FlowpkgProcess.run(["serve", root.path, "--host", "example.invalid"], in: fixture.url)
        #expect(host.status == 64)
        #expect(host.stderr.contains("--host takes an IP address"))
        let token = try FlowpkgProcess.run(["serve", root.path, "--token", "short"], in: fixture.url)
        #expect(token.status == 64)
    }

    @Test func aMissingProjectIsAnError() throws {
        let fixture = try RunFixture()
        let result = try FlowpkgProcess.run(
            ["serve", fixture.url.appendingPathComponent("nowhere").path], in: fixture.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not exist [FP108]"))
    }

    @Test func aNonLoopbackHostIsWarnedAbout() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let server = try BackgroundFlowpkg(
            ["serve", root.path, "--host", "0.0.0.0", "--port", "0", "--token", "abcdefgh"],
            in: fixture.url)
        #expect(server.waitFor { stdout, _ in stdout.contains("Token: abcdefgh") })
        #expect(server.stderr.contains("warning: listening on 0.0.0.0"))
        #expect(server.interrupt() == 130)
        #expect(server.stdout.contains("Stopped."))
    }

    /// Ctrl-C ends serve with 130, as the README's exit codes say; SIGTERM with 143.
    @Test func ctrlCExits130AndSIGTERM143() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let interrupted = try ServedProject(root, in: fixture.url)
        #expect(interrupted.server.waitFor { stdout, _ in stdout.contains("Connect: ") })
        #expect(interrupted.server.interrupt() == 130)
        #expect(interrupted.server.stdout.hasSuffix("Stopped.\n"), "\(interrupted.server.stdout)")
        let terminated = try ServedProject(root, in: fixture.url)
        #expect(terminated.server.waitFor { stdout, _ in stdout.contains("Connect: ") })
        terminated.server.process.terminate()
        terminated.server.process.waitUntilExit()
        #expect(terminated.server.process.terminationReason == .exit)
        #expect(terminated.server.process.terminationStatus == 143)
    }

    /// `--host 0.0.0.0` prints the machine's own addresses, which a device can use: each URL
    /// answers (401 without the token), and none is loopback.
    @Test func aWildcardHostPrintsTheMachinesAddresses() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let server = try BackgroundFlowpkg(
            ["serve", root.path, "--host", "0.0.0.0", "--port", "0", "--token", "abcdefgh"],
            in: fixture.url)
        defer { server.interrupt() }
        #expect(server.waitFor { stdout, _ in stdout.contains("Token: abcdefgh") })
        let lines = server.stdout.split(separator: "\n").map(String.init)
        let urls = lines.compactMap { line -> String? in
            if line.hasPrefix("Serving ") { return line.components(separatedBy: " at ").last }
            if line.hasPrefix("Also at ") { return String(line.dropFirst("Also at ".count)) }
            return nil
        }
        let expected = ServeAddresses.machineInterfaces()
            .filter { !$0.isIPv6 && !ServeAddresses.isLoopback($0.address) && !ServeAddresses.isLinkLocal($0.address) }
        guard !expected.isEmpty else {
            #expect(server.stderr.contains("this machine has no network address but loopback"))
            return
        }
        let port = urls.first.map { String($0.split(separator: ":").last!) } ?? ""
        #expect(urls == expected.map { "http://\($0.address):\(port)" }, "\(server.stdout)")
        #expect(!server.stdout.contains("127.0.0.1"))
        #expect(Int(port).map { $0 > 0 && $0 != 80 } == true)
        for url in urls {
            #expect(try Self.status(of: url + "/v1/manifest") == 401, "\(url)")
        }
        #expect(
            lines.contains {
                $0.hasPrefix("Connect: FLOWPKG_LIVE_TOKEN=abcdefgh flowpkg run \(root.path) --live \(urls[0]) --watch")
            }, "\(lines)")
    }

    @Test func urlListForEveryKindOfHost() {
        let interfaces = [
            ServeAddresses.Interface(name: "lo", address: "127.0.0.1", isIPv6: false),
            ServeAddresses.Interface(name: "lo", address: "::1", isIPv6: true),
            ServeAddresses.Interface(name: "eth0", address: "192.168.1.10", isIPv6: false),
            ServeAddresses.Interface(name: "eth0", address: "fe80::1", isIPv6: true),
            ServeAddresses.Interface(name: "eth0", address: "fd00::2", isIPv6: true),
            ServeAddresses.Interface(name: "wlan0", address: "10.0.0.7", isIPv6: false),
            ServeAddresses.Interface(name: "docker0", address: "169.254.3.3", isIPv6: false),
        ]
        #expect(
            ServeAddresses.urls(host: "0.0.0.0", port: 7315, interfaces: interfaces)
                == ["http://192.168.1.10:7315", "http://10.0.0.7:7315"])
        #expect(
            ServeAddresses.urls(host: "::", port: 7315, interfaces: interfaces)
                == ["http://192.168.1.10:7315", "http://10.0.0.7:7315", "http://[fd00::2]:7315"])
        #expect(ServeAddresses.urls(host: "127.0.0.1", port: 9, interfaces: interfaces) == ["http://127.0.0.1:9"])
        #expect(ServeAddresses.urls(host: "::1", port: 9, interfaces: interfaces) == ["http://[::1]:9"])
        #expect(ServeAddresses.urls(host: "192.168.1.10", port: 9, interfaces: []) == ["http://192.168.1.10:9"])
        #expect(ServeAddresses.urls(host: "0.0.0.0", port: 9, interfaces: Array(interfaces.prefix(2))).isEmpty)
    }

    /// The HTTP status a plain GET gets, from Python's urllib.
    static func status(of url: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import sys, urllib.request, urllib.error
            try:
                print(urllib.request.urlopen(sys.argv[1], timeout=5).status)
            except urllib.error.HTTPError as e:
                print(e.code)
            """, url,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
