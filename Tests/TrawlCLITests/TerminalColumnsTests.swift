import Testing
@testable import TrawlCLI

/// Text cut to a terminal row: columns counted per scalar (wide letters two, marks none), escape
/// sequences free and kept.
@Suite struct TerminalColumnsTests {
    @Test func widthsOfScalars() {
        #expect(["a", "é", "ж", "\u{301}", "\u{200B}", "日", "한", "😀", "Ａ", "🚀", "🫠", "☕", "⭐", "✅", "\u{1B000}"]
            .map { TerminalColumns.width(of: $0) } == [1, 1, 1, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    }

    @Test func fittedCutsAtTheColumnsAndKeepsEscapes() {
        #expect(TerminalColumns.fitted("abcdef", columns: 4) == "abcd")
        #expect(TerminalColumns.fitted("abc", columns: 4) == "abc")
        // Escapes take no columns; one after the cut still ends the colour.
        #expect(TerminalColumns.fitted("\u{1B}[1;31mab\u{1B}[0mcdef\u{1B}[0m", columns: 3) == "\u{1B}[1;31mab\u{1B}[0mc\u{1B}[0m")
        // A wide letter that would straddle the edge is left out; marks stay with their letter.
        #expect(TerminalColumns.fitted("a日本", columns: 4) == "a日")
        #expect(TerminalColumns.fitted("e\u{301}e\u{301}e\u{301}", columns: 2) == "e\u{301}e\u{301}")
    }
}
