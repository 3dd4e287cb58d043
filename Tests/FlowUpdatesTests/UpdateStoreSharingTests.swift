import FlowPackage
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
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowpkg-store-\(UUID().uuidString)")
    let identifier = try! PackageIdentifier("com.example.app")

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
        // While the other process holds the lock, the change waits (and is not half made):
        // what a third process reads is the state before it.
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(try self.store().readState().failed.isEmpty)
        close(other)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(store.readState().failed == ["x"])
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
