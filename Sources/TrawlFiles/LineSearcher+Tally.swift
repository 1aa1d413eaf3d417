import TrawlMatch
import TrawlText
import TrawlConcurrency

extension LineSearcher {
    /// What a tally counts (`--count-matches`, `-c`, `-l`).
    public enum Count: Sendable {
        /// Every match.
        case matches
        /// Lines holding a match.
        case matchedLines
        /// Whether there is a match: the search stops at the first.
        case anyMatch
    }

    /// Whether a file's content can be tallied by ``tally(of:in:counting:blockBytes:)`` while it
    /// is checked: when every match, and all it depends on, lies in one line (then a search of
    /// each block of lines alone finds exactly the matches of a search of the whole text).
    public static func canTallyWhileChecking(_ matcher: any Matcher) -> Bool { matcher.locality.isLineBounded }

    /// The tally of a file whose text is not checked yet (a large mapped file), taken block by
    /// block as each block is checked: one pass over memory instead of two. Or why the file cannot
    /// be searched, exactly as a check first would have said. Only when
    /// ``canTallyWhileChecking(_:)``.
    public static func tally(of matcher: any Matcher, in content: FileContent, counting count: Count,
                             blockBytes: Int = FileContent.checkBlockBytes) -> Result<Result<Tally, MatchError>, FileSkip> {
        let text = content.text
        // (For anyMatch, blocks after a match are still searched: a file with a bad byte is
        // skipped, matches or not, as when it is checked first.)
        return content.inCheckedBlocks(blockBytes: blockBytes) { block in
            text.withBytes { bytes in
                // Each block is its own context: the matcher reads nothing outside it, and a
                // line-bounded match needs nothing outside its line.
                Result { () throws(MatchError) in try tally(of: matcher, in: text, bytes: bytes, range: block, context: block, counting: count) }
            }
        }.map { blocks in
            Result { () throws(MatchError) in
                var total = Tally()
                for block in blocks {
                    let tally = try block.get()
                    total.matches += tally.matches
                    total.matchedLines += tally.matchedLines
                }
                // For anyMatch, a block stops at its first match and the file has one.
                if count == .anyMatch { total.matches = min(total.matches, 1) }
                return total
            }
        }
    }

    /// The matches and the matched lines of `text` (for `anyMatch`, whether there is one). A
    /// large text whose matches cannot span lines is counted in parts cut at line starts, each
    /// with the whole text as context: by the matcher's contract every match is then found once.
    public static func tally(of matcher: any Matcher, in text: ContiguousText, bytes: UnsafeBufferPointer<UInt8>,
                             counting count: Count) throws(MatchError) -> Tally {
        let whole = 0..<bytes.count
        // (anyMatch stops at the first match: searched in order, a match near the start ends it.)
        guard count != .anyMatch, bytes.count >= partedWorkThreshold, !matcher.canMatchAcrossLines else {
            return try tally(of: matcher, in: text, bytes: bytes, range: whole, context: whole, counting: count)
        }
        let lines = LineLocator(bytes)
        let tallies = inParts(of: bytes.count, boundary: { lines.lineEnd($0 - 1) }) { range in
            text.withBytes { bytes in
                Result { () throws(MatchError) in
                    try tally(of: matcher, in: text, bytes: bytes, range: range, context: 0..<bytes.count, counting: count)
                }
            }
        }
        var total = Tally()
        for tally in tallies {
            let tally = try tally.get()
            total.matches += tally.matches
            total.matchedLines += tally.matchedLines
        }
        return total
    }

    /// The matches and matched lines starting in `range` of `text`, searched within `context`;
    /// stops at the first match for `anyMatch`.
    private static func tally(of matcher: any Matcher, in text: ContiguousText, bytes: UnsafeBufferPointer<UInt8>,
                              range: Range<Int>, context: Range<Int>, counting count: Count) throws(MatchError) -> Tally {
        var lines = LineLocator(bytes)
        var cursor = matcher.cursor(over: text, in: range, context: context)
        var tally = Tally()
        if count == .anyMatch {
            if try cursor.next() != nil { tally.matches = 1 }
            return tally
        }
        var lastCountedLine = 0
        let spansLines = matcher.canMatchAcrossLines
        while let match = try cursor.next() {
            // An empty match at the end of a part that is not the text's belongs to the next part.
            if match.range.lowerBound == range.upperBound && range.upperBound < bytes.count { break }
            tally.matches += 1
            guard count == .matchedLines else { continue }
            if !spansLines {
                // One line per match, the rest of its line skipped: no line numbers needed, so the
                // text is not scanned for line feeds up to each match.
                tally.matchedLines += 1
            } else {
                let firstLine = lines.lineNumber(match.range.lowerBound)
                let lastLine = lines.lineNumber(lastPosition(of: match))
                tally.matchedLines += max(0, lastLine - max(firstLine, lastCountedLine + 1) + 1)
                lastCountedLine = max(lastCountedLine, lastLine)
            }
            // Further matches on a counted line do not change the count: skip them.
            let lineEnd = lines.lineEnd(lastPosition(of: match))
            if lineEnd > match.range.upperBound { cursor.skip(to: lineEnd) }
        }
        return tally
    }
}
