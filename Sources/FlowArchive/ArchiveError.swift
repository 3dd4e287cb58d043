/// A failure reported by libarchive, carrying its own message and the file concerned.
public struct ArchiveError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The archive file the operation was about.
    public var path: String
    /// What was being done, in the user's words ("open", "write entry modules/main.lua").
    public var operation: String
    /// libarchive's own message (`archive_error_string`), or ours where libarchive has none.
    public var message: String

    public init(path: String, operation: String, message: String) {
        self.path = path
        self.operation = operation
        self.message = message
    }

    public var description: String { "\(path): cannot \(operation): \(message)" }
}

/// Turns libarchive status codes into `ArchiveError`s; shared by the reader and the writer.
package struct ArchiveStatus {
    package let api: LibArchive
    package let handle: OpaquePointer
    package let path: String

    /// Throws unless `status` is `ARCHIVE_OK` or `ARCHIVE_WARN`.
    /// The message is copied out at once, before the handle can change or go away.
    @discardableResult
    package func check(_ status: Int32, _ operation: @autoclosure () -> String) throws -> Int32 {
        if status >= LibArchive.warn { return status }
        throw error(operation())
    }

    package func error(_ operation: String) -> ArchiveError {
        let message = api.archive_error_string(handle).map { String(cString: $0) } ?? "unknown libarchive error"
        return ArchiveError(path: path, operation: operation, message: message)
    }
}
