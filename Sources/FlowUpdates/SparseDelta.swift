import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The delta download that fetches little more than what changed: the end record, the
/// directory records of the first entries, `manifest.json` and `manifest.sig`, and then, for
/// each entry whose path and SHA-256 (from the new manifest) no package on the device has, its
/// bytes and its directory record (with the next one, which says where it ends). Every other
/// entry's bytes and directory record are copied from the device's package, the record moved
/// to its new offset. Nothing here is trusted: the assembled file must match the signed
/// index's SHA-256, or the caller fetches the whole package.
extension UpdateStore {
    /// An entry a package on the device holds, by `path\nsha256`.
    struct HeldEntry {
        var url: URL
        var span: ZipLayout.Span
    }

    /// What the device holds, entry by entry: from each package's directory and manifest.
    static func heldEntries(in packages: [URL]) -> [String: HeldEntry] {
        var held: [String: HeldEntry] = [:]
        for package in packages {
            guard let layout = ZipLayout.read(package),
                let manifest = try? PackageReader.readManifest(at: package)
            else { continue }
            var sha: [String: String] = [:]
            for entry in manifest.entries { sha[entry.path] = entry.sha256 }
            for span in layout.spans {
                let name = String(decoding: span.record.name, as: UTF8.self)
                guard let digest = sha[name] else { continue }
                let key = name + "\n" + digest
                if held[key] == nil { held[key] = HeldEntry(url: package, span: span) }
            }
        }
        return held
    }

    /// Assembles the package into `file` as the type's comment says; false when this kind of
    /// delta does not apply (the server ignores ranges, the package is not laid out as the
    /// writer lays it, nothing is shared), having written nothing.
    func assembleSparsely(
        into file: inout PartialFile, entry: UpdateFeed.Entry, directoryOffset: Int64, url: URL,
        held: [String: HeldEntry], timeout: TimeInterval, deadline: CheckDeadline, report: inout DownloadReport
    ) throws(UpdateError) -> Bool {
        let size = entry.size ?? 0
        guard !held.isEmpty, directoryOffset > 0, size - directoryOffset >= 22 else { return false }
        var ranges = RangeFetcher(url: url, size: size, timeout: timeout, deadline: deadline)
        defer { report.fetched += ranges.fetched }
        guard var layout = try SparseLayout.readHead(with: &ranges, directoryOffset: directoryOffset, held: held),
            try layout.locateEntries(with: &ranges)
        else { return false }
        return try assemble(layout, with: &ranges, into: &file, report: &report)
    }

    /// Writes the head, each entry (copied or fetched, neighbours in one range), the directory
    /// (fetched records, or held ones moved) and the end record; false, having written only
    /// part, when a record is missing (the caller then fetches the whole package).
    private func assemble(
        _ layout: SparseLayout, with ranges: inout RangeFetcher, into file: inout PartialFile,
        report: inout DownloadReport
    ) throws(UpdateError) -> Bool {
        let names = layout.names, contentStart = layout.contentStart
        try file.append(layout.head[...])
        var index = contentStart
        while index < names.count {
            if let local = layout.heldEntry(index) {
                try copy(from: local.url, start: local.span.start, length: local.span.length, into: &file)
                report.reused += local.span.length
                index += 1
                continue
            }
            var last = index
            while last + 1 < names.count, layout.heldEntry(last + 1) == nil { last += 1 }
            let start = layout.offsets[index - contentStart]
            let stop = last + 1 < names.count ? layout.offsets[last + 1 - contentStart] : layout.directoryOffset
            try ranges.stream(start, stop, into: &file)
            index = last + 1
        }
        var directory: [UInt8] = []
        for index in 0..<names.count {
            if let record = layout.records[index] {
                directory += record.raw
            } else if let local = layout.heldEntry(index) {
                directory += local.span.record.moved(to: layout.offsets[index - contentStart])
            } else {
                return false
            }
        }
        try file.append(directory[...])
        try file.append(layout.endBytes[...])
        return true
    }
}

/// Byte ranges of the new package fetched from the feed for one sparse assembly, counted.
struct RangeFetcher {
    let url: URL
    let size: Int64
    let timeout: TimeInterval
    let deadline: CheckDeadline
    var fetched: Int64 = 0

    init(url: URL, size: Int64, timeout: TimeInterval, deadline: CheckDeadline) {
        self.url = url
        self.size = size
        self.timeout = timeout
        self.deadline = deadline
    }

    /// Bytes `start..<end`, or nil when the server does not give exactly them.
    mutating func fetch(_ start: Int64, _ end: Int64) throws(UpdateError) -> [UInt8]? {
        guard start < end, end <= size else { return nil }
        var bytes: [UInt8] = []
        do {
            try FeedTransport.get(
                url, limit: end - start, timeout: timeout, deadline: deadline,
                range: .init(start: start, end: end - 1), wholeAllowed: false
            ) { bytes += $0 }
        } catch {
            if case .unreachable = error { return nil }
            throw error
        }
        fetched += Int64(bytes.count)
        return bytes.count == Int(end - start) ? bytes : nil
    }

    /// Bytes `start..<stop` appended to `file` as they arrive.
    mutating func stream(_ start: Int64, _ stop: Int64, into file: inout PartialFile) throws(UpdateError) {
        var target = file
        defer { file = target }
        var received: Int64 = 0
        defer { fetched += received }
        try FeedTransport.get(
            url, limit: stop - start, timeout: timeout, deadline: deadline,
            range: .init(start: start, end: stop - 1), wholeAllowed: false
        ) { (piece) throws(UpdateError) in
            received += Int64(piece.count)
            try target.append(piece)
        }
    }
}

/// Where everything of the new package is, as the sparse assembly works it out: its end
/// record, its head (`manifest.json` and `manifest.sig`), every entry's name in the
/// directory's order, the directory records fetched, and where each content entry starts.
struct SparseLayout {
    typealias HeldEntry = UpdateStore.HeldEntry

    let directoryOffset: Int64
    let endBytes: [UInt8]
    let head: [UInt8]
    let names: [String]
    /// The first content entry's position (after `manifest.json` and `manifest.sig`).
    let contentStart: Int
    let held: [String: HeldEntry]
    let sha: [String: String]
    /// The extra field's length of a directory record, for estimating how long records are.
    let extraFieldLength: Int
    var records: [Int: ZipLayout.Record]
    var offsets: [Int64] = []

    /// What the device holds of entry `index`: by its path and the new manifest's SHA-256.
    func heldEntry(_ index: Int) -> HeldEntry? {
        index >= contentStart ? held[names[index] + "\n" + (sha[names[index]] ?? "")] : nil
    }

    /// Reads the end record, the first directory records and the manifest (with the
    /// signature); nil when the package is not laid out as the writer lays it.
    static func readHead(with ranges: inout RangeFetcher, directoryOffset: Int64, held: [String: HeldEntry])
        throws(UpdateError) -> SparseLayout?
    {
        let size = ranges.size
        // The end record: how many entries, where the directory is.
        guard let endBytes = try ranges.fetch(size - 22, size), let end = ZipLayout.endRecord(endBytes),
            end.directoryOffset == directoryOffset, directoryOffset + end.directorySize == size - 22, end.count >= 1
        else { return nil }
        // A record is 46 bytes, its name and its extra field (the same size as the device's).
        let extra = held.values.first.map { Int($0.span.record.raw[30]) | Int($0.span.record.raw[31]) << 8 } ?? 0

        // The first records: manifest.json, manifest.sig when signed, the first content entry.
        guard
            let first = try ranges.fetch(
                directoryOffset, min(directoryOffset + 3 * 46 + 3 * Int64(extra) + 13 + 12 + 128, size - 22))
        else { return nil }
        var records: [Int: ZipLayout.Record] = [:]
        let prefix = ZipLayout.parseRecords(first[...], count: end.count).records
        for (index, record) in prefix.enumerated() { records[index] = record }
        guard prefix.count >= 2, prefix[0].name == Array(Manifest.entryName.utf8), prefix[0].method == 0 else {
            return nil
        }
        let contentStart = prefix[1].name == Array(PackageSignature.entryName.utf8) ? 2 : 1
        guard prefix.count > contentStart, prefix[0].offset == 0 else { return nil }

        // manifest.json and manifest.sig, whole: the manifest lists every entry's SHA-256.
        guard let head = try ranges.fetch(0, prefix[contentStart].offset), head.count >= 30 else { return nil }
        let nameLength = Int(head[26]) | Int(head[27]) << 8
        let extraLength = Int(head[28]) | Int(head[29]) << 8
        let dataStart = 30 + nameLength + extraLength
        let dataEnd = dataStart + Int(prefix[0].compressedSize)
        guard dataEnd <= head.count,
            let manifest = try? Manifest.decode(Array(head[dataStart..<dataEnd]), packagePath: ranges.url.path)
        else { return nil }
        var sha: [String: String] = [:]
        for item in manifest.entries { sha[item.path] = item.sha256 }
        let names =
            prefix[0..<contentStart].map { String(decoding: $0.name, as: UTF8.self) }
            + manifest.entries.map(\.path).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        guard names.count == end.count else { return nil }
        return SparseLayout(
            directoryOffset: directoryOffset, endBytes: endBytes, head: head, names: names,
            contentStart: contentStart, held: held, sha: sha, extraFieldLength: extra, records: records)
    }

    /// Where each record starts and each content entry begins: the records of entries not
    /// held are fetched, a run at a time, with the record after the run (its offset ends the
    /// run's last entry). False when the records do not add up to the directory.
    mutating func locateEntries(with ranges: inout RangeFetcher) throws(UpdateError) -> Bool {
        let size = ranges.size
        func guess(_ name: String) -> Int64 { Int64(46 + name.utf8.count + extraFieldLength) }
        var recordStart =
            directoryOffset + Int64((0..<contentStart).reduce(0) { $0 + (records[$1]?.raw.count ?? 0) })
        var expected = records[contentStart]?.offset ?? 0
        for index in contentStart..<names.count {
            if records[index] == nil, heldEntry(index) == nil {
                var last = index
                while last + 1 < names.count, heldEntry(last + 1) == nil, records[last + 1] == nil { last += 1 }
                last = min(last + 1, names.count - 1)
                let estimate = (index...last).reduce(Int64(64)) { $0 + guess(names[$1]) }
                guard let bytes = try ranges.fetch(recordStart, min(recordStart + estimate, size - 22)) else {
                    return false
                }
                let run = ZipLayout.parseRecords(bytes[...], count: last - index + 1).records
                guard !run.isEmpty else { return false }
                for (step, record) in run.enumerated() { records[index + step] = record }
            }
            if let record = records[index] {
                guard record.name == Array(names[index].utf8), record.offset == expected else { return false }
            }
            guard let length = records[index]?.raw.count ?? heldEntry(index)?.span.record.raw.count else {
                return false
            }
            offsets.append(expected)
            recordStart += Int64(length)
            // Where this entry ends: its held span's length, or the next record's offset (a
            // fetched next record's offset is checked against this when its turn comes).
            if let local = heldEntry(index) {
                expected += local.span.length
            } else if index + 1 < names.count {
                guard let next = records[index + 1] else { return false }
                expected = next.offset
            } else {
                expected = directoryOffset
            }
        }
        return expected == directoryOffset && recordStart == size - 22
    }
}
