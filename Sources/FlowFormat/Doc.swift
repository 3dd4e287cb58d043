/// A layout to print: text, places where a line may break, and groups that break together
/// (Wadler's pretty printer as Prettier's printer does it). `DocPrinter` picks, group by
/// group, the flat layout when it fits in the column width and the broken one when not.
/// Only the cases that hold a `Doc` are boxed: text, concatenations and choices (most of a
/// file's nodes) are stored inline, so a token's text costs no allocation of its own.
enum Doc: Sendable {
    /// Text without line breaks, with its width in columns.
    case text(String, width: Int)
    /// Source text without line breaks (a token's): `length` bytes from byte `start` of the
    /// source the printer is given, `width` columns wide. No `String` is made for it.
    case slice(start: Int32, length: Int32, width: Int)
    /// Text with line breaks in it (a long string or comment, an ignored statement), printed as
    /// it is: `first` is the width of its first line, `last` of its last.
    indirect case verbatim(String, first: Int, last: Int)
    /// Nothing when flat, a line break when broken.
    case softLine
    /// A space when flat, a line break when broken.
    case line
    /// Always a line break; breaks every group around it.
    case hardLine
    /// A line break without the indentation (a blank line between statements).
    case emptyLine
    case concat([Doc], hard: Bool)
    /// One more level of indentation for the line breaks inside.
    indirect case indent(Doc, hard: Bool)
    /// Parts that are all flat or all broken; `broken` when it must break (a hard line inside,
    /// or the source's layout keeps it broken). `flatWidth`: its width printed flat, as the
    /// printer measures it, kept when it is built (see `Doc.measuredFlatWidth`), so measuring a
    /// group inside a group is constant time; -1 when the measure depends on where it is.
    indirect case group(Doc, broken: Bool, flatWidth: Int)
    /// Layouts tried in order: the first that fits flat or whose first line fits broken; else
    /// the last. `strict`: a layout's first line is measured with the groups in it flat.
    case choice([Doc], hard: Bool, strict: Bool)
    /// `broken` in a broken group, `flat` in a flat one.
    indirect case ifBreak(broken: Doc, flat: Doc)
    /// Text printed at the end of the line (a trailing comment), before the next line break.
    case lineSuffix(String)
    /// Breaks the groups around it without printing anything.
    case breakParent
    /// A table as StyLua lays it out: `broken` when `forced` (its source layout, comments,
    /// functions) or when its source width from the current column passes the column width;
    /// else `flat`, whose own inner tables still decide for themselves. `flatBreaks`: the flat
    /// layout holds something that breaks when the line does not fit (a call, a table).
    indirect case table(flat: Doc, broken: Doc, sourceWidth: Int, forced: Bool, flatBreaks: Bool)
    /// `narrow` when `table` (a `.table`) breaks on a line of its own one level deeper, else
    /// `wide`: a call's table argument hugs the parentheses only when it would break anyway
    /// (what StyLua gives when it formats its own output again).
    indirect case whenTableBreaks(table: Doc, narrow: Doc, wide: Doc)
    /// Printed, but not measured when a group decides whether it fits (the ` do` after a
    /// `for` header, which StyLua leaves out of its measure).
    indirect case uncounted(Doc)
    /// Printed and measured as its content, except when a group before it on the line decides
    /// whether it fits: StyLua measures each operand of a run laid out on one line alone.
    indirect case followsAlone(Doc)
    /// Nothing printed; when a group decides whether it fits, the indentation of a line
    /// `levels` deeper is counted (StyLua counts a hung operator's own indentation and line break
    /// when it measures whether the operator may join the line).
    case measuredIndent(Int)
    /// StyLua's test of a statement's values: `long` when `probe`, printed from the current
    /// column without a column limit (its line breaks and indentation counted as text), passes
    /// the column width; else `short`.
    indirect case whenLong(probe: Doc, short: Doc, long: Doc)
    /// `hung` when its first line, printed from here, is shorter than `normal`'s; else `normal`.
    indirect case shorterFirstLine(hung: Doc, normal: Doc)
    /// A value after `=`: on the same line when it fits there; on the next line, indented,
    /// when it fits flat there; else on the same line, broken inside.
    indirect case assigned(Doc)

    /// Whether the groups around this must break.
    var isHard: Bool {
        switch self {
        case .hardLine, .breakParent: return true
        case .concat(_, let hard), .indent(_, let hard), .choice(_, let hard, _): return hard
        case .group(_, let broken, _): return broken
        case .ifBreak(_, let flat): return flat.isHard
        case .table(_, _, _, let forced, _): return forced
        case .assigned(let value): return value.isHard
        case .whenLong(_, let short, _): return short.isHard
        case .uncounted(let inner), .followsAlone(let inner): return inner.isHard
        case .shorterFirstLine(_, let normal): return normal.isHard
        default: return false
        }
    }

    static let empty = Doc.concat([], hard: false)

    /// Whether printing this in a broken group may break a line (a group, a choice, a table
    /// inside): what a flat table's layout holds when its line does not fit.
    var canBreak: Bool {
        switch self {
        case .text, .slice, .verbatim, .emptyLine, .lineSuffix, .breakParent, .measuredIndent: return false
        case .concat(let parts, _): return parts.contains { $0.canBreak }
        case .indent(let inner, _), .uncounted(let inner), .followsAlone(let inner): return inner.canBreak
        case .ifBreak(let broken, let flat): return broken.canBreak || flat.canBreak
        default: return true
        }
    }

    /// Whether this is a concatenation of nothing (an empty block).
    var isEmptyConcat: Bool {
        if case .concat(let parts, _) = self { return parts.isEmpty }
        return false
    }
    static let space = Doc.text(" ", width: 1)

    /// Plain text; text with line breaks becomes `verbatim`.
    static func text(_ string: String) -> Doc {
        var width = 0
        var first = -1
        for byte in string.utf8 {
            if byte == 10 {
                if first < 0 { first = width }
                width = 0
            } else if byte & 0xC0 != 0x80 {
                width += 1
            }
        }
        if first >= 0 { return .verbatim(string, first: first, last: width) }
        return .text(string, width: width)
    }

    static func concat(_ parts: [Doc]) -> Doc {
        if parts.count == 1 { return parts[0] }
        return .concat(parts, hard: parts.contains { $0.isHard })
    }

    static func indent(_ doc: Doc) -> Doc { .indent(doc, hard: doc.isHard) }

    static func group(_ doc: Doc, forced: Bool = false) -> Doc { .group(doc, broken: forced || doc.isHard) }

    /// A group with its flat width measured.
    static func group(_ doc: Doc, broken: Bool) -> Doc {
        .group(doc, broken: broken, flatWidth: broken ? -1 : doc.measuredFlatWidth)
    }

    /// Layouts tried in order; hard when the first is.
    static func choice(_ states: [Doc], strict: Bool = false) -> Doc {
        .choice(states, hard: states[0].isHard, strict: strict)
    }

    /// `parts` with `separator` between each two.
    static func join(_ parts: [Doc], _ separator: Doc) -> Doc {
        if parts.count == 1 { return parts[0] }
        var all: [Doc] = []
        all.reserveCapacity(parts.count * 2)
        for (index, part) in parts.enumerated() {
            if index > 0 { all.append(separator) }
            all.append(part)
        }
        return concat(all)
    }
}
