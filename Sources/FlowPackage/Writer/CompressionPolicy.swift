extension EntryCompression {
    /// File types that are already compressed: deflating them again costs time and saves
    /// nothing, so they are stored.
    public static let storedTypes: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "heic", "heif", "avif", "jxl",
        "mp3", "m4a", "aac", "ogg", "oga", "opus", "flac",
        "mp4", "m4v", "mov", "webm", "mkv",
        "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "lz4", "br",
        "woff", "woff2", "luapkg", "jar", "apk", "ipa",
    ]

    /// How an entry at `path` is stored: by its extension, case-insensitively, so the choice
    /// depends on nothing but the path.
    public static func forEntry(_ path: String) -> EntryCompression {
        let fileName = path.split(separator: "/").last ?? Substring(path)
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return .deflate }
        return storedTypes.contains(fileName[fileName.index(after: dot)...].lowercased()) ? .store : .deflate
    }
}
