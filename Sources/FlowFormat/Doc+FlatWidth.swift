extension Doc {
    /// The columns this takes printed flat, as `DocPrinter`'s `fits` counts them when it meets
    /// it in a flat group: each text's width, a space for each `line`, the first layout of a
    /// choice, a table's flat layout; a group inside adds its kept width. -1 when that count
    /// depends on where it is printed (a line break or long string ends the measure, a measured
    /// indentation, a table breaking alone, an operand measured alone, a table holding one that
    /// always breaks) or when something inside must break.
    var measuredFlatWidth: Int {
        switch self {
        case .text(_, let width), .slice(_, _, let width): return width
        case .softLine, .lineSuffix, .breakParent, .uncounted: return 0
        case .line: return 1
        case .verbatim, .hardLine, .emptyLine, .measuredIndent, .whenTableBreaks, .followsAlone: return -1
        case .concat(let parts, _):
            var total = 0
            for part in parts {
                let width = part.measuredFlatWidth
                if width < 0 { return -1 }
                total += width
            }
            return total
        case .indent(let inner, _): return inner.measuredFlatWidth
        case .group(_, let broken, let flatWidth): return broken ? -1 : flatWidth
        case .choice(let states, let hard, _): return hard ? -1 : states[0].measuredFlatWidth
        case .ifBreak(_, let flat): return flat.measuredFlatWidth
        case .table(let flat, _, _, let forced, _): return forced || flat.isHard ? -1 : flat.measuredFlatWidth
        case .assigned(let value):
            let width = value.measuredFlatWidth
            return width < 0 ? -1 : width + 1
        case .whenLong(_, let short, _): return short.measuredFlatWidth
        case .shorterFirstLine(_, let normal): return normal.measuredFlatWidth
        }
    }

    /// What a group holds (itself for any other case).
    var groupContent: Doc {
        if case .group(let inner, _, _) = self { return inner }
        return self
    }
}
