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

/// What the terminal a command writes to can show.
enum Terminal {
    /// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org) or
    /// the terminal is `dumb`.
    static func supportsColor(
        fileDescriptor: Int32 = STDOUT_FILENO,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isatty(fileDescriptor) == 1
    }

    /// The current directory, which diagnostics' paths are shown relative to.
    static var workingDirectory: String {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
    }
}
