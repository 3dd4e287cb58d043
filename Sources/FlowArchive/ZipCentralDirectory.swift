/// One record of a zip's central directory: what the archive says of an entry, read without
/// touching the entry itself.
package struct ZipDirectoryEntry {
    /// Where the name is in the directory's bytes: `ZipCentralDirectory.name(of:)` decodes it,
    /// only when asked (opening a package of thousands of entries compares bytes).
    package var nameStart: Int32
    package var nameCount: Int32
    package var kind: ArchiveEntryInfo.Kind
    /// The uncompressed size the directory declares.
    package var size: Int64
    package var compressedSize: UInt64
    /// Where the entry's local header starts.
    package var localHeaderOffset: UInt64
    /// The general purpose flags, compression method and CRC-32, which the local header must repeat.
    package var flags: UInt16
    package var method: UInt16
    package var crc32: UInt32
}

/// A zip's central directory, read once with two `pread`s (the end record and the directory)
/// and parsed here: the entry list a package is checked against at open, and where each
/// entry's bytes lie, so one entry is read without libarchive parsing the whole directory.
package final class ZipCentralDirectory: Sendable {
    package let file: ZipFile
    package let end: ZipEndRecord
    /// The records in directory order.
    package let entries: [ZipDirectoryEntry]
    /// The directory's bytes, where the names are.
    private let records: [UInt8]
    /// Why parsing stopped before `end.entryCount` records, when it did.
    package let damage: String?
    /// Where each entry's bytes end (the next local header in file order, or the directory),
    /// by entry index; empty when the entries are in file order, as writers put them (then
    /// each ends where the next record's entry starts).
    private let rangeEnds: [UInt64]

    package init(file: ZipFile, end: ZipEndRecord) throws(ZipProbeError) {
        self.file = file
        self.end = end
        // Names are kept as 32-bit offsets into the directory (a package's is a few megabytes
        // at most; the reader's limits refuse far less than this).
        guard end.directorySize < UInt64(Int32.max) else {
            throw .notAZip("its central directory is \(end.directorySize) bytes, more than any package's")
        }
        let directory = try file.read(at: end.directoryOffset, count: Int(end.directorySize))
        var entries: [ZipDirectoryEntry] = []
        entries.reserveCapacity(Int(min(end.entryCount, 1 << 16)))
        var damage: String?
        var position = 0
        while UInt64(entries.count) < end.entryCount {
            guard position + 46 <= directory.count, le32(directory, position) == 0x0201_4B50 else {
                damage =
                    "the central directory holds \(entries.count) of the \(end.entryCount) entries its end record declares"
                break
            }
            let nameLength = Int(le16(directory, position + 28))
            let extraLength = Int(le16(directory, position + 30))
            let commentLength = Int(le16(directory, position + 32))
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else {
                damage = "the central directory is cut short in entry \(entries.count + 1)"
                break
            }
            let nameStart = position + 46
            let endsInSlash = nameLength > 0 && directory[nameStart + nameLength - 1] == UInt8(ascii: "/")
            var size = UInt64(le32(directory, position + 24))
            var compressed = UInt64(le32(directory, position + 20))
            var offset = UInt64(le32(directory, position + 42))
            // Zip64: the fields that overflow 32 bits are 0xFFFFFFFF and follow in extra field 1.
            if size == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
                Self.readZip64(
                    directory, extras: (nameStart + nameLength)..<(nameStart + nameLength + extraLength),
                    size: &size, compressed: &compressed, offset: &offset)
            }
            let kind = Self.kind(
                madeBy: le16(directory, position + 4) >> 8, attributes: le32(directory, position + 38),
                endsInSlash: endsInSlash)
            entries.append(
                ZipDirectoryEntry(
                    nameStart: Int32(nameStart), nameCount: Int32(nameLength), kind: kind, size: Int64(clamping: size),
                    compressedSize: compressed, localHeaderOffset: offset, flags: le16(directory, position + 8),
                    method: le16(directory, position + 10), crc32: le32(directory, position + 16)))
            position = next
        }
        self.entries = entries
        self.records = directory
        self.damage = damage
        rangeEnds = Self.rangeEnds(of: entries, directoryOffset: end.directoryOffset)
    }

    /// Each entry's window ends where the next entry (in file order) or the directory starts:
    /// empty when the entries are in file order.
    private static func rangeEnds(of entries: [ZipDirectoryEntry], directoryOffset: UInt64) -> [UInt64] {
        var inFileOrder = true
        for index in entries.indices.dropFirst()
        where entries[index - 1].localHeaderOffset >= entries[index].localHeaderOffset {
            inFileOrder = false
            break
        }
        if inFileOrder { return [] }
        // Records that share an offset all end at the next greater one: only the record the
        // header's name matches can then read it.
        var ends = [UInt64](repeating: directoryOffset, count: entries.count)
        let offsets = entries.map(\.localHeaderOffset)
        let byOffset = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var following = directoryOffset
        for rank in byOffset.indices.reversed() {
            let index = byOffset[rank]
            ends[index] = max(following, offsets[index])
            if rank > 0, offsets[byOffset[rank - 1]] < offsets[index] { following = offsets[index] }
        }
        return ends
    }

    /// The 64-bit sizes and offset of zip64's extra field 1, for the fields that are 0xFFFFFFFF.
    private static func readZip64(
        _ directory: [UInt8], extras: Range<Int>, size: inout UInt64, compressed: inout UInt64, offset: inout UInt64
    ) {
        var extra = extras.lowerBound
        while extra + 4 <= extras.upperBound {
            let id = le16(directory, extra)
            let length = Int(le16(directory, extra + 2))
            var field = extra + 4
            let fieldEnd = min(field + length, extras.upperBound)
            if id == 1 {
                if size == 0xFFFF_FFFF, field + 8 <= fieldEnd { size = le64(directory, field); field += 8 }
                if compressed == 0xFFFF_FFFF, field + 8 <= fieldEnd {
                    compressed = le64(directory, field); field += 8
                }
                if offset == 0xFFFF_FFFF, field + 8 <= fieldEnd { offset = le64(directory, field) }
                return
            }
            extra += 4 + length
        }
    }

    /// An entry's kind from its Unix mode (made by Unix, 3) or its DOS attributes and name.
    private static func kind(madeBy: UInt16, attributes: UInt32, endsInSlash: Bool) -> ArchiveEntryInfo.Kind {
        let mode = attributes >> 16
        guard madeBy == 3, mode != 0 else { return endsInSlash || attributes & 0x10 != 0 ? .directory : .regular }
        switch mode & 0o170000 {
        case 0o100000: return endsInSlash ? .directory : .regular
        case 0o040000: return .directory
        case 0o120000: return .symlink
        default: return .other
        }
    }

    /// Where entry `index`'s bytes end: the next local header in file order, or the directory.
    private func rangeEnd(_ index: Int) -> UInt64 {
        if !rangeEnds.isEmpty { return rangeEnds[index] }
        return index + 1 < entries.count ? entries[index + 1].localHeaderOffset : end.directoryOffset
    }

    /// `entry`'s name as stored, decoded as UTF-8 (package names are UTF-8 and never rewritten).
    package func name(of entry: ZipDirectoryEntry) -> String {
        withName(of: entry) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of `entry`'s name.
    package func withName<Result>(of entry: ZipDirectoryEntry, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result
    {
        records.withUnsafeBufferPointer { records in
            let start = Int(entry.nameStart)
            return body(UnsafeBufferPointer(rebasing: records[start..<start + Int(entry.nameCount)]))
        }
    }

    /// A libarchive reader of entry `index` alone, positioned before its header, after its
    /// local header was checked against the directory (`checkLocalHeader`). The package reader
    /// reads through `stream(forEntry:path:)`; this one is the reference the fuzz tests hold
    /// that stream to (`ReaderProbe.streamsAgree`).
    package func reader(forEntry index: Int, path: String) throws -> ArchiveReader {
        let entry = entries[index]
        let start = entry.localHeaderOffset
        if let problem = localHeaderProblem(index) {
            throw ArchiveError(path: path, operation: "read entry \(name(of: entry))", message: problem)
        }
        // The window never runs past what the header, the data and a descriptor can take.
        let largest = start &+ 30 &+ 65_535 &+ 65_535 &+ entry.compressedSize &+ 24
        // libarchive looks 24 bytes ahead for a data descriptor (its Zip64 size) even when the
        // descriptor is 16 bytes and the next header follows, so the window reaches past it.
        let stop = min(rangeEnd(index) &+ 64, largest < start ? UInt64.max : largest)
        return try ArchiveReader(path: path, entryRange: ZipByteRange(file: file, start: start, end: max(stop, start)))
    }

    /// A zlib stream over entry `index`'s bytes (`ZipEntryStream`), after its local header was
    /// checked against the directory (`localHeaderProblem`): what every reader of a package's
    /// entries reads through.
    package func stream(forEntry index: Int, path: String) throws(ArchiveError) -> ZipEntryStream {
        let entry = entries[index]
        let dataStart: UInt64
        switch checkLocalHeader(index) {
        case .problem(let problem):
            throw ArchiveError(path: path, operation: "read entry \(name(of: entry))", message: problem)
        case .data(let start):
            dataStart = start
        }
        return try ZipEntryStream(
            file: file, path: path, entry: name(of: entry), start: dataStart, count: entry.compressedSize,
            method: entry.method, flags: entry.flags)
    }

    /// Why entry `index`'s local header is not the one its directory record describes, or nil
    /// when it is (`checkLocalHeader`).
    package func localHeaderProblem(_ index: Int) -> String? {
        if case .problem(let problem) = checkLocalHeader(index) { return problem }
        return nil
    }

    package enum LocalHeaderCheck {
        /// The header agrees; the entry's packed bytes start at this offset.
        case data(at: UInt64)
        case problem(String)
    }

    /// Entry `index`'s local header checked against its directory record: the same name, flags and compression method, the same CRC-32 and sizes
    /// (unless a data descriptor carries them), and header plus data ending before the next
    /// entry in file order starts. The data is read from where the local header says it
    /// starts, so every path that reads an entry (the loader, `verify`) checks this first: a record
    /// pointing at another entry's header, or at one that overlaps another entry (a zip bomb
    /// made of overlapping entries), is refused instead of served.
    package func checkLocalHeader(_ index: Int) -> LocalHeaderCheck {
        let entry = entries[index]
        let start = entry.localHeaderOffset
        let end = min(rangeEnd(index), file.size)
        guard start < end, end - start >= 30, let header = try? file.read(at: start, count: 30),
            le32(header, 0) == 0x0403_4B50
        else {
            return .problem("the central directory points at no local header (offset \(start))")
        }
        let nameCount = Int(le16(header, 26))
        let extraCount = Int(le16(header, 28))
        let variable = UInt64(nameCount + extraCount)
        guard end - start - 30 >= variable, let rest = try? file.read(at: start + 30, count: Int(variable)) else {
            return .problem("its local header runs into the next entry")
        }
        let sameName = withName(of: entry) { name in name.elementsEqual(rest[0..<nameCount]) }
        if !sameName {
            let local = String(decoding: rest[0..<nameCount], as: UTF8.self)
            return .problem("the central directory points at the local header of \(local)")
        }
        let flags = le16(header, 6)
        if flags != entry.flags {
            return .problem("its local header's flags (\(flags)) differ from the central directory's (\(entry.flags))")
        }
        let method = le16(header, 8)
        if method != entry.method {
            return .problem(
                "its local header's compression method (\(method)) differs from the central directory's (\(entry.method))"
            )
        }
        var compressed = UInt64(le32(header, 18))
        if flags & 0x08 == 0 {
            var size = UInt64(le32(header, 22))
            if size == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF {
                // Zip64: the local extra field 1 holds both sizes, uncompressed first.
                var at = nameCount
                while at + 4 <= rest.count {
                    let id = le16(rest, at)
                    let length = Int(le16(rest, at + 2))
                    if id == 1, length >= 16, at + 4 + 16 <= rest.count {
                        size = le64(rest, at + 4)
                        compressed = le64(rest, at + 12)
                        break
                    }
                    at += 4 + length
                }
            }
            if le32(header, 14) != entry.crc32 {
                return .problem("its local header's CRC-32 differs from the central directory's")
            }
            if size != UInt64(clamping: entry.size) || compressed != entry.compressedSize {
                return .problem(
                    "its local header declares \(size) bytes (\(compressed) packed); the central directory, \(entry.size) (\(entry.compressedSize) packed)"
                )
            }
        }
        // The data (and a descriptor, at least 12 bytes, when there is one) ends before the next entry.
        let descriptor: UInt64 = flags & 0x08 != 0 ? 12 : 0
        let room = end - start - 30 - variable
        if entry.compressedSize > room || descriptor > room - entry.compressedSize {
            return .problem("its data runs into the next entry or the central directory: entries overlap")
        }
        return .data(at: start + 30 + variable)
    }
}
