/// Prints a `Doc` within a column width, choosing each group's layout once, from the outside
/// in, by looking ahead no further than the rest of the current line (so a file is printed
/// in time proportional to its size times the width, however deeply it nests).
struct DocPrinter {
    enum Mode { case flat, broken }
    struct Command {
        var indent: Int
        var mode: Mode
        var doc: Doc
    }

    /// The stacks `fits` measures with, kept for the next measure (there is one for each group
    /// printed, and measures nest), shared with the trials this printer makes.
    private final class Stacks {
        private var free: [[Command]] = []

        func take() -> [Command] {
            var stack = free.popLast() ?? []
            stack.removeAll(keepingCapacity: true)
            return stack
        }

        func give(_ stack: [Command]) { free.append(stack) }
    }
    private let stacks = Stacks()

    var width: Int
    /// The width a table's layout is decided against (the column width, also in a trial
    /// printed without a limit: a table breaks there as it will in the output).
    var tableWidth: Int
    let indentUnit: String
    let indentColumns: Int
    let newline: String
    private let newlineBytes: [UInt8]
    private let indentBytes: [UInt8]

    /// The source the layout's slices (`.slice`) are read from.
    var source: [UInt8] = []
    var output: [UInt8] = []
    /// The command stack `append` reuses.
    var spare: [Command] = []
    var column = 0
    var suffixes: [String] = []
    /// Whether a line has been broken (a trial measuring a first line stops there).
    var brokeLine = false

    init(width: Int, indentUnit: String, indentColumns: Int, newline: String) {
        self.width = width
        self.tableWidth = width
        self.indentUnit = indentUnit
        self.indentColumns = indentColumns
        self.newline = newline
        self.newlineBytes = Array(newline.utf8)
        self.indentBytes = Array(indentUnit.utf8)
    }

    /// The bytes of `doc`; `capacity`: about how many there will be.
    mutating func print(_ doc: Doc, capacity: Int = 0) -> [UInt8] {
        output = []
        output.reserveCapacity(capacity)
        column = 0
        var commands = [Command(indent: 0, mode: .broken, doc: doc)]
        while let command = commands.popLast() {
            step(command, &commands)
        }
        flushSuffixes()
        return output
    }

    mutating func step(_ command: Command, _ commands: inout [Command]) {
        switch command.doc {
        case .text(let string, let textWidth):
            if !suffixes.isEmpty && string != "," && string.utf8.contains(where: { $0 != 32 && $0 != 9 }) {
                // A line comment ends its line: what follows it in the source follows it here.
                commands.append(command)
                breakLine(Command(indent: command.indent, mode: .broken, doc: .hardLine), &commands)
                return
            }
            emit(string)
            column += textWidth
        case .slice(let start, let length, let width):
            printSlice(Int(start)..<Int(start + length), width: width, command, &commands)
        case .verbatim(let string, _, let last):
            if !suffixes.isEmpty {
                commands.append(command)
                breakLine(Command(indent: command.indent, mode: .broken, doc: .hardLine), &commands)
                return
            }
            emit(string)
            column = last
        case .softLine, .line:
            if command.mode == .flat {
                if case .line = command.doc {
                    output.append(32)
                    column += 1
                }
            } else {
                breakLine(command, &commands)
            }
        case .hardLine:
            breakLine(command, &commands)
        case .emptyLine:
            trimTrailingSpace()
            output.append(contentsOf: newlineBytes)
            brokeLine = true
        case .concat(let parts, _):
            for part in parts.reversed() {
                commands.append(Command(indent: command.indent, mode: command.mode, doc: part))
            }
        case .indent(let inner, _):
            commands.append(Command(indent: command.indent + 1, mode: command.mode, doc: inner))
        case .group(let inner, let broken, _):
            var mode = Mode.broken
            if command.mode == .flat {
                mode = .flat
            } else if !broken && fits(Command(indent: command.indent, mode: .flat, doc: command.doc), rest: commands) {
                mode = .flat
            }
            commands.append(Command(indent: command.indent, mode: mode, doc: inner))
        case .choice(let states, let hard, let strict):
            commands.append(choose(states, hard: hard, strict: strict, command, rest: commands))
        case .ifBreak(let broken, let flat):
            commands.append(
                Command(indent: command.indent, mode: command.mode, doc: command.mode == .flat ? flat : broken))
        case .lineSuffix(let text):
            if !suffixes.isEmpty {
                // Two line comments never share a line: the second would become part of the first.
                commands.append(command)
                breakLine(Command(indent: command.indent, mode: .broken, doc: .hardLine), &commands)
                return
            }
            suffixes.append(text)
        case .breakParent:
            break
        case .table, .whenLong, .shorterFirstLine:
            commands.append(Command(indent: command.indent, mode: command.mode, doc: chosen(command, rest: commands)))
        case .assigned(let value):
            assign(value, command, &commands)
        case .measuredIndent:
            break
        case .uncounted(let inner), .followsAlone(let inner):
            commands.append(Command(indent: command.indent, mode: command.mode, doc: inner))
        case .whenTableBreaks(let table, let narrow, let wide):
            let narrowed = breaksAlone(table, indent: command.indent + 1)
            commands.append(Command(indent: command.indent, mode: command.mode, doc: narrowed ? narrow : wide))
        }
    }

    /// Whether `table` breaks on a line of its own `indent` levels deep.
    private func breaksAlone(_ table: Doc, indent: Int) -> Bool {
        guard case .table(let flat, _, let sourceWidth, let forced, _) = table else { return false }
        let start = indent * indentColumns
        return forced || start + sourceWidth > tableWidth
            || !fits(Command(indent: indent, mode: .flat, doc: flat), rest: [], column: start, limit: tableWidth)
    }

    /// `doc` printed alone from the current column, as a trial. `trailing`: with the comment
    /// left at the end of its last line (StyLua measures a statement without it). The trial
    /// stops once it holds more than `bytes` bytes, or at its first line break with `firstLine`:
    /// what is measured is decided by then.
    private func rendered(
        _ doc: Doc, indent: Int, width: Int, trailing: Bool = true, bytes: Int = .max, firstLine: Bool = false
    ) -> [UInt8] {
        var trial = self
        trial.width = width
        trial.output = []
        trial.suffixes = []
        trial.brokeLine = false
        trial.column = column
        var commands = [Command(indent: indent, mode: .broken, doc: doc)]
        while let next = commands.popLast() {
            trial.step(next, &commands)
            if trial.output.count > bytes || (firstLine && trial.brokeLine) { return trial.output }
        }
        if trailing { trial.flushSuffixes() }
        return trial.output
    }

    private func firstLineWidth(_ bytes: [UInt8]) -> Int { bytes.firstIndex(of: 10) ?? bytes.count }

    /// The layout a table, `whenLong` or `shorterFirstLine` takes here.
    private func chosen(_ command: Command, rest: [Command]) -> Doc {
        switch command.doc {
        case .table(let flat, let broken, let sourceWidth, let forced, let flatBreaks):
            // StyLua reads the table's width in the source; a table kept flat by that reading
            // breaks when its contents would not fit flat, or would break inside for what follows
            // them on the line, so a second formatting (reading the new width) keeps it.
            let flatCommand = Command(indent: command.indent, mode: .flat, doc: flat)
            let isBroken =
                forced
                || (command.mode == .broken
                    && (column + sourceWidth > tableWidth
                        || !fits(flatCommand, rest: [], limit: tableWidth)
                        || (flatBreaks && !fits(flatCommand, rest: rest, limit: tableWidth))))
            return isBroken ? broken : flat
        case .whenLong(let probe, let short, let long):
            let room = width - column
            let length = rendered(probe, indent: command.indent, width: Int.max / 4, trailing: false, bytes: room).count
            return length > room ? long : short
        case .shorterFirstLine(let hung, let normal):
            let hungLine = firstLineWidth(rendered(hung, indent: command.indent, width: width, firstLine: true))
            let normalLine = firstLineWidth(rendered(normal, indent: command.indent, width: width, firstLine: true))
            return hungLine < normalLine ? hung : normal
        default:
            return command.doc
        }
    }

    private mutating func assign(_ value: Doc, _ command: Command, _ commands: inout [Command]) {
        let sameLine = Doc.concat([.space, value])
        if command.mode == .flat {
            commands.append(Command(indent: command.indent, mode: command.mode, doc: sameLine))
            return
        }
        if !value.isHard && fits(Command(indent: command.indent, mode: .flat, doc: sameLine), rest: commands) {
            commands.append(Command(indent: command.indent, mode: .flat, doc: sameLine))
            return
        }
        let nextLine = (command.indent + 1) * indentColumns
        if !value.isHard
            && fits(Command(indent: command.indent + 1, mode: .flat, doc: value), rest: commands, column: nextLine)
        {
            commands.append(Command(indent: command.indent + 1, mode: .flat, doc: value))
            commands.append(Command(indent: command.indent + 1, mode: .broken, doc: .hardLine))
            return
        }
        // StyLua hangs at the `=` when the value's first line, hugging what it can, does not fit.
        if !fits(
            Command(indent: command.indent, mode: .broken, doc: sameLine), rest: commands,
            hugging: true)
        {
            commands.append(Command(indent: command.indent + 1, mode: .broken, doc: value))
            commands.append(Command(indent: command.indent + 1, mode: .broken, doc: .hardLine))
            return
        }
        commands.append(Command(indent: command.indent, mode: .broken, doc: sameLine))
    }

    private func choose(_ states: [Doc], hard: Bool, strict: Bool, _ command: Command, rest: [Command]) -> Command {
        if command.mode == .flat && !hard { return Command(indent: command.indent, mode: .flat, doc: states[0]) }
        if !hard && fits(Command(indent: command.indent, mode: .flat, doc: states[0]), rest: rest) {
            return Command(indent: command.indent, mode: .flat, doc: states[0])
        }
        for state in states.dropLast() {
            let candidate = Command(indent: command.indent, mode: .broken, doc: state)
            if fits(candidate, rest: rest, flatGroups: strict) { return candidate }
        }
        return Command(indent: command.indent, mode: .broken, doc: states[states.count - 1])
    }

    mutating func breakLine(_ command: Command, _ commands: inout [Command]) {
        if !suffixes.isEmpty {
            commands.append(command)
            flushSuffixes()
            return
        }
        trimTrailingSpace()
        output.append(contentsOf: newlineBytes)
        brokeLine = true
        if indentBytes.count == 1 {
            output.append(contentsOf: repeatElement(indentBytes[0], count: command.indent))
        } else {
            for _ in 0..<command.indent { output.append(contentsOf: indentBytes) }
        }
        column = command.indent * indentColumns
    }

    mutating func flushSuffixes() {
        if !suffixes.isEmpty { trimTrailingSpace() }
        for suffix in suffixes {
            emit(suffix)
        }
        suffixes.removeAll()
    }

    /// Appends `string`'s bytes to the output.
    private mutating func emit(_ string: String) {
        var string = string
        string.withUTF8 { output.append(contentsOf: $0) }
    }

    private mutating func trimTrailingSpace() {
        while let last = output.last, last == 32 || last == 9 { output.removeLast() }
    }

    /// Whether the first line of `doc`, printed broken from the current column with the groups
    /// in it flat, fits: the test `choose` makes of a strict choice's first layout.
    func firstLineFits(_ doc: Doc, indent: Int) -> Bool {
        fits(Command(indent: indent, mode: .broken, doc: doc), rest: [], flatGroups: true)
    }

    /// Whether `next` (and what follows it up to the end of the line) fits in what is left of
    /// the line; groups inside are taken flat unless they must break.
    /// `hugging`: a choice is measured in its first layout (a call hugging its last argument).
    private func fits(
        _ next: Command, rest: [Command], column start: Int? = nil, limit: Int? = nil, flatGroups: Bool = false,
        hugging: Bool = false
    ) -> Bool {
        let limit = limit ?? width
        var remaining = limit - (start ?? column)
        var stack = stacks.take()
        defer { stacks.give(stack) }
        stack.append(next)
        var restIndex = rest.count
        var inRest = false
        while true {
            guard let command = stack.popLast() else {
                if restIndex == 0 { return true }
                restIndex -= 1
                inRest = true
                stack.append(rest[restIndex])
                continue
            }
            switch command.doc {
            case .text(_, let textWidth), .slice(_, _, let textWidth):
                remaining -= textWidth
                if remaining < 0 { return false }
            case .verbatim(_, let first, _):
                return remaining - first >= 0
            case .softLine:
                if command.mode == .broken { return true }
            case .line:
                if command.mode == .broken { return true }
                remaining -= 1
                if remaining < 0 { return false }
            case .hardLine, .emptyLine:
                return true
            case .concat(let parts, _):
                for part in parts.reversed() {
                    stack.append(Command(indent: command.indent, mode: command.mode, doc: part))
                }
            case .indent(let inner, _):
                stack.append(Command(indent: command.indent + 1, mode: command.mode, doc: inner))
            case .group(_, let broken, let flatWidth)
            where !broken && flatWidth >= 0 && (hugging ? limit == width : flatGroups || command.mode == .flat):
                // Flat here (hugging: when it fits by itself), measured by the width it keeps.
                guard remaining < flatWidth else {
                    remaining -= flatWidth
                    continue
                }
                if !hugging { return false }
                stack.append(Command(indent: command.indent, mode: .broken, doc: command.doc.groupContent))
            case .group, .choice:
                stack.append(measuredLayout(command, here: limit - remaining, flatGroups: flatGroups, hugging: hugging))
            case .ifBreak(let broken, let flat):
                stack.append(
                    Command(indent: command.indent, mode: command.mode, doc: command.mode == .flat ? flat : broken))
            case .lineSuffix, .breakParent, .uncounted:
                break
            case .table(let flat, _, let sourceWidth, let forced, _):
                // A table holding one that always breaks (`{ a = {` broken in the source), too wide for
                // its source width here, breaks the flat group around it, as a second formatting will.
                let here = limit - remaining
                if command.mode == .flat && !flatGroups && !forced && flat.isHard && here + sourceWidth > tableWidth {
                    return false
                }
                stack.append(measuredLayout(command, here: here, flatGroups: flatGroups, hugging: hugging))
            case .assigned(let value):
                stack.append(Command(indent: command.indent, mode: command.mode, doc: .concat([.space, value])))
            case .followsAlone(let inner):
                if !inRest { stack.append(Command(indent: command.indent, mode: command.mode, doc: inner)) }
            case .measuredIndent(let levels):
                remaining -= (command.indent + levels) * indentColumns
                if remaining < 0 { return false }
            case .whenLong(_, let inner, _), .shorterFirstLine(_, let inner):
                stack.append(Command(indent: command.indent, mode: command.mode, doc: inner))
            case .whenTableBreaks(let table, let narrow, let wide):
                let narrowed = breaksAlone(table, indent: command.indent + 1)
                stack.append(Command(indent: command.indent, mode: command.mode, doc: narrowed ? narrow : wide))
            }
        }
    }

    /// The layout `fits` measures for a group, choice or table. `hugging`: as StyLua's shapes,
    /// a group breaks only when it does not fit by itself, and a choice takes its first layout
    /// when that fits by itself or hugs a broken last argument.
    private func measuredLayout(_ command: Command, here: Int, flatGroups: Bool, hugging: Bool) -> Command {
        switch command.doc {
        case .group(let inner, let broken, _):
            var mode: Mode = broken ? .broken : (flatGroups ? .flat : command.mode)
            if hugging && !broken {
                mode =
                    fits(Command(indent: command.indent, mode: .flat, doc: inner), rest: [], column: here)
                    ? .flat : .broken
            }
            return Command(indent: command.indent, mode: mode, doc: inner)
        case .choice(let states, let hard, _):
            var mode: Mode = hard ? .broken : (flatGroups ? .flat : command.mode)
            var doc = mode == .broken ? states[states.count - 1] : states[0]
            if hugging
                && (hard || fits(Command(indent: command.indent, mode: .flat, doc: states[0]), rest: [], column: here))
            {
                doc = states[0]
                mode = hard ? .broken : .flat
            }
            return Command(indent: command.indent, mode: mode, doc: doc)
        case .table(let flat, let broken, let sourceWidth, let forced, _):
            let isBroken =
                forced
                || (!flatGroups && command.mode == .broken
                    && (here + sourceWidth > tableWidth
                        || !fits(
                            Command(indent: command.indent, mode: .flat, doc: flat), rest: [], column: here,
                            limit: tableWidth)))
            return Command(
                indent: command.indent, mode: flatGroups ? .flat : command.mode, doc: isBroken ? broken : flat)
        default:
            return command
        }
    }
}
