import FlowDiagnostics
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

/// One file of a new project, rendered and ready to write: its path inside the project folder
/// and its bytes.
public struct RenderedFile: Sendable, Equatable {
    public var path: String
    public var bytes: [UInt8]
    /// Written with execute permission, as its template file had.
    public var isExecutable: Bool

    public init(path: String, bytes: [UInt8], isExecutable: Bool = false) {
        self.path = path
        self.bytes = bytes
        self.isExecutable = isExecutable
    }
}

/// Renders a template's files with Mustache (``TemplateText``'s subset), file and folder names included. Binary files are
/// copied byte for byte; every rendered path must stay inside the project folder.
public enum TemplateRenderer {
    /// Extensions whose files are copied as they are, even when their bytes happen to be UTF-8.
    public static let binaryExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "ico", "icns", "bmp", "tiff", "pdf", "heic",
        "mp3", "m4a", "aac", "wav", "caf", "mp4", "mov", "ttf", "otf", "woff", "woff2",
        "zip", "gz", "bz2", "xz", "luapkg", "a", "o", "so", "dylib", "car", "nib",
    ]

    /// Whether `file` is copied rather than rendered: a binary extension, bytes that are not
    /// UTF-8, or a NUL byte.
    public static func isBinary(_ file: Template.File) -> Bool {
        let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
        if let dot = name.lastIndex(of: "."), binaryExtensions.contains(name[name.index(after: dot)...].lowercased()) {
            return true
        }
        if file.bytes.contains(0) { return true }
        return String(validating: file.bytes, as: UTF8.self) == nil
    }

    /// Renders every file of `template` with `context`, checking all of them before returning;
    /// the problems are FP6xx diagnostics naming the template file.
    ///
    /// A tag naming a variable the template does not declare (`{{nmae}}`) is an error, not
    /// empty text: a declared variable left without a value may render empty (that is how
    /// optional values and `{{^variable}}` sections work), a misspelt one may not.
    public static func render(_ template: Template, context: [String: String]) throws(TemplateError) -> [RenderedFile] {
        var rendered: [RenderedFile] = []
        var problems: [Diagnostic] = []
        let declared = TemplateValues.renderedNames(for: template).union(context.keys)
        for file in template.files {
            let lookups = RecordingContext(context)
            defer {
                problems += undeclaredNames(
                    lookups.missing.subtracting(declared), in: file, of: template, declared: declared)
            }
            let path: String
            switch renderText(file.path, context: lookups) {
            case .failure(let error):
                problems.append(diagnostic(error, file: "\(template.origin)/\(file.path)", inName: true))
                continue
            case .success(let text): path = text
            }
            if let reason = pathProblem(path) {
                problems.append(
                    Diagnostic(
                        severity: .error, code: .invalidRenderedPath,
                        message: "'\(file.path)' renders to '\(path)', which \(reason)",
                        file: "\(template.origin)/\(file.path)",
                        hint: "a rendered path must stay inside the new project folder"))
                continue
            }
            if isBinary(file) {
                rendered.append(RenderedFile(path: path, bytes: file.bytes, isExecutable: file.isExecutable))
                continue
            }
            switch renderText(String(decoding: file.bytes, as: UTF8.self), context: lookups) {
            case .failure(let error):
                problems.append(diagnostic(error, file: "\(template.origin)/\(file.path)", inName: false))
            case .success(let text):
                rendered.append(RenderedFile(path: path, bytes: Array(text.utf8), isExecutable: file.isExecutable))
            }
        }
        problems += collisions(in: rendered, origin: template.origin)
        if !problems.isEmpty { throw .invalidTemplate(problems) }
        return rendered.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }

    /// Why a rendered relative path is unsafe or unusable, or nil when it is fine.
    static func pathProblem(_ path: String) -> String? {
        if path.isEmpty { return "is empty" }
        if path.hasPrefix("/") { return "is absolute" }
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part == ".." { return "leaves the project folder ('..')" }
            if part.isEmpty || part == "." { return "has an empty or '.' part" }
            if part.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return "contains a control character"
            }
        }
        return nil
    }

    /// Two files that render to the same path, or a file where another needs a folder.
    static func collisions(in files: [RenderedFile], origin: String) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let paths = Set(files.map(\.path))
        var seen: Set<String> = []
        for file in files {
            if !seen.insert(file.path).inserted {
                problems.append(
                    Diagnostic(
                        severity: .error, code: .renderedPathCollision,
                        message: "two template files render to '\(file.path)'", file: origin))
            }
            var parent = file.path
            while let slash = parent.lastIndex(of: "/") {
                parent = String(parent[..<slash])
                if paths.contains(parent) {
                    problems.append(
                        Diagnostic(
                            severity: .error, code: .renderedPathCollision,
                            message: "'\(parent)' is rendered as a file but '\(file.path)' needs it to be a folder",
                            file: origin))
                }
            }
        }
        return problems
    }

    private static func renderText(_ text: String, context: RecordingContext) -> Result<
        String, TemplateText.ParseError
    > {
        do {
            return .success(try TemplateText(text).render(context.value(named:)))
        } catch {
            return .failure(error)
        }
    }

    /// One FP606 error per undeclared name a file (or its name) used, at the first tag that
    /// names it when it can be found with the default delimiters.
    private static func undeclaredNames(
        _ names: Set<String>, in file: Template.File, of template: Template,
        declared: Set<String>
    ) -> [Diagnostic] {
        let text = isBinary(file) ? "" : String(decoding: file.bytes, as: UTF8.self)
        let known = declared.subtracting(TemplateVariable.reservedNames).sorted().joined(separator: ", ")
        return names.sorted().map { name in
            let place = firstTag(naming: name, in: text)
            return Diagnostic(
                severity: .error, code: .undeclaredTemplateVariable,
                message: "'\(name)' is not a variable of this template, so it would render as empty text",
                file: "\(template.origin)/\(file.path)", line: place?.line, column: place?.column,
                hint: "fix the spelling, or declare it in template.json's \"variables\"; this template has: \(known)")
        }
    }

    /// Line and column (1-based) of the first `{{name`, `{{#name`, `{{^name`, `{{&name` or
    /// `{{{name` tag, spaces allowed after the braces and sigil.
    static func firstTag(naming name: String, in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        let target = Array(name.utf8)
        var line = 1, lineStart = 0, index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
            if bytes[index] == 0x7B, bytes[index + 1] == 0x7B {
                var cursor = index + 2
                while cursor < bytes.count, [0x7B, 0x23, 0x5E, 0x26, 0x20].contains(bytes[cursor]) { cursor += 1 }
                let end = cursor + target.count
                if end <= bytes.count, Array(bytes[cursor..<end]) == target,
                    end == bytes.count || !(isNameByte(bytes[end]))
                {
                    return (line, index - lineStart + 1)
                }
            }
            index += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }

    private static func diagnostic(_ error: TemplateText.ParseError, file: String, inName: Bool) -> Diagnostic {
        let what = inName ? "the file name" : "Mustache"
        return Diagnostic(
            severity: .error, code: .invalidTemplateFile,
            message: "\(what) does not parse: \(describe(error.problem))",
            file: file, line: inName ? nil : error.line, column: inName ? nil : error.column,
            hint: "to write a literal '{{', change the delimiters with {{=<% %>=}}")
    }

    private static func describe(_ problem: TemplateText.ParseError.Problem) -> String {
        switch problem {
        case .sectionCloseNameIncorrect: return "a section is closed with another name than it was opened with"
        case .unfinishedName: return "a tag is not closed"
        case .expectedSectionEnd: return "a section is never closed"
        case .invalidSetDelimiter: return "a set-delimiter tag is malformed"
        case .unsupported(let what): return what
        }
    }
}

/// The rendering context: the values, and every name a tag asked for that has none; whether
/// it is a misspelling is decided against the names the template declares.
private final class RecordingContext {
    let values: [String: String]
    private(set) var missing: Set<String> = []

    init(_ values: [String: String]) { self.values = values }

    func value(named name: String) -> String? {
        if let value = values[name] { return value }
        missing.insert(name)
        return nil
    }
}
