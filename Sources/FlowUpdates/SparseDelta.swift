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
        var fetchedHere: Int64 = 0
        func fetch(_ start: Int64, _ end: Int64) throws(UpdateError) -> [UInt8]? {
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
            fetchedHere += Int64(bytes.count)
            return bytes.count == Int(end - start) ? bytes : nil
        }
        defer { report.fetched += fetchedHere }

        // The end record: how many entries, where the directory is.
        guard let endBytes = try fetch(size - 22, size), let end = ZipLayout.endRecord(endBytes),
            end.directoryOffset == directoryOffset, directoryOffset + end.directorySize == size - 22, end.count >= 1
        else { return false }
        // A record is 46 bytes, its name and its extra field (the same size as the device's).
        let extra = held.values.first.map { Int($0.span.record.raw[30]) | Int($0.span.record.raw[31]) << 8 } ?? 0
        func guess(_ name: String) -> Int64 { Int64(46 + name.utf8.count + extra) }

        // The first records: manifest.json, manifest.sig when signed, the first content entry.
        guard
            let first = try fetch(
                directoryOffset, min(directoryOffset + 3 * 46 + 3 * Int64(extra) + 13 + 12 + 128, size - 22))
        else { return false }
        var records: [Int: ZipLayout.Record] = [:]
        let prefix = ZipLayout.parseRecords(first[...], count: end.count).records
        for (index, record) in prefix.enumerated() { records[index] = record }
        guard prefix.count >= 2, prefix[0].name == Array(Manifest.entryName.utf8), prefix[0].method == 0 else {
            return false
        }
        let contentStart = prefix[1].name == Array(PackageSignature.entryName.utf8) ? 2 : 1
        guard prefix.count > contentStart, prefix[0].offset == 0 else { return false }

        // manifest.json and manifest.sig, whole: the manifest lists every entry's SHA-256.
        guard let head = try fetch(0, prefix[contentStart].offset), head.count >= 30 else { return false }
        let nameLength = Int(head[26]) | Int(head[27]) << 8
        let extraLength = Int(head[28]) | Int(head[29]) << 8
        let dataStart = 30 + nameLength + extraLength
        let dataEnd = dataStart + Int(prefix[0].compressedSize)
        guard dataEnd <= head.count,
            let manifest = try? Manifest.decode(Array(head[dataStart..<dataEnd]), packagePath: url.path)
        else { return false }
        var sha: [String: String] = [:]
        for item in manifest.entries { sha[item.path] = item.sha256 }
        let names =
            prefix[0..<contentStart].map { String(decoding: $0.name, as: UTF8.self) }
            + manifest.entries.map(\.path).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        guard names.count == end.count else { return false }
        func heldEntry(_ index: Int) -> HeldEntry? {
            index >= contentStart ? held[names[index] + "\n" + (sha[names[index]] ?? "")] : nil
        }

        // Where each record starts; the records of entries not held are fetched, a run at a
        // time, with the record after the run (its offset ends the run's last entry).
        var recordStart = directoryOffset + Int64(prefix[0..<contentStart].reduce(0) { $0 + $1.raw.count })
        var offsets: [Int64] = []
        var expected = prefix[contentStart].offset
        for index in contentStart..<names.count {
            if records[index] == nil, heldEntry(index) == nil {
                var last = index
                while last + 1 < names.count, heldEntry(last + 1) == nil, records[last + 1] == nil { last += 1 }
                last = min(last + 1, names.count - 1)
                let estimate = (index...last).reduce(Int64(64)) { $0 + guess(names[$1]) }
                guard let bytes = try fetch(recordStart, min(recordStart + estimate, size - 22)) else { return false }
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
        guard expected == directoryOffset, recordStart == size - 22 else { return false }

        // Assemble: the head, each entry (copied or fetched, neighbours in one range), the
        // directory (fetched records, or held ones moved), the end record.
        try file.append(head[...])
        var index = contentStart
        while index < names.count {
            if let local = heldEntry(index) {
                try copy(from: local.url, start: local.span.start, length: local.span.length, into: &file)
                report.reused += local.span.length
                index += 1
                continue
            }
            var last = index
            while last + 1 < names.count, heldEntry(last + 1) == nil { last += 1 }
            let start = offsets[index - contentStart]
            let stop = last + 1 < names.count ? offsets[last + 1 - contentStart] : directoryOffset
            var target = file
            defer { file = target }
            var received: Int64 = 0
            do {
                try FeedTransport.get(
                    url, limit: stop - start, timeout: timeout, deadline: deadline,
                    range: .init(start: start, end: stop - 1), wholeAllowed: false
                ) { (piece) throws(UpdateError) in
                    received += Int64(piece.count)
                    try target.append(piece)
                }
            } catch {
                fetchedHere += received
                throw error
            }
            fetchedHere += received
            index = last + 1
        }
        var directory: [UInt8] = []
        for index in 0..<names.count {
            if let record = records[index] {
                directory += record.raw
            } else if let local = heldEntry(index) {
                directory += local.span.record.moved(to: offsets[index - contentStart])
            } else {
                return false
            }
        }
        try file.append(directory[...])
        try file.append(endBytes[...])
        return true
    }
}
