import Testing
import TrawlFind
import TrawlMatch
import TrawlText

/// Where an empty match may follow a match, as VS Code's find decides it (its `Searcher.next`):
/// an empty match is found where a non-empty match ended, except at the end of the line (or of
/// the searched text, for a pattern matched across lines), so `.*` still finds each line once.
/// The `trawl` command keeps ripgrep's rule (never where a match ended). Each row was worked out
/// by hand from VS Code's loop: `exec` from the last match's end; an empty match equal to the last
/// one steps one character; stop once a match reached the end of the line's text.
@MainActor @Suite struct EditorEmptyMatchTests {
    struct Row: Sendable, CustomStringConvertible {
        var pattern: String
        var text: String
        var editor: [Range<Int>]
        /// The default rule's answer, `trawl find`'s (the single-line ones checked with `rg --json`);
        /// nil where it is not ripgrep's (see the row).
        var grepRule: [Range<Int>]?
        var description: String { "\(pattern) in \(text.debugDescription)" }
    }

    nonisolated static let table: [Row] = [
        // The issue's example: empty matches at columns 3, 7 and 10, none at the end.
        Row(pattern: #"\d*"#, text: "10.243.30.10",
            editor: [0..<2, 2..<2, 3..<6, 6..<6, 7..<9, 9..<9, 10..<12],
            grepRule: [0..<2, 3..<6, 7..<9, 10..<12]),
        Row(pattern: "[a-z]*", text: "ab1cd", editor: [0..<2, 2..<2, 3..<5], grepRule: [0..<2, 3..<5]),
        // After an empty match the search steps one character; the line's end stops it only
        // after a match that reached it.
        Row(pattern: #"\d*"#, text: "1.", editor: [0..<1, 1..<1, 2..<2], grepRule: [0..<1, 2..<2]),
        Row(pattern: "a*", text: "baaa", editor: [0..<0, 1..<4], grepRule: [0..<0, 1..<4]),
        // After an empty match no match starts at the same place: the lazy `x??` never takes an x.
        // (`rg` agrees here; the default rule retries at the same place and takes the x: left as is.)
        Row(pattern: "x??", text: "xx", editor: [0..<0, 1..<1, 2..<2], grepRule: nil),
        Row(pattern: #"a|(?<=a)\n??"#, text: "a\nb", editor: [0..<1, 1..<1], grepRule: nil),
        // `.*` finds each line once; the empty line after a final line break is a line (editor).
        Row(pattern: ".*", text: "abc\n", editor: [0..<3, 4..<4], grepRule: [0..<3, 4..<4]),
        Row(pattern: ".*", text: "ab\ncd", editor: [0..<2, 3..<5], grepRule: [0..<2, 3..<5]),
        // A CRLF ends a line as an LF does.
        Row(pattern: #"\d*"#, text: "12\r\n3.", editor: [0..<2, 4..<5, 5..<5, 6..<6], grepRule: [0..<2, 4..<5, 6..<6]),
        // Matched line by line as separate subjects (a `$` in the pattern).
        Row(pattern: #"\d*|$"#, text: "12.3\n45.", editor: [0..<2, 2..<2, 3..<4, 5..<7, 7..<7, 8..<8],
            grepRule: [0..<2, 3..<4, 5..<7, 8..<8]),
        // Matched across lines (a `\n` in the pattern): only the text's end stops it.
        Row(pattern: #"\n*"#, text: "a\n\nb", editor: [0..<0, 1..<3, 3..<3, 4..<4], grepRule: [0..<0, 1..<3, 4..<4]),
        Row(pattern: #"\n*"#, text: "a\r\n\r\nb", editor: [0..<0, 1..<5, 5..<5, 6..<6], grepRule: [0..<0, 1..<5, 6..<6]),
    ]

    @Test(arguments: EditorEmptyMatchTests.table)
    func theNavigatorFindsWhatVSCodeFinds(row: Row) {
        let navigator = FindNavigator(document: TextDocument(row.text))
        navigator.options = .regex
        navigator.query = row.pattern
        #expect(navigator.matches.ranges == row.editor)
    }

    /// The matcher's default, which `trawl find` uses, stays ripgrep's.
    @Test(arguments: EditorEmptyMatchTests.table.filter { $0.grepRule != nil })
    func theDefaultRuleStaysRipgreps(row: Row) throws {
        let matcher = try RegexMatcher(row.pattern)
        #expect(try matcher.matches(in: Rope(row.text)).map(\.range) == row.grepRule)
    }

    /// Find in selection: the selection's end is the end of the searched text.
    @Test func aScopesEndEndsTheSearchedText() {
        let navigator = FindNavigator(document: TextDocument("12.34.5"))
        navigator.options = .regex
        navigator.query = #"\d*"#
        navigator.restrict(to: [0..<5])
        #expect(navigator.matches.ranges == [0..<2, 2..<2, 3..<5])
    }
}
