#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a zip's end-of-central-directory record says, read straight from the file's tail.
///
/// The reader looks at this before libarchive parses anything: an archive that claims
/// 100,000 entries or a central directory past the end of the file is refused in
/// microseconds, and empty, random or truncated files get a plain message.
package struct ZipEndRecord: Equatable {
    package var entryCount: UInt64
    package var directorySize: UInt64
    package var directoryOffset: UInt64
    package var fileSize: UInt64
}

/// Why a file could not be probed as a zip.
package enum ZipProbeError: Error, Equatable {
    /// The file cannot be opened or read (errno's text).
    case unreadable(String)
    /// The file's bytes are not a zip archive.
    case notAZip(String)
}

/// Small, bounds-checked reads of zip structures with POSIX calls; no libarchive involved.
///
/// A file no longer than the tail `endRecord` reads anyway (65,557 bytes: a small package,
/// such as an app's) is read whole when it is opened, in one `pread`, and every later read is
/// a copy from those bytes: opening a package and reading its manifest and a module then costs
/// one read instead of six (`Benchmarks/README.md`, host_launch). What is read is checked as
/// before (entries against their sizes and SHA-256); a file changed after it was opened is
/// read as it was when opened.
package final class ZipFile: Sendable {
    private let descriptor: Int32
    package let size: UInt64
    /// The whole file, when it is small enough to be read at open.
    private let contents: [UInt8]?
    /// The longest file read whole at open: the end record and the longest comment.
    static let wholeFileLimit: UInt64 = 22 + 65_535

    package convenience init(path: String) throws(ZipProbeError) {
        try self.init(descriptor: Self.opened(open(path, O_RDONLY | O_CLOEXEC)))
    }

    /// Opens the file `name` in the open folder `folder` (`openat`): the folder's path is not
    /// walked again, as it is for each file of a folder a locator has just listed.
    package convenience init(name: String, inFolder folder: Int32) throws(ZipProbeError) {
        try self.init(descriptor: Self.opened(openat(folder, name, O_RDONLY | O_CLOEXEC)))
    }

    /// `descriptor`, or the error `open` left in errno.
    private static func opened(_ descriptor: Int32) throws(ZipProbeError) -> Int32 {
        if descriptor < 0 { throw .unreadable(String(cString: strerror(errno))) }
        return descriptor
    }

    /// Takes `descriptor` over (closing it on failure): its size, and a small file's bytes.
    private init(descriptor: Int32) throws(ZipProbeError) {
        var info = stat()
        if fstat(descriptor, &info) != 0 {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .unreadable(reason)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .unreadable("it is a folder, not a file")
        }
        let size = UInt64(info.st_size)
        var contents: [UInt8]?
        if size > 0, size <= Self.wholeFileLimit {
            do {
                contents = try Self.read(descriptor, at: 0, count: Int(size))
            } catch {
                close(descriptor)
                throw error
            }
        }
        self.descriptor = descriptor
        self.size = size
        self.contents = contents
    }

    deinit { close(descriptor) }

    /// Exactly `count` bytes at `offset`, or an error when the file is shorter.
    package func read(at offset: UInt64, count: Int) throws(ZipProbeError) -> [UInt8] {
        guard offset <= size, UInt64(count) <= size - offset else {
            throw .notAZip("a zip structure points past the end of the file: the file was cut short or is damaged")
        }
        if let contents { return Array(contents[Int(offset)..<Int(offset) + count]) }
        return try Self.read(descriptor, at: offset, count: count)
    }

    /// Exactly `count` bytes of `descriptor` at `offset`, read with `pread`.
    private static func read(_ descriptor: Int32, at offset: UInt64, count: Int) throws(ZipProbeError) -> [UInt8] {
        // Read straight into the array's storage: no zeroing of what `pread` overwrites.
        var failure: ZipProbeError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let got = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized,
                    off_t(offset) + off_t(initialized))
                if got <= 0 {
                    failure = got < 0 ? .unreadable(String(cString: strerror(errno))) : .notAZip("the file ended early")
                    return
                }
                initialized += got
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Up to `buffer.count` bytes at `offset`: the count read, 0 at the end of the file, -1 on
    /// an I/O error. Safe from any thread (`pread` keeps no file position).
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if let contents {
            guard offset < size else { return 0 }
            let count = min(buffer.count, Int(size - offset))
            contents.withUnsafeBytes { base.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: count) }
            return count
        }
        while true {
            let got = pread(descriptor, base, buffer.count, off_t(offset))
            if got < 0 && errno == EINTR { continue }
            return got
        }
    }

    /// Finds and decodes the end-of-central-directory record (and its Zip64 form when the
    /// classic one overflows).
    package func endRecord() throws(ZipProbeError) -> ZipEndRecord {
        if size == 0 { throw .notAZip("the file is empty") }
        if size < 22 { throw .notAZip("the file is \(size) bytes, too short to be a zip archive") }
        // The record is 22 bytes plus a comment of at most 65,535, so it lies in the last 65,557.
        let tailLength = Int(min(size, 22 + 65_535))
        let tailStart = size - UInt64(tailLength)
        let tail = try read(at: tailStart, count: tailLength)
        var found: Int?
        var index = tailLength - 22
        while index >= 0 {
            if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 0x05, tail[index + 3] == 0x06,
                index + 22 + Int(le16(tail, index + 20)) <= tailLength
            {
                found = index
                break
            }
            index -= 1
        }
        guard let at = found else {
            throw .notAZip("it has no zip end record: it is not a zip archive, or it was cut short")
        }
        var record = ZipEndRecord(
            entryCount: UInt64(le16(tail, at + 10)), directorySize: UInt64(le32(tail, at + 12)),
            directoryOffset: UInt64(le32(tail, at + 16)), fileSize: size)
        let overflows =
            record.entryCount == 0xFFFF || record.directorySize == 0xFFFF_FFFF || record.directoryOffset == 0xFFFF_FFFF
        if overflows, at >= 20, le32(tail, at - 20) == 0x0706_4B50 {
            let zip64Offset = le64(tail, at - 20 + 8)
            let zip64 = try read(at: zip64Offset, count: 56)
            guard le32(zip64, 0) == 0x0606_4B50 else { throw .notAZip("its Zip64 end record is damaged") }
            record.entryCount = le64(zip64, 32)
            record.directorySize = le64(zip64, 40)
            record.directoryOffset = le64(zip64, 48)
        }
        guard record.directoryOffset <= size, record.directorySize <= size - record.directoryOffset else {
            throw .notAZip("its central directory lies past the end of the file: the file was cut short")
        }
        return record
    }
}

extension ZipFile {
    /// The raw name bytes of every central directory record, as stored: libarchive rewrites
    /// some names (backslashes become slashes), and the package rules are about what is stored.
    package func centralDirectoryNames(_ end: ZipEndRecord) throws(ZipProbeError) -> [[UInt8]] {
        let directory = try read(at: end.directoryOffset, count: Int(end.directorySize))
        var names: [[UInt8]] = []
        var position = 0
        while names.count < end.entryCount, position + 46 <= directory.count, le32(directory, position) == 0x0201_4B50 {
            let nameLength = Int(le16(directory, position + 28))
            let extraLength = Int(le16(directory, position + 30))
            let commentLength = Int(le16(directory, position + 32))
            guard position + 46 + nameLength <= directory.count else { break }
            names.append(Array(directory[position + 46..<position + 46 + nameLength]))
            position += 46 + nameLength + extraLength + commentLength
        }
        return names
    }
}

/// MS-DOS times as the package format writes them: from the entry time in UTC, never
/// through `localtime`, so the bytes do not depend on the machine's time zone.
package enum ZipTimestamps {
    /// The MS-DOS date and time of a UTC timestamp, clamped to the years DOS can hold (1980–2107).
    package static func dosDateTime(utc timestamp: Int64) -> (date: UInt16, time: UInt16) {
        let clamped = min(max(timestamp, 315_532_800), 4_354_819_198)
        let days = clamped >= 0 ? clamped / 86_400 : (clamped - 86_399) / 86_400
        let seconds = clamped - days * 86_400
        // Howard Hinnant's civil-from-days: the proleptic Gregorian date of a day count.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let date = UInt16((year - 1980) << 9 | month << 5 | day)
        let time = UInt16((seconds / 3600) << 11 | ((seconds % 3600) / 60) << 5 | (seconds % 60) / 2)
        return (date, time)
    }
}

package func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
package func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 { UInt32(le16(bytes, at)) | UInt32(le16(bytes, at + 2)) << 16 }
package func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(le32(bytes, at)) | UInt64(le32(bytes, at + 4)) << 32 }

/// A window of a zip file that libarchive reads through a callback, in 64 KiB chunks: one
/// entry's local header, data and data descriptor. Reads with `pread`, so many windows may
/// share one open file across threads.
package final class ZipByteRange {
    private let file: ZipFile
    private var position: UInt64
    private let end: UInt64
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    package init(file: ZipFile, start: UInt64, end: UInt64) {
        self.file = file
        self.position = start
        self.end = min(end, file.size)
    }

    deinit { buffer.deallocate() }

    /// libarchive's read callback: points `chunk` at the next bytes and returns their count,
    /// 0 at the window's end, -1 on an I/O error.
    package func next(_ chunk: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        guard position < end else { return 0 }
        let count = Int(min(UInt64(buffer.count), end - position))
        let got = file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: position)
        if got <= 0 { return got < 0 ? -1 : 0 }
        position += UInt64(got)
        chunk.pointee = UnsafeRawPointer(buffer.baseAddress!)
        return got
    }
}
