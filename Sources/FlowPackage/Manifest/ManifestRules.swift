/// The rules of the manifest both of its readers apply, written once: `ManifestDecoder` (over
/// the JSON tree, any manifest) and `ManifestTable` (over the canonical bytes, the fast path),
/// and whatever else checks a digest the format wrote (FlowUpdates' store and downloads).
package enum ManifestRules {
    /// Whether `bytes` are a SHA-256 as the format writes it: 64 lowercase hex digits.
    package static func isSHA256<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        bytes.count == 64 && bytes.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether `text` is a SHA-256 as the format writes it: 64 lowercase hex digits.
    package static func isSHA256(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { isSHA256($0) } ?? isSHA256(text.utf8)
    }
}

extension ManifestRules {
    /// Whether no module is listed both at `modules/a/b.lua` and at `modules/a/b/init.lua`.
    /// `paths` are the module paths sorted in byte order with no path twice (what both readers
    /// check first), `initModules` the positions of those stored as `…/init.lua`.
    package static func noModuleTwice<Paths: RandomAccessCollection>(
        sortedPaths paths: Paths, initModules: some Sequence<Paths.Index>
    ) -> Bool where Paths.Element: Collection<UInt8> {
        var plain: [UInt8] = []
        for index in initModules {
            // Module `a.b` at `modules/a/b/init.lua`: is `modules/a/b.lua` listed too?
            plain.removeAll(keepingCapacity: true)
            plain.append(contentsOf: paths[index].dropLast(9))
            plain.append(contentsOf: ".lua".utf8)
            var low = paths.startIndex
            var high = paths.endIndex
            while low < high {
                let middle = paths.index(low, offsetBy: paths.distance(from: low, to: high) / 2)
                if paths[middle].lexicographicallyPrecedes(plain) {
                    low = paths.index(after: middle)
                } else {
                    high = middle
                }
            }
            if low < paths.endIndex, paths[low].elementsEqual(plain) { return false }
        }
        return true
    }
}
