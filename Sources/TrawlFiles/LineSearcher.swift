import TrawlMatch
import TrawlText

/// Finds the lines of a text that hold matches, with context lines around them, and hands them to
/// a ``LineSink`` in order: the line-oriented search of `trawl find`, for any printer or
/// collector.
///
/// Time is linear in the text searched plus the lines handed over, however long the lines: each
/// match is looked at once per line it touches, and line ends are found once.
public struct LineSearcher: Sendable {
    /// Lines of context before each group of matched lines (`-B`).
    public var linesBefore = 0
    /// Lines of context after each group of matched lines (`-A`).
    public var linesAfter = 0

    /// A searcher giving `linesBefore` and `linesAfter` lines of context around matched lines.
    public init(linesBefore: Int = 0, linesAfter: Int = 0) {
        self.linesBefore = linesBefore
        self.linesAfter = linesAfter
    }

    /// What a search of a text found.
    public struct Tally: Sendable, Equatable {
        /// Matches found (with a sink that does not need every match: one a line).
        public var matches = 0
        /// Lines holding a match.
        public var matchedLines = 0

        /// A tally of `matches` matches on `matchedLines` lines.
        public init(matches: Int = 0, matchedLines: Int = 0) {
            self.matches = matches
            self.matchedLines = matchedLines
        }
    }

    /// Searches `text` (whose bytes are `bytes`) with `matcher` and hands the lines to `sink`.
    public func search(_ text: ContiguousText, bytes: UnsafeBufferPointer<UInt8>, matcher: any Matcher,
                       into sink: inout some LineSink) throws(MatchError) -> Tally {
        var lines = LineLocator(bytes)
        var cursor = matcher.cursor(over: text)
        let canMatchAcrossLines = matcher.canMatchAcrossLines
        let numbered = sink.needsLineNumbers
        let blocks = sink.takesBlocks
        let hasContext = linesBefore > 0 || linesAfter > 0
        var tally = Tally()
        var printedUpTo = 0        // offset past the last line handed over
        var printedAny = false
        var afterLimit = 0         // after-context may reach up to here
        var pending = try cursor.next()
        var started = false
        let oneMatchPerLine = !sink.needsEveryMatch && !canMatchAcrossLines

        func emitContext(from start: Int, to end: Int) {
            var offset = start
            while offset < end {
                let lineEnd = lines.lineEnd(offset)
                sink.context(offset..<lineEnd, lineNumber: numbered ? lines.lineNumber(offset) : 0)
                offset = lineEnd
            }
            printedUpTo = max(printedUpTo, end)
        }

        while let first = pending {
            // A block: the lines of one match, extended by every match that starts within them.
            let blockStart = lines.lineStart(first.range.lowerBound)
            var blockEnd = lines.lineEnd(LineSearcher.lastPosition(of: first))
            // The end of the block's first line, known already when no match spans lines (a long
            // line is then scanned for its end once, not twice).
            let firstLineEnd = canMatchAcrossLines ? nil : blockEnd
            var blockMatches = [first]
            if oneMatchPerLine && blockEnd > first.range.upperBound { cursor.skip(to: blockEnd) }
            pending = try cursor.next()
            while let next = pending, next.range.lowerBound < blockEnd || (next.range.lowerBound == bytes.count && blockEnd == bytes.count) {
                blockMatches.append(next)
                let last = LineSearcher.lastPosition(of: next)
                if last >= blockEnd { blockEnd = lines.lineEnd(last) }
                pending = try cursor.next()
            }
            if !started {
                started = true
                sink.begin()
            }
            // Trailing context of the previous block, then the break and leading context.
            if afterLimit > printedUpTo { emitContext(from: printedUpTo, to: min(afterLimit, blockStart)) }
            var contextStart = blockStart
            var before = linesBefore
            while before > 0 && contextStart > printedUpTo && contextStart > 0 {
                contextStart = lines.lineStart(contextStart - 1)
                before -= 1
            }
            contextStart = max(contextStart, printedUpTo)
            if printedAny && hasContext && contextStart > printedUpTo { sink.contextBreak() }
            emitContext(from: contextStart, to: blockStart)
            if blocks {
                sink.matched(blockStart..<blockEnd, lineNumber: numbered ? lines.lineNumber(blockStart) : 0, matches: blockMatches[...])
                var offset = blockStart
                repeat {
                    tally.matchedLines += 1
                    offset = lines.lineEnd(offset)
                } while offset < blockEnd
            } else {
                var offset = blockStart
                var firstRelevant = 0
                repeat {
                    let lineEnd = offset == blockStart ? firstLineEnd ?? lines.lineEnd(offset) : lines.lineEnd(offset)
                    // Matches wholly before this line are done with; the rest start at `firstRelevant`.
                    while firstRelevant < blockMatches.count && blockMatches[firstRelevant].range.upperBound <= offset
                            && !blockMatches[firstRelevant].range.isEmpty {
                        firstRelevant += 1
                    }
                    var lastRelevant = firstRelevant
                    while lastRelevant < blockMatches.count && blockMatches[lastRelevant].range.lowerBound < lineEnd { lastRelevant += 1 }
                    sink.matched(offset..<lineEnd, lineNumber: numbered ? lines.lineNumber(offset) : 0,
                                 matches: blockMatches[firstRelevant..<lastRelevant])
                    tally.matchedLines += 1
                    offset = lineEnd
                } while offset < blockEnd
            }
            tally.matches += blockMatches.count
            printedUpTo = blockEnd
            printedAny = true
            var limit = blockEnd
            var after = linesAfter
            while after > 0 && limit < bytes.count {
                limit = lines.lineEnd(limit)
                after -= 1
            }
            afterLimit = limit
        }
        if afterLimit > printedUpTo { emitContext(from: printedUpTo, to: afterLimit) }
        return tally
    }

    /// The offset whose line is the last line a match touches (its last byte, or its position when empty).
    static func lastPosition(of match: Match) -> Int { max(match.range.upperBound - 1, match.range.lowerBound) }
}
