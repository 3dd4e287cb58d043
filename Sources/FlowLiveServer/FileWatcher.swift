import FlowPackage
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Calls back when anything changes under a set of folders: inotify on Linux, polling elsewhere.
///
/// Bursts of events (an editor's save writes, renames and chmods) are folded into one call.
/// The folders are asked for again after each call, so folders that appear are watched too.
///
/// `@unchecked`: the thread is set once, in `init`, and only started afterwards.
public final class FileWatcher: @unchecked Sendable {
    /// How long the watcher waits for a burst to end before calling back.
    public static let settleTime: TimeInterval = 0.003

    private let folders: @Sendable () -> [URL]
    private let root: URL
    private let onChange: @Sendable () -> Void
    private let pollInterval: TimeInterval
    private let stopped = Awaited(false)
    private var thread: Thread?

    /// - Parameters:
    ///   - root: watched without its subfolders (the project file lives there).
    ///   - folders: watched with every subfolder.
    ///   - forcePolling: poll even where inotify exists (tests of the fallback).
    public init(
        root: URL, folders: @escaping @Sendable () -> [URL], pollInterval: TimeInterval = 0.2,
        forcePolling: Bool = false, onChange: @escaping @Sendable () -> Void
    ) {
        self.root = root
        self.folders = folders
        self.onChange = onChange
        self.pollInterval = pollInterval
        let thread = Thread { [self] in
            #if os(Linux)
                if !forcePolling, self.watchWithInotify() { return }
            #endif
            self.watchByPolling()
        }
        thread.name = "flowpkg.file-watcher"
        self.thread = thread
    }

    public func start() { thread?.start() }

    /// Stops watching within a tenth of a second; a callback already running finishes.
    public func stop() {
        stopped.withLock { $0 = true }
    }

    private var shouldStop: Bool {
        stopped.withLock { $0 }
    }

    private func allFolders() -> (flat: [URL], recursive: [URL]) {
        var recursive: [URL] = []
        for folder in folders() where folder.standardizedFileURL != root.standardizedFileURL {
            recursive.append(folder)
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
            while let url = walker?.nextObject() as? URL {
                if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { recursive.append(url) }
            }
        }
        return ([root], recursive)
    }

    #if os(Linux)
        /// Returns false when inotify is not available, so the caller polls instead.
        private func watchWithInotify() -> Bool {
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
                repeat { usleep(UInt32(Self.settleTime * 1_000_000)) } while drain()
                if shouldStop { break }
                onChange()
                addWatches()
            }
            return true
        }
    #endif

    private func watchByPolling() {
        var last = signature()
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
            let entries =
                (try? FileManager.default.contentsOfDirectory(
                    at: folder, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey])) ?? []
            for url in entries {
                let values = try? url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey])
                result[url.path] =
                    "\(values?.fileSize ?? -1)-\(values?.contentModificationDate?.timeIntervalSince1970 ?? 0)"
            }
        }
        return result
    }
}
