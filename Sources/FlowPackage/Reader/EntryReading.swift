extension EntryByteSource {
    /// Streams the current entry through SHA-256, checking it against what the manifest
    /// declares, and hands each chunk to `sink` (nil when only the check is wanted).
    ///
    /// Never inflates past `declaredSize + 1` bytes: the last read asks for exactly one byte
    /// more than is still expected, so an entry that inflates far past its size costs no more
    /// than one byte of extra work before it is refused.
    func checkedContents(
        entry: String, declaredSize: Int64, sha256: String,
        sink: ((UnsafeRawBufferPointer) -> Void)?
    ) throws(PackageError) {
        var hasher = SHA256()
        var total: Int64 = 0
        let chunk = 256 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let window = Int(min(Int64(chunk), declaredSize - total + 1))
            let count: Int
            do {
                count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<window]))
            } catch {
                throw .corruptEntry(path: path, entry: entry, reason: "cannot be read: \(archiveMessage(error))")
            }
            if count == 0 { break }
            total += Int64(count)
            if total > declaredSize {
                throw .corruptEntry(
                    path: path, entry: entry,
                    reason: "holds more than the \(declaredSize) bytes the manifest declares; reading stopped there")
            }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            hasher.update(bufferPointer: bytes)
            sink?(bytes)
        }
        if total != declaredSize {
            throw .corruptEntry(
                path: path, entry: entry,
                reason: "holds \(total) bytes; the manifest declares \(declaredSize)")
        }
        let actual = hasher.finalize()
        // Compared as bytes: no hex text is made for an entry that matches (every module a
        // launch loads).
        if !actual.hasHexDigits(sha256) {
            throw .corruptEntry(
                path: path, entry: entry,
                reason: "sha256 mismatch: the manifest lists \(sha256), the entry's bytes hash to \(actual.hexDigits)")
        }
    }

    /// The current entry's bytes, checked as `checkedContents` does.
    ///
    /// Inflates straight into the result (sized for the declared size plus the one byte that
    /// tells an entry is too long), so no chunk buffer is allocated or copied per entry.
    func checkedData(entry: String, declaredSize: Int64, sha256: String) throws(PackageError) -> [UInt8] {
        let capacity = Int(declaredSize) + 1
        var hasher = SHA256()
        var failure: (any Error)?
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var total = 0
            while total < capacity {
                let count: Int
                do {
                    count = try read(
                        into: UnsafeMutableRawBufferPointer(
                            UnsafeMutableBufferPointer(rebasing: buffer[total..<capacity])))
                } catch {
                    failure = error
                    break
                }
                if count == 0 { break }
                hasher.update(
                    bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[total..<total + count])))
                total += count
            }
            initialized = total
        }
        if let failure {
            throw .corruptEntry(path: path, entry: entry, reason: "cannot be read: \(archiveMessage(failure))")
        }
        if Int64(bytes.count) > declaredSize {
            throw .corruptEntry(
                path: path, entry: entry,
                reason: "holds more than the \(declaredSize) bytes the manifest declares; reading stopped there")
        }
        if Int64(bytes.count) != declaredSize {
            throw .corruptEntry(
                path: path, entry: entry,
                reason: "holds \(bytes.count) bytes; the manifest declares \(declaredSize)")
        }
        let actual = hasher.finalize()
        // Compared as bytes: no hex text is made for an entry that matches (every module a
        // launch loads).
        if !actual.hasHexDigits(sha256) {
            throw .corruptEntry(
                path: path, entry: entry,
                reason: "sha256 mismatch: the manifest lists \(sha256), the entry's bytes hash to \(actual.hexDigits)")
        }
        return bytes
    }

    /// The current entry's bytes, at most `limit` of them, for the manifest (whose hash is
    /// not listed anywhere); room for `expected` bytes (what the directory declares, within
    /// the limit) is made at once.
    func boundedData(entry: String, limit: Int64, expected: Int64 = 0) throws(PackageError) -> [UInt8] {
        // Inflated straight into the array (no zeroing, no second copy) up to what the
        // directory declares and one byte more, to see whether it told the truth.
        let room = Int(max(0, min(expected, limit))) + 1
        var bytes: [UInt8]
        do {
            bytes = try [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                while count < buffer.count {
                    let got = try read(
                        into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
                    if got == 0 { return }
                    count += got
                }
            }
        } catch {
            throw .corruptEntry(path: path, entry: entry, reason: "cannot be read: \(archiveMessage(error))")
        }
        if Int64(bytes.count) > limit {
            throw .manifestTooLarge(path: path, size: Int64(bytes.count), limit: limit)
        }
        if bytes.count < room { return bytes }
        // More than declared: go on a block at a time, within the limit.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let window = Int(min(Int64(buffer.count), limit - Int64(bytes.count) + 1))
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { raw in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<window]))
                }
            } catch {
                throw .corruptEntry(path: path, entry: entry, reason: "cannot be read: \(archiveMessage(error))")
            }
            if count == 0 { return bytes }
            if Int64(bytes.count + count) > limit {
                throw .manifestTooLarge(path: path, size: Int64(bytes.count + count), limit: limit)
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }
}

/// libarchive's own message for an error thrown by the archive wrappers.
func archiveMessage(_ error: any Error) -> String {
    (error as? ArchiveError)?.message ?? "\(error)"
}
