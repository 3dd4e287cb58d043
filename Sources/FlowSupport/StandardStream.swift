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
        _ = writeAll(self == .output ? 1 : 2, Array(text.utf8))
    }
}

/// Writes all of `bytes` to `descriptor` with `write(2)`, retrying after interruptions: nil
/// when all went, else the `errno` that stopped it (0 when nothing more could be written).
package func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
    var done = 0
    while done < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in
            #if canImport(Glibc)
                Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
            #else
                Darwin.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
            #endif
        }
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return written < 0 ? errno : 0 }
        done += written
    }
    return nil
}
