/// Every line, without its LF or CRLF, is a PCRE2 subject of its own, as in VS Code and ripgrep:
/// for patterns that do not ask for line breaks. With a prefilter, lines without a candidate are
/// skipped.
struct LineSubjectsStrategy: SubjectStrategy {
    let reported: Range<Int>
    private var hasSubject = false
    private var nextLineStart: Int

    init(window: RegexWindow, reported: Range<Int>) {
        self.reported = reported
        // Searching from inside a line: line subjects start at that line's start.
        nextLineStart = reported.lowerBound > window.range.lowerBound
            ? window.lineFeed(before: reported.lowerBound, notBefore: window.range.lowerBound) + 1
            : window.range.lowerBound
    }

    mutating func next(in window: RegexWindow) throws(MatchError) -> Match? {
        while true {
            if hasSubject && window.position <= window.subject.upperBound, window.position > window.subject.lowerBound,
               let scanner = window.scanner {
                // After a match: a further match in this line would contain another occurrence.
                if try scanner.next(from: window.position).map({ $0.upperBound > window.subject.upperBound }) ?? true {
                    hasSubject = false
                }
            }
            if hasSubject && window.position <= window.subject.upperBound {
                if let match = try window.nextMatch(startLimit: nil) { return match }
            }
            // Move to the next line (the next one holding a candidate, with a prefilter), or to the
            // line of a position the cursor was told to skip to.
            if window.position > nextLineStart, window.position <= window.range.upperBound {
                nextLineStart = window.lineFeed(before: window.position, notBefore: nextLineStart) + 1
            }
            guard nextLineStart <= window.range.upperBound, nextLineStart <= reported.upperBound else { return nil }
            try window.checkCancellation(every: 256)
            var lineStart = nextLineStart
            if let scanner = window.scanner {
                guard let occurrence = try scanner.next(from: lineStart) else {
                    nextLineStart = window.range.upperBound + 1
                    return nil
                }
                lineStart = window.lineFeed(before: occurrence.lowerBound, notBefore: lineStart) + 1
            }
            let lineEnd = window.lineFeed(after: lineStart)
            let contentEnd = window.contentEnd(lineStart: lineStart, lineFeed: lineEnd)
            guard lineStart <= reported.upperBound else { return nil }
            window.subject = lineStart..<contentEnd
            hasSubject = true
            nextLineStart = lineEnd + 1
            window.reposition(to: max(lineStart, window.position))
            window.invalidate()
        }
    }
}
