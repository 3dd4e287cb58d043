import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Dispatch
#if canImport(Glibc)
    import Glibc
#endif

/// Calls back when anything changes under a set of folders: inotify on Linux, polling elsewhere.
///
/// Bursts of events (an editor's save writes, renames and chmods) are folded into one call.
/// The folders are asked for again after each call, so folders that appear are watched too.
public final class FileWatcher: Sendable {
    /// How long the watcher waits for a burst to end before calling back.
    public static let settleTime: TimeInterval = 0.003

    private let watch: Watch
    private let forcePolling: Bool
    private let started = Locked(false)

    /// - Parameters:
    ///   - root: watched without its subfolders (the project file lives there).
    ///   - folders: watched with every subfolder.
    ///   - forcePolling: poll even where inotify exists (tests of the fallback).
    public init(
        root: URL, folders: @escaping @Sendable () -> [URL], pollInterval: TimeInterval = 0.2,
        forcePolling: Bool = false, onChange: @escaping @Sendable () -> Void
    ) {
        watch = Watch(
            folders: folders, root: root, onChange: onChange, pollInterval: pollInterval, stopped: Awaited(false))
        self.forcePolling = forcePolling
    }

    /// Starts watching on a thread of its own; once only. Returns once the watch is armed
    /// (inotify's watches added, or the polling baseline taken), so a change made after it
    /// returns is reported.
    public func start() {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let watch = self.watch
        let forcePolling = self.forcePolling
        let armed = DispatchSemaphore(value: 0)
        DetachedThread.start(name: "flowpkg.file-watcher") {
            #if os(Linux)
                if !forcePolling, watch.watchWithInotify(armed: { armed.signal() }) { return }
            #endif
            watch.watchByPolling(armed: { armed.signal() })
        }
        armed.wait()
    }

    /// Stops watching within a tenth of a second; a callback already running finishes.
    public func stop() {
        watch.stopped.withLock { $0 = true }
    }
}

/// What the watching thread runs.
private struct Watch: Sendable {
    let folders: @Sendable () -> [URL]
    let root: URL
    let onChange: @Sendable () -> Void
    let pollInterval: TimeInterval
    let stopped: Awaited<Bool>

    private var shouldStop: Bool {
        stopped.withLock { $0 }
    }

    private func allFolders() -> (flat: [URL], recursive: [URL]) {
        var recursive: [URL] = []
        for folder in folders() {
            // The root is watched already (flat); named as a folder too, everything below it is.
            if folder.standardizedFileURL != root.standardizedFileURL { recursive.append(folder) }
            for path in FileManager.default.walk(folder.path, skippingHidden: true) {
                let url = folder.appendingPathComponent(path)
                if FileManager.default.isFolder(atPath: url.path) { recursive.append(url) }
            }
        }
        return ([root], recursive)
    }

    #if os(Linux)
        /// Returns false when inotify is not available, so the caller polls instead.
        func watchWithInotify(armed: () -> Void) -> Bool {
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return false }
            defer { close(fd) }
            let mask = UInt32(
                IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB
                    | IN_DELETE_SELF | IN_MOVE_SELF)
            func addWatches() {
                let (flat, recursive) = allFolders()
                for folder in flat + recursive { _ = inotify_add_watch(fd, folder.path, mask) }
            }
            addWatches()
            armed()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            func drain() -> Bool {
                var any = false
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count <= 0 { return any }
                    any = true
                }
            }
            while !shouldStop {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 100)
                guard ready > 0, drain() else { continue }
                // Let the burst settle, then report it once.
                repeat { usleep(UInt32(FileWatcher.settleTime * 1_000_000)) } while drain()
                if shouldStop { break }
                onChange()
                addWatches()
            }
            return true
        }
    #endif

    func watchByPolling(armed: () -> Void) {
        var last = signature()
        armed()
        while !shouldStop {
            _ = stopped.wait(until: { $0 ? true : nil }, deadline: Date().addingTimeInterval(pollInterval))
            if shouldStop { break }
            let now = signature()
            if now != last {
                last = now
                onChange()
            }
        }
    }

    /// Every file's path, size and time under the watched folders.
    private func signature() -> [String: String] {
        var result: [String: String] = [:]
        let (flat, recursive) = allFolders()
        for folder in flat + recursive {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names {
                let url = folder.appendingPathComponent(name)
                let attributes = (try? FileManager.default.attributesOfItem(atPath: url.path)) ?? [:]
                let size = FileManager.size(in: attributes).map(Int.init) ?? -1
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                result[url.path] = "\(size)-\(modified)"
            }
        }
        return result
    }
}
