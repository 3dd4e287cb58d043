/// Reads the LuaCATS annotations of a chunk's `---` comment lines into blocks, each keyed by the
/// line of the statement it describes. A malformed annotation is reported at its place and
/// left out; nothing in a comment can make the reader fail.
public struct AnnotationReader {
    /// A malformed annotation: where, and what is wrong.
    public struct Problem: Sendable, Hashable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// The blocks by the line below their last comment line (the statement they describe).
    public private(set) var blocks: [Int: AnnotationBlock] = [:]
    public private(set) var problems: [Problem] = []
    /// Whether the chunk is a definition file (`---@meta`).
    public private(set) var isMeta = false
    /// `---@diagnostic` suppressions: the LuaLS names silenced on each line (empty: all).
    public private(set) var silenced: [Int: Set<String>] = [:]
    /// `---@diagnostic disable: name` from a line on, to the end or an `enable`.
    public private(set) var disabledFrom: [ModuleTypes.DiagnosticRange] = []

    /// Whether `source` holds an annotation at all: most chunks do not, and are not read further.
    public static func mayHoldAnnotations(_ source: UnsafeRawBufferPointer) -> Bool {
        guard source.count >= 4 else { return false }
        var index = 0
        let last = source.count - 4
        while index <= last {
            if source[index] == UInt8(ascii: "-"), source[index + 1] == UInt8(ascii: "-"),
                source[index + 2] == UInt8(ascii: "-"), source[index + 3] == UInt8(ascii: "@")
            {
                return true
            }
            index += 1
        }
        return false
    }

    public init(source: UnsafeRawBufferPointer) {
        guard Self.mayHoldAnnotations(source) else { return }
        var block = AnnotationBlock()
        var line = 1
        var start = 0
        let count = source.count
        while start <= count {
            var end = start
            while end < count, source[end] != 0x0A { end += 1 }
            var first = start
            while first < end, source[first] == 0x20 || source[first] == 0x09 { first += 1 }
            if end - first >= 3, source[first] == UInt8(ascii: "-"), source[first + 1] == UInt8(ascii: "-"),
                source[first + 2] == UInt8(ascii: "-"), !(end - first >= 4 && source[first + 3] == UInt8(ascii: "-"))
            {
                var textEnd = end
                if textEnd > first, source[textEnd - 1] == 0x0D { textEnd -= 1 }
                let text = String(
                    decoding: UnsafeRawBufferPointer(rebasing: source[(first + 3)..<textEnd]), as: UTF8.self)
                if block.annotations.isEmpty && block.doc.isEmpty { block.firstLine = line }
                block.lastLine = line
                read(Substring(text), line: line, column: first - start + 4, into: &block)
            } else if block.firstLine != 0 {
                blocks[block.lastLine + 1] = block
                block = AnnotationBlock()
            }
            start = end + 1
            line += 1
        }
        if block.firstLine != 0 { blocks[block.lastLine + 1] = block }
    }

    /// One comment line's text after its `---`.
    private mutating func read(_ text: Substring, line: Int, column: Int, into block: inout AnnotationBlock) {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        let offset = column + (text.utf8.count - trimmed.utf8.count) - 1
        if trimmed.hasPrefix("|") {
            continueAlias(trimmed.dropFirst(), line: line, column: offset + 2, in: &block)
            return
        }
        guard trimmed.hasPrefix("@") else {
            block.doc.append(String(text.first == " " ? text.dropFirst() : text))
            return
        }
        let body = trimmed.dropFirst()
        let tag = String(body.prefix { $0.isLetter || $0 == "_" || $0 == "-" })
        let rest = body.dropFirst(tag.utf8.count)
        let restColumn = offset + 1 + tag.utf8.count + 1
        do {
            if let kind = try AnnotationTag.parse(tag: tag, rest, column: restColumn) {
                let annotation = Annotation(kind: kind, line: line, column: offset + 1)
                note(annotation)
                block.annotations.append(annotation)
            }
        } catch let problem as AnnotationTag.Malformed {
            problems.append(
                Problem(
                    line: line, column: problem.column, message: "malformed ---@\(tag) annotation: \(problem.message)"))
        } catch {
            problems.append(Problem(line: line, column: offset + 1, message: "malformed ---@\(tag) annotation"))
        }
    }

    /// What a file-level annotation changes for the whole chunk.
    private mutating func note(_ annotation: Annotation) {
        switch annotation.kind {
        case .meta:
            isMeta = true
        case .diagnostic(let action, let names):
            let set = Set(names)
            switch action {
            case "disable-next-line": silenced[annotation.line + 1, default: []].formUnion(set.isEmpty ? [] : set)
            case "disable-line": silenced[annotation.line, default: []].formUnion(set)
            case "disable": disabledFrom.append(.init(line: annotation.line, names: set, enabled: false))
            case "enable": disabledFrom.append(.init(line: annotation.line, names: set, enabled: true))
            default: break
            }
            if set.isEmpty, action.hasSuffix("line") {
                silenced[action == "disable-line" ? annotation.line : annotation.line + 1] = []
            }
        default:
            break
        }
    }

    /// `---| "value" # doc`: one more member of the alias above.
    private mutating func continueAlias(_ text: Substring, line: Int, column: Int, in block: inout AnnotationBlock) {
        guard
            let index = block.annotations.lastIndex(where: {
                if case .alias = $0.kind { return true } else { return false }
            }), case .alias(let name, let type) = block.annotations[index].kind
        else { return }
        var member = text.drop { $0 == " " || $0 == ">" || $0 == "+" }
        member = member.prefix { $0 != "#" }
        switch TypeExpressionParser.parse(member) {
        case .success(let (parsed, _)):
            let members: [LuaType]
            if case .union(let existing) = type {
                members = existing + [parsed]
            } else if type == .unknown {
                members = [parsed]
            } else {
                members = [type, parsed]
            }
            block.annotations[index].kind = .alias(name: name, type: members.count == 1 ? members[0] : .union(members))
        case .failure(let failure):
            problems.append(
                Problem(
                    line: line, column: column + failure.offset, message: "malformed alias member: \(failure.message)"))
        }
    }
}
