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

/// The opt-in that lets a project link files outside its repository. It is never a key of
/// flowpkg.json: an untrusted pull request writes that file, so only whoever runs flowpkg
/// (its command line or its environment) can give it.
public enum OutsideLinks {
    /// The command-line flag of validate, export, serve, run, lsp and the build tool.
    public static let option = "--allow-outside-links"
    /// Set to `1` to allow outside links without the flag (in CI, say).
    public static let environmentVariable = "FLOWPKG_ALLOW_OUTSIDE_LINKS"

    /// Whether `environment` gives the opt-in.
    public static func allowed(by environment: [String: String]) -> Bool {
        environment[environmentVariable] == "1"
    }

    /// Whether this process's environment gives the opt-in.
    /// Whether this process's environment gives the opt-in (read now, so that a command's
    /// flag can set it for every library call below it).
    public static var allowedByEnvironment: Bool {
        guard let value = getenv(environmentVariable) else { return false }
        return String(cString: value) == "1"
    }

    /// Gives the opt-in to this process and what it starts (a command's flag does this).
    public static func allowForThisProcess() {
        setenv(environmentVariable, "1", 1)
    }
}

/// Where a file a project links to (a linked resource, `.luacheckrc`) may lie: inside the
/// project's repository (the git work tree holding flowpkg.json, or the project folder when
/// there is none), elsewhere only with the opt-in, and never in `/proc`, `/sys` or `/dev`, at
/// a special file, or at a folder that holds the project.
struct LinkRule: Sendable {
    /// The canonical project folder.
    let projectRoot: String
    /// The canonical folder links may lie in without the opt-in.
    let repositoryRoot: String
    let allowsOutside: Bool

    init(projectRoot: String, allowsOutside: Bool) {
        self.projectRoot = projectRoot
        self.repositoryRoot = Self.repositoryRoot(holding: projectRoot)
        self.allowsOutside = allowsOutside
    }

    /// Why a link may not be followed.
    enum Refusal: Equatable {
        /// Outside the repository, without the opt-in.
        case outside(target: String)
        /// In `/proc`, `/sys` or `/dev`: never a project's file, even with the opt-in.
        case system(target: String)
        /// A FIFO, socket or device: reading one blocks or never ends.
        case special(target: String)
        /// A folder the project is in (such as `/`): walking it walks the project and far more.
        case holdsProject(target: String)

        /// Whether the opt-in would allow it.
        var isAllowedByOptIn: Bool {
            if case .outside = self { return true }
            return false
        }
    }

    /// Why the canonical path `target` may not be used, or nil when it may.
    func refusal(of target: String) -> Refusal? {
        for system in ["/proc", "/sys", "/dev"] where target == system || target.hasPrefix(system + "/") {
            return .system(target: target)
        }
        var info = stat()
        guard stat(target, &info) == 0 else { return nil }  // missing: reported by the caller
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR {
            if target == "/" || projectRoot == target || projectRoot.hasPrefix(target + "/") {
                return .holdsProject(target: target)
            }
        } else if type != S_IFREG {
            return .special(target: target)
        }
        if allowsOutside || target == repositoryRoot || target.hasPrefix(repositoryRoot + "/") { return nil }
        return .outside(target: target)
    }

    /// The message and hint of a refusal of `link`, as flowpkg.json or the file system names it.
    func explain(_ refusal: Refusal, link: String, what: String) -> (message: String, hint: String) {
        switch refusal {
        case .outside(let target):
            let place = repositoryRoot == projectRoot ? "the project folder" : "the project's repository"
            return (
                "\(what) '\(link)' lies outside \(place) ('\(repositoryRoot)'), at '\(target)'",
                "move it into \(place), or allow links outside it with \(OutsideLinks.option) or "
                    + "\(OutsideLinks.environmentVariable)=1 (never trust a project you did not write with them)"
            )
        case .system(let target):
            return (
                "\(what) '\(link)' is in '\(target)', a system folder, and is never packaged",
                "copy what you need into the project; \(OutsideLinks.option) does not allow /proc, /sys or /dev"
            )
        case .special(let target):
            return (
                "\(what) '\(link)' is '\(target)', which is not a regular file or folder (a FIFO, socket or device)",
                "link a regular file instead; \(OutsideLinks.option) does not allow special files"
            )
        case .holdsProject(let target):
            return (
                "\(what) '\(link)' is '\(target)', a folder that holds the project itself",
                "link a folder beside or inside the project; \(OutsideLinks.option) does not allow this"
            )
        }
    }

    /// The work tree holding `folder` (the nearest folder at or above it with a `.git`), or
    /// `folder` itself when there is none. Git itself is not run.
    static func repositoryRoot(holding folder: String) -> String {
        var candidate = folder
        while true {
            // A `.git` at `/` would make every file "inside": it counts as none.
            guard candidate != "/", let slash = candidate.lastIndex(of: "/") else { return folder }
            var info = stat()
            if lstat(candidate + "/.git", &info) == 0 { return candidate }
            candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
        }
    }
}
