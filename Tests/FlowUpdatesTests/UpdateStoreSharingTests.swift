import FlowPackage
import FlowTestSupport
import Foundation
import Testing

@testable import FlowUpdates

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Two processes (here two stores on one folder, each with its own descriptors, which flock(2)
/// treats alike) share an update store without losing each other's work.
@Suite struct UpdateStoreSharingTests {
    let folder: URL
    let identifier = try! PackageIdentifier("com.example.app")

    init() throws { folder = try Scratch("store").url }

    private func store() throws -> UpdateStore {
        try UpdateStore(folder: folder, identifier: identifier, trustedKeys: [])
    }

    /// An open descriptor of `url` holding flock(2)'s exclusive lock, as another process would.
    private func hold(_ url: URL) throws -> Int32 {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX) == 0)
        return descriptor
    }

    @Test func aDownloadInProgressSurvivesAnotherOpening() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try store()
        let live = first.downloads.appendingPathComponent("\(String(repeating: "a", count: 64)).4242.part")
        let stale = first.downloads.appendingPathComponent("\(String(repeating: "b", count: 64)).4343.part")
        try Data("half".utf8).write(to: live)
        try Data("left".utf8).write(to: stale)
        let downloading = try hold(live)

        _ = try store()
        #expect(FileManager.default.fileExists(atPath: live.path))
        #expect(!FileManager.default.fileExists(atPath: stale.path))

        close(downloading)
        _ = try store()
        #expect(!FileManager.default.fileExists(atPath: live.path))
    }

    @Test func stateChangesWaitForAnotherProcessesTurn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try store()
        let other = try hold(folder.appendingPathComponent("lock"))
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? store.updateState { $0.failed.append("x") }
            done.signal()
        }
        // The change is waiting for the lock once the kernel lists its request as blocked (an
        // event, not a time: a queue that starts late cannot make this pass with a broken lock).
        let lockFile = folder.appendingPathComponent("lock")
        #expect(Self.waitForBlockedFlock(on: lockFile), "the change never waited for the lock")
        // While the other process holds the lock, the change waits (and is not half made):
        // what a third process reads is the state before it.
        #expect(try self.store().readState().failed.isEmpty)
        close(other)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(store.readState().failed == ["x"])
    }

    /// Waits until /proc/locks lists a blocked flock(2) request (`->`) on `file`'s inode; false
    /// after a minute without one.
    static func waitForBlockedFlock(on file: URL) -> Bool {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return false }
        let inode = ":\(info.st_ino) "
        for _ in 0..<60_000 {
            let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
            if locks.split(separator: "\n").contains(where: {
                $0.contains("->") && $0.contains("FLOCK") && $0.contains(inode)
            }) {
                return true
            }
            usleep(1000)
        }
        return false
    }

    @Test func twoStoresChangingTheStateLoseNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let stores = [try store(), try store()]
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            try? stores[index % 2].updateState { $0.failed.append("\(index)") }
        }
        #expect(Set(stores[0].readState().failed) == Set((0..<40).map(String.init)))
    }
}
