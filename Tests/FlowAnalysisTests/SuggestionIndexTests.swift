import Testing

@testable import FlowAnalysis

/// "Did you mean" over a `.luacheckrc` of 500,000 globals with 200 misspelt reads (issue 43,
/// left from round 2): the names are indexed once, and a one-edit typo is answered from the
/// index, exactly, without spending the scan's budget. Counted, never timed.
@Suite struct SuggestionIndexTests {
    static let names = (0..<500_000).map { "name_" + String(1_000_000 + $0).dropFirst() }

    @Test func typosAmongHalfAMillionNamesAreAnsweredFromTheIndex() {
        var suggestions = Suggestions(Self.names)
        let budget = suggestions.remainingComparisons
        for read in 0..<200 {
            let number = String(String(1_000_000 + read * 2_111).dropFirst())
            // A transposition, a deletion, an insertion and a replacement, in turn.
            let typo: String
            switch read % 4 {
            case 0: typo = "nmae_" + number
            case 1: typo = "nam_" + number
            case 2: typo = "namee_" + number
            default: typo = "nane_" + number
            }
            #expect(suggestions.closest(to: typo) == "name_" + number, "\(typo)")
        }
        // No candidate was compared one by one: the index answered every read, and the names
        // were never grouped by length for a scan (making that took a debug build 1.5 s).
        #expect(suggestions.remainingComparisons == budget)
        #expect(!suggestions.hasScanned)
    }

    @Test func theIndexAnswersAsTheScanWouldOnSmallSets() {
        var small = Suggestions(["print", "pairs", "require", "Print", "ipairs"])
        #expect(small.closest(to: "pirnt") == "Print")  // Print and print both one edit: alphabetical
        #expect(small.closest(to: "PRINT") == "Print")  // the same name lowered: distance 0
        #expect(small.closest(to: "pairs") == "ipairs")  // the word itself is never its suggestion
        #expect(small.closest(to: "requre") == "require")
        // Two edits away: the scan finds it.
        #expect(small.closest(to: "reqiure2") == "require")
        #expect(small.closest(to: "zzzzzz") == nil)
        #expect(small.hasScanned)
    }

    /// Names differing only in case, and names with bytes beyond ASCII, lower as before.
    @Test func loweredNamesKeepEveryOriginal() {
        var names = Suggestions(["Value", "value", "VALUE", "Über"])
        #expect(names.closest(to: "value") == "VALUE")  // the word itself is never its suggestion
        #expect(names.closest(to: "valeu") == "VALUE")
        #expect(names.closest(to: "über") == "Über")
        #expect(!names.hasScanned)
    }
}
