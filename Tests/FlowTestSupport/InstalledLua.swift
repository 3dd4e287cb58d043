import Foundation

/// The Lua files Debian's lua-* packages installed on this machine: a corpus of real code for
/// the parser's and the analyzer's tests.
public enum InstalledLua {
    /// Every `.lua` file under `/usr/share/lua`, by full path, sorted.
    public static func files() -> [String] {
        let root = "/usr/share/lua"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".lua") }.map { "\(root)/\($0)" }.sorted()
    }
}
