/// The range is one PCRE2 subject, but PCRE2 runs only on lines holding a prefilter candidate, as
/// ripgrep does: sound because the pattern cannot match a line feed, so each match lies within a
/// line that holds one of its required literals.
struct CandidateLinesStrategy: SubjectStrategy {
    let reported: Range<Int>
    /// The end of the line of the last candidate (several candidates often share a line).
    private var knownLineEnd = -1

    /// Bytes past a candidate line's end that the window also holds (`$` and `\b` look past it).
    static let lineSlack = 16

    init(reported: Range<Int>) { self.reported = reported }

    mutating func next(in window: RegexWindow) throws(MatchError) -> Match? {
        let scanner = window.scanner!
        while window.position <= window.range.upperBound {
            try window.checkCancellation(every: 256)
            guard let occurrence = try scanner.next(from: window.position) else { break }
            let lineEnd = occurrence.lowerBound < knownLineEnd ? knownLineEnd : window.lineFeed(after: occurrence.lowerBound)
            knownLineEnd = lineEnd
            let lineStart = max(window.position, window.lineFeed(before: occurrence.lowerBound, notBefore: window.position) + 1)
            if lineStart > reported.upperBound { break }
            if lineStart > window.position { window.reposition(to: lineStart) }
            let initialEnd = min(lineEnd + 1 + CandidateLinesStrategy.lineSlack, window.position + RegexWindow.windowBytes)
            if let match = try window.nextMatch(startLimit: lineEnd, initialEnd: initialEnd, preferredEnd: initialEnd) { return match }
            window.reposition(to: lineEnd + 1)
        }
        window.reposition(to: window.range.upperBound + 1)
        return nil
    }
}
