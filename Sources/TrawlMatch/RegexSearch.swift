import CPCRE2
import TrawlKernels
import TrawlText

/// Successive PCRE2 matches in a range of chunked text, identical to matching the range as one
/// contiguous subject.
///
/// How chunk boundaries are handled (the choice DESIGN.md leaves open): PCRE2 runs on a contiguous
/// *window* — the text itself when it is contiguous, otherwise a copy of a stretch of chunks — that
/// starts a few characters before the search position (enough for the pattern's longest lookbehind,
/// `\b` and `^`). Unless the window reaches the end of the range, matching uses
/// `PCRE2_PARTIAL_HARD`, which reports whenever more text could change the result (including `$`,
/// `\b` and `\z` at the window's end); the window then grows and the attempt is repeated, so no match
/// is cut or missed at a window edge.
///
/// With a prefilter (patterns that cannot match a line feed and contain a required literal), PCRE2
/// only runs on lines where the literal scanner found a candidate, as ripgrep does.
///
/// Patterns that do not ask for line breaks are matched line by line (``Mode/lineSubjects``): each
/// line, without its LF or CRLF, is a subject of its own, as in VS Code and ripgrep.
final class RegexSearch {
    /// How the range is cut into PCRE2 subjects.
    enum Mode {
        /// The range is one subject.
        case wholeText
        /// The range is one subject, but PCRE2 only runs on lines holding a prefilter candidate
        /// (the pattern cannot match a line feed, so each match lies within a line).
        case candidateLines
        /// Every line (without its line break) is its own subject; with a prefilter, lines without
        /// a candidate are skipped.
        case lineSubjects
        /// Line-by-line semantics computed with whole-text searches: a match that lies within one
        /// line's content is exactly what line-by-line matching finds (for patterns without subject
        /// assertions); a match touching a line break is redone on its line alone. Used when PCRE2
        /// finds candidates faster than a prefilter would (a known first code unit).
        case wholeTextCheckingLines
    }

    let state: RegexMatchState
    let text: any SearchableText
    /// The text as PCRE2 sees it (the context of a search in a range).
    let range: Range<Int>
    /// Where reported matches start (see ``Matcher/cursor(over:in:context:)``).
    let reported: Range<Int>
    @exclusivity(unchecked) private var finished = false
    let mode: Mode
    /// The current subject: the range, or the current line in ``Mode/lineSubjects``.
    @exclusivity(unchecked) private var subject: Range<Int>
    /// The mode in use (``Mode/wholeTextCheckingLines`` switches to line subjects for one line).
    @exclusivity(unchecked) private var lineMode: Mode
    @exclusivity(unchecked) private var hasSubject: Bool
    @exclusivity(unchecked) private var nextLineStart: Int
    private let contextBytes: Int
    private let scanner: LiteralScanner?
    private let contiguous: TextChunk?

    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>?
    @exclusivity(unchecked) private var capacity = 0
    @exclusivity(unchecked) private var windowBase: UnsafePointer<UInt8>?
    @exclusivity(unchecked) private var windowStart = 0
    @exclusivity(unchecked) private var windowEnd = -1

    /// Where the next search starts, and whether an empty match was just found there.
    @exclusivity(unchecked) private(set) var position: Int
    @exclusivity(unchecked) private var notEmptyAtStart = false
    @exclusivity(unchecked) private var knownLineEnd = -1
    @exclusivity(unchecked) private var steps = 0
    /// Whether matches carry their groups (see ``MatchCursor/capturesGroups``).
    var capturesGroups = false

    static let windowBytes = 128 * 1024
    /// How much text past the search position a reused window must still hold.
    static let minimumLookahead = 4096
    static let lineSlack = 16

    init(regex: CompiledRegex, limits: RegexLimits, text: any SearchableText, range: Range<Int>, reporting reported: Range<Int>,
         mode: Mode, prefilter: PrefilterSet?) {
        precondition(mode != .candidateLines || prefilter != nil)
        state = RegexMatchState(regex: regex, limits: limits)
        self.text = text
        self.range = range
        self.reported = reported
        self.mode = mode
        subject = range
        hasSubject = mode != .lineSubjects
        lineMode = mode
        nextLineStart = range.lowerBound
        position = reported.lowerBound
        contextBytes = (regex.maxLookbehind + 2) * 4
        scanner = prefilter.map { LiteralScanner(literals: $0.literals, text: text, range: range) }
        if text.withContiguousStorageIfAvailable({ _ in true }) == true {
            var whole = text.chunks(forwardIn: 0..<text.utf8Count)
            contiguous = whole.next()
        } else {
            contiguous = nil
        }
        // Searching from inside a line: line subjects start at that line's start.
        if reported.lowerBound > range.lowerBound {
            nextLineStart = lineFeed(before: reported.lowerBound, notBefore: range.lowerBound) + 1
        }
    }

    deinit { buffer?.deallocate() }

    /// Continues the search from `offset` (a scalar boundary), as after a rejected match.
    func reposition(to offset: Int) {
        position = offset
        notEmptyAtStart = false
    }

    func next() throws(MatchError) -> Match? {
        guard !finished else { return nil }
        let match: Match?
        switch mode {
        case .wholeText:
            match = try nextMatch(startLimit: reported.upperBound, initialEnd: position + RegexSearch.minimumLookahead,
                                  preferredEnd: position + RegexSearch.windowBytes)
        case .candidateLines:
            match = try nextOnCandidateLines()
        case .lineSubjects:
            match = try nextInLineSubjects()
        case .wholeTextCheckingLines:
            match = try nextCheckingLines()
        }
        // Only matches that start in the reported range (the one at the very end of the text
        // belongs to the range that ends there).
        guard let match, match.range.lowerBound < reported.upperBound
                || (match.range.lowerBound == reported.upperBound && reported.upperBound == range.upperBound) else {
            finished = true
            return nil
        }
        return match
    }

    private func nextCheckingLines() throws(MatchError) -> Match? {
        while true {
            subject = range
            guard let match = try nextMatch(startLimit: reported.upperBound, initialEnd: position + RegexSearch.minimumLookahead,
                                            preferredEnd: position + RegexSearch.windowBytes) else { return nil }
            if staysWithinLineContent(match.range) { return match }
            // Redo the line where the match starts, as its own subject, from where the search was.
            let searchedFrom = previousPosition
            let lineStart = max(searchedFrom, lineFeed(before: match.range.lowerBound, notBefore: searchedFrom) + 1)
            let lineEnd = lineFeed(after: match.range.lowerBound)
            let contentEnd = LineBreaks.contentEnd(lineStart: lineStart, lineFeed: lineEnd, textEnd: range.upperBound, byte: byte(at:))
            var lineContentStart = lineFeed(before: lineStart, notBefore: range.lowerBound) + 1
            lineContentStart = min(lineContentStart, lineStart)
            subject = lineContentStart..<max(contentEnd, lineContentStart)
            reposition(to: lineStart)
            notEmptyAtStart = previousNotEmpty && lineStart == searchedFrom
            windowEnd = -1
            if lineStart <= subject.upperBound, let inLine = try nextMatch(startLimit: nil, initialEnd: subject.upperBound,
                                                                          preferredEnd: subject.upperBound) {
                subject = range
                windowEnd = -1
                return inLine
            }
            subject = range
            windowEnd = -1
            reposition(to: lineEnd + 1)
            if position > range.upperBound { return nil }
        }
    }

    /// Whether a whole-text match is one that line-by-line matching could give: no line break in
    /// it, and not an empty match between a CR and its LF.
    private func staysWithinLineContent(_ match: Range<Int>) -> Bool {
        if match.isEmpty {
            guard match.lowerBound > range.lowerBound, match.lowerBound < range.upperBound else { return true }
            return !(byte(at: match.lowerBound - 1) == 0x0D && byte(at: match.lowerBound) == 0x0A)
        }
        return withBytes(in: match) { bytes in !bytes.contains(0x0A) && !bytes.contains(0x0D) }
    }

    private func nextInLineSubjects() throws(MatchError) -> Match? {
        while true {
            if hasSubject && position <= subject.upperBound, position > subject.lowerBound, let scanner {
                // After a match: a further match in this line would contain another occurrence.
                if try scanner.next(from: position).map({ $0.upperBound > subject.upperBound }) ?? true {
                    hasSubject = false
                }
            }
            if hasSubject && position <= subject.upperBound {
                if let match = try nextMatch(startLimit: nil, initialEnd: position + RegexSearch.minimumLookahead,
                                             preferredEnd: position + RegexSearch.windowBytes) {
                    return match
                }
            }
            // Move to the next line (the next one holding a candidate, with a prefilter).
            guard nextLineStart <= range.upperBound, nextLineStart <= reported.upperBound else { return nil }
            steps += 1
            if steps & 255 == 0 && Task.isCancelled { throw .cancelled }
            var lineStart = nextLineStart
            if scanner != nil {
                guard let occurrence = try scanner!.next(from: lineStart) else {
                    nextLineStart = range.upperBound + 1
                    return nil
                }
                lineStart = lineFeed(before: occurrence.lowerBound, notBefore: lineStart) + 1
            }
            let lineEnd = lineFeed(after: lineStart)
            let contentEnd = LineBreaks.contentEnd(lineStart: lineStart, lineFeed: lineEnd, textEnd: range.upperBound, byte: byte(at:))
            guard lineStart <= reported.upperBound else { return nil }
            subject = lineStart..<contentEnd
            hasSubject = true
            nextLineStart = lineEnd + 1
            reposition(to: max(lineStart, reported.lowerBound))
            windowEnd = -1
        }
    }

    private func nextOnCandidateLines() throws(MatchError) -> Match? {
        // `subject` is the whole range here; lines only decide where PCRE2 runs.
        while position <= range.upperBound {
            steps += 1
            if steps & 255 == 0 && Task.isCancelled { throw .cancelled }
            guard let occurrence = try scanner!.next(from: position) else { break }
            let lineEnd = occurrence.lowerBound < knownLineEnd ? knownLineEnd : lineFeed(after: occurrence.lowerBound)
            knownLineEnd = lineEnd
            let lineStart = max(position, lineFeed(before: occurrence.lowerBound, notBefore: position) + 1)
            if lineStart > reported.upperBound { break }
            if lineStart > position { reposition(to: lineStart) }
            let initialEnd = min(lineEnd + 1 + RegexSearch.lineSlack, position + RegexSearch.windowBytes)
            if let match = try nextMatch(startLimit: lineEnd, initialEnd: initialEnd, preferredEnd: initialEnd) { return match }
            reposition(to: lineEnd + 1)
        }
        position = range.upperBound + 1
        return nil
    }

    /// The prefilter's current chunk, when it holds all of `wanted`: candidate lines are usually
    /// found, bounded and matched inside it without copying or seeking.
    private func heldChunk(covering wanted: Range<Int>) -> (offset: Int, bytes: UnsafeBufferPointer<UInt8>)? {
        guard let scanner else { return nil }
        let bytes = scanner.chunkBytes, offset = scanner.chunkOffset
        guard bytes.baseAddress != nil, offset <= wanted.lowerBound, wanted.upperBound <= offset + bytes.count else { return nil }
        return (offset, bytes)
    }

    private func byte(at offset: Int) -> UInt8 {
        if let chunk = heldChunk(covering: offset..<(offset + 1)) { return chunk.bytes[offset - chunk.offset] }
        return text.byte(at: offset)
    }

    /// The offset of the first line feed at or after `offset`, or the end of the range.
    private func lineFeed(after offset: Int) -> Int {
        var from = offset
        if let chunk = heldChunk(covering: offset..<offset) {
            let local = offset - chunk.offset
            let found = trawl_find_byte(chunk.bytes.baseAddress! + local, chunk.bytes.count - local, 0x0A)
            if local + found < chunk.bytes.count { return offset + found }
            from = chunk.offset + chunk.bytes.count
        }
        var chunks = text.chunks(forwardIn: from..<range.upperBound)
        while let chunk = chunks.next() {
            let found = trawl_find_byte(chunk.bytes.baseAddress!, chunk.bytes.count, 0x0A)
            if found < chunk.bytes.count { return chunk.offset + found }
        }
        return range.upperBound
    }

    /// The offset of the last line feed before `offset` and not before `floor`, or `floor - 1`.
    private func lineFeed(before offset: Int, notBefore floor: Int) -> Int {
        var upTo = offset
        if let chunk = heldChunk(covering: offset..<offset) {
            let low = max(floor, chunk.offset)
            let found = trawl_find_last_byte(chunk.bytes.baseAddress! + (low - chunk.offset), offset - low, 0x0A)
            if found < offset - low { return low + found }
            if low == floor { return floor - 1 }
            upTo = low
        }
        var chunks = text.chunks(backwardIn: floor..<upTo)
        while let chunk = chunks.next() {
            let found = trawl_find_last_byte(chunk.bytes.baseAddress!, chunk.bytes.count, 0x0A)
            if found < chunk.bytes.count { return chunk.offset + found }
        }
        return floor - 1
    }

    /// The next match starting at or after `position` (and at or before `startLimit`, if given).
    /// Where the last `nextMatch` call started, and whether it started after an empty match.
    @exclusivity(unchecked) private var previousPosition = 0
    @exclusivity(unchecked) private var previousNotEmpty = false

    private func nextMatch(startLimit: Int?, initialEnd: Int, preferredEnd: Int) throws(MatchError) -> Match? {
        previousPosition = position
        previousNotEmpty = notEmptyAtStart
        var wantedEnd = min(subject.upperBound, initialEnd)
        var fillEnd = min(subject.upperBound, max(preferredEnd, initialEnd))
        while position <= subject.upperBound {
            if let startLimit, position > startLimit { return nil }
            steps += 1
            if steps & 63 == 0 && Task.isCancelled { throw .cancelled }
            prepareWindow(from: position, through: max(wantedEnd, min(subject.upperBound, position + 1)), fillingTo: fillEnd)
            let isFinal = windowEnd == subject.upperBound
            var options: UInt32 = 0
            if !isFinal { options |= UInt32(PCRE2_PARTIAL_HARD) }
            if notEmptyAtStart { options |= UInt32(PCRE2_NOTEMPTY_ATSTART) }
            let window = UnsafeBufferPointer(start: windowBase, count: windowEnd - windowStart)
            switch try state.match(window, from: position - windowStart, options: options, subjectOffset: windowStart) {
            case .match(let start, let end):
                let matchStart = windowStart + start, matchEnd = windowStart + end
                if let startLimit, matchStart > startLimit { return nil }
                let match = Match(range: matchStart..<max(matchStart, matchEnd), groups: capturesGroups ? state.groups(shiftedBy: windowStart) : [])
                position = max(matchEnd, position)
                notEmptyAtStart = matchStart == matchEnd
                return match
            case .partial(let start):
                if let startLimit, windowStart + start > startLimit { return nil }
                let size = windowEnd - windowStart
                wantedEnd = min(subject.upperBound, windowEnd + max(size, 4096))
                fillEnd = wantedEnd
            case .noMatch:
                if isFinal {
                    position = subject.upperBound + 1
                    return nil
                }
                if let startLimit, windowEnd > startLimit { return nil }
                reposition(to: windowEnd)
                wantedEnd = min(subject.upperBound, position + RegexSearch.minimumLookahead)
                fillEnd = min(subject.upperBound, position + RegexSearch.windowBytes)
            }
        }
        return nil
    }

    /// Makes the window hold at least `[from - context, through)`; when it must be refilled, it is
    /// filled up to `fillingTo`.
    private func prepareWindow(from offset: Int, through end: Int, fillingTo fill: Int) {
        if let contiguous {
            // The whole text is one buffer: the window is a slice of it, so nothing is copied and
            // lookbehind sees everything before the search position.
            // Unless PCRE2 should stop at a candidate line, the window is the whole subject.
            windowStart = subject.lowerBound
            windowEnd = mode == .candidateLines ? max(end, fill) : subject.upperBound
            windowBase = UnsafePointer(contiguous.bytes.baseAddress! + (subject.lowerBound - contiguous.offset))
            return
        }
        let wantedStart = max(subject.lowerBound, offset - contextBytes)
        if windowEnd >= 0 && windowStart <= wantedStart && windowEnd >= end && offset >= windowStart && buffer != nil
            && windowBase == UnsafePointer(buffer!) {
            return
        }
        var start = wantedStart
        while start > subject.lowerBound && UTF8Bytes.isContinuation(byte(at: start)) { start -= 1 }
        var stop = max(end, fill)
        while stop < subject.upperBound && UTF8Bytes.isContinuation(byte(at: stop)) { stop += 1 }
        if let chunk = heldChunk(covering: start..<stop) {
            // Zero copy: the window is a slice of the chunk the prefilter is reading.
            windowBase = UnsafePointer(chunk.bytes.baseAddress! + (start - chunk.offset))
            windowStart = start
            windowEnd = stop
            return
        }
        let size = stop - start
        if size > capacity || buffer == nil {
            buffer?.deallocate()
            capacity = max(size, capacity * 2, RegexSearch.windowBytes + 1024)
            buffer = .allocate(capacity: capacity)
        }
        text.copyBytes(in: start..<stop, to: buffer!)
        windowBase = UnsafePointer(buffer!)
        windowStart = start
        windowEnd = stop
    }

    /// Calls `body` with the bytes of a small range, from the window when it holds them.
    func withBytes<R>(in wanted: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let base = windowBase, windowStart <= wanted.lowerBound, wanted.upperBound <= windowEnd {
            return body(UnsafeBufferPointer(start: base + (wanted.lowerBound - windowStart), count: wanted.count))
        }
        return text.bytes(in: wanted).withUnsafeBufferPointer(body)
    }
}
