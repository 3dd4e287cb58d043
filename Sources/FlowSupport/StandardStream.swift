#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output or standard error, written with `write(2)`: what FileHandle's
/// `standardOutput`/`standardError` were used for (FileHandle is not in FoundationEssentials).
package enum StandardStream: Sendable {
    case output
    case error

    /// Writes all of `text`, retrying after interruptions; a closed stream loses the text.
    package func write(_ text: String) {
        var bytes = Array(text.utf8)
        let descriptor: Int32 = self == .output ? 1 : 2
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                #else
                    Darwin.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                #endif
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            done += written
        }
    }
}
