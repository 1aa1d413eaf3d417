import TrawlMatch

/// What a ``LineSearcher`` hands the lines of a text to: ripgrep's `Sink`. A printer (plain lines,
/// JSON Lines) or a collector of results.
///
/// Ranges are byte offsets in the searched text; a line's range includes its line feed.
public protocol LineSink {
    /// Whether every match is wanted. When false (and no match can span lines), the rest of a
    /// line is not searched once it matched: each line then carries its first match only.
    var needsEveryMatch: Bool { get }
    /// Whether lines are numbered; when false, every line number given is 0.
    var needsLineNumbers: Bool { get }
    /// Whether the lines of a match that spans lines come as one block (as ripgrep's JSON writes
    /// it) rather than line by line.
    var takesBlocks: Bool { get }
    /// Before the first line of a text with a match.
    mutating func begin()
    /// Matched lines: one line, or a block of lines when ``takesBlocks``, with the matches that
    /// touch them (a match spanning lines is in each line it touches).
    mutating func matched(_ lines: Range<Int>, lineNumber: Int, matches: ArraySlice<Match>)
    /// A context line (around matched lines, as asked of the searcher).
    mutating func context(_ line: Range<Int>, lineNumber: Int)
    /// Between two groups of lines that are not adjacent, when context lines are asked for.
    mutating func contextBreak()
}
