/// Line-by-line semantics computed with whole-text searches: a match that lies within one line's
/// content is exactly what line-by-line matching finds (for patterns without subject assertions);
/// a match touching a line break is redone on its line alone. Used when PCRE2 finds candidates
/// faster than a prefilter would (a pattern with a known first code unit, which PCRE2's JIT finds
/// with its own SIMD search).
struct CheckingLinesStrategy: SubjectStrategy {
    let reported: Range<Int>

    mutating func next(in window: RegexWindow) throws(MatchError) -> Match? {
        while true {
            window.subject = window.range
            guard let match = try window.nextMatch(startLimit: reported.upperBound) else { return nil }
            if staysWithinLineContent(match.range, window) { return match }
            // Redo the line where the match starts, as its own subject, from where the search was.
            let searchedFrom = window.previousPosition
            let lineStart = max(searchedFrom, window.lineFeed(before: match.range.lowerBound, notBefore: searchedFrom) + 1)
            let lineEnd = window.lineFeed(after: match.range.lowerBound)
            let contentEnd = window.contentEnd(lineStart: lineStart, lineFeed: lineEnd)
            let lineContentStart = min(window.lineFeed(before: lineStart, notBefore: window.range.lowerBound) + 1, lineStart)
            window.subject = lineContentStart..<max(contentEnd, lineContentStart)
            let notEmptyAtStart = window.previousNotEmpty && lineStart == searchedFrom
            window.reposition(to: lineStart)
            window.notEmptyAtStart = notEmptyAtStart
            window.invalidate()
            if lineStart <= window.subject.upperBound,
               let inLine = try window.nextMatch(startLimit: nil, initialEnd: window.subject.upperBound, preferredEnd: window.subject.upperBound) {
                window.subject = window.range
                window.invalidate()
                return inLine
            }
            window.subject = window.range
            window.invalidate()
            window.reposition(to: lineEnd + 1)
            if window.position > window.range.upperBound { return nil }
        }
    }

    /// Whether a whole-text match is one that line-by-line matching could give: no line break in
    /// it, and not an empty match between a CR and its LF.
    private func staysWithinLineContent(_ match: Range<Int>, _ window: RegexWindow) -> Bool {
        if match.isEmpty {
            guard match.lowerBound > window.range.lowerBound, match.lowerBound < window.range.upperBound else { return true }
            return !(window.byte(at: match.lowerBound - 1) == 0x0D && window.byte(at: match.lowerBound) == 0x0A)
        }
        return window.withBytes(in: match) { bytes in !bytes.contains(0x0A) && !bytes.contains(0x0D) }
    }
}
