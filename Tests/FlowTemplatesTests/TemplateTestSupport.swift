import FlowTestSupport
import Foundation

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct TemplateScratch {
    let url: URL

    init() throws {
        url = try Scratch("template-tests").url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Every file and folder below `folder` with each file's bytes, to prove a refusal left it as it was.
    static func tree(_ folder: URL) -> [String: Data?] {
        var result: [String: Data?] = [:]
        let base = folder.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return result }
        while let relative = walker.nextObject() as? String {
            let path = base + "/" + relative
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            result[relative] = isDirectory.boolValue ? nil : FileManager.default.contents(atPath: path)
        }
        return result
    }
}

/// The checkout's root, found from this file's place in it.
let checkoutRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
