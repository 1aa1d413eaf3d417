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
            switch try Self.searchLine(holding: occurrence.lowerBound, lineEnd: lineEnd, reportedEnd: reported.upperBound, in: window) {
            case .found(let match): return match
            case .pastRange: window.reposition(to: window.range.upperBound + 1); return nil
            case .none: continue
            }
        }
        window.reposition(to: window.range.upperBound + 1)
        return nil
    }

    /// What searching one candidate line found.
    enum LineOutcome {
        case found(Match)
        /// No match on the line; the search goes on after it.
        case none
        /// The line starts past the reported range: nothing is moved.
        case pastRange
    }

    /// Searches the line holding `offset` (ending at `lineEnd`) from its start or the search
    /// position, whichever is later.
    static func searchLine(holding offset: Int, lineEnd: Int, reportedEnd: Int, in window: RegexWindow) throws(MatchError) -> LineOutcome {
        let lineStart = max(window.position, window.lineFeed(before: offset, notBefore: window.position) + 1)
        if lineStart > reportedEnd { return .pastRange }
        if lineStart > window.position { window.reposition(to: lineStart) }
        let initialEnd = min(lineEnd + 1 + lineSlack, window.position + RegexWindow.windowBytes)
        if let match = try window.nextMatch(startLimit: lineEnd, initialEnd: initialEnd, preferredEnd: initialEnd) { return .found(match) }
        window.reposition(to: lineEnd + 1)
        return .none
    }
}
