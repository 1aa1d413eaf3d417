import CPCRE2
import TrawlKernels
import TrawlText

/// What every regex search strategy shares: the text, the current PCRE2 subject, the contiguous
/// window PCRE2 runs on, and the search position.
///
/// How chunk boundaries are handled (the choice DESIGN.md leaves open): PCRE2 runs on a contiguous
/// *window* — the text itself when it is contiguous, otherwise a copy of a stretch of chunks — that
/// starts a few characters before the search position (enough for the pattern's longest lookbehind,
/// `\b` and `^`). Unless the window reaches the end of the subject, matching uses
/// `PCRE2_PARTIAL_HARD`, which reports whenever more text could change the result (including `$`,
/// `\b` and `\z` at the window's end); the window then grows and the attempt is repeated, so no match
/// is cut or missed at a window edge.
///
/// With an LF view (for patterns matched across lines), PCRE2 sees each CRLF of the text as a
/// single LF, as VS Code matches multi-line patterns: a `\r` in a pattern never finds the CR of a
/// CRLF, and a class that can match a line break takes a CRLF as one. The window is then a copy
/// without those CRs (unless it holds none), and offsets are mapped back: a match boundary at such
/// an LF is the CRLF's start.
final class RegexWindow {
    let state: RegexMatchState
    /// For the pattern compiled anchored, when a strategy tries chosen start offsets only.
    let anchoredState: RegexMatchState?
    let text: any SearchableText
    /// The text as PCRE2 sees it (the context of a search in a range).
    let range: Range<Int>
    /// The current subject: the range, or one line of it.
    @exclusivity(unchecked) var subject: Range<Int>
    /// The prefilter, when the strategy uses one; its current chunk also serves as a zero-copy window.
    let scanner: LiteralScanner?
    /// Whether PCRE2 should stop at candidate lines rather than see the whole contiguous subject.
    let stopsAtCandidateLines: Bool
    /// Whether matches carry their groups (see ``MatchCursor/capturesGroups``).
    @exclusivity(unchecked) var capturesGroups = false
    /// Whether PCRE2 sees CRLFs as LFs.
    let usesLFView: Bool
    /// Where an empty match may follow a match.
    let emptyMatchRule: EmptyMatchRule
    /// Whether the pattern is matched across lines (else each line is searched as its own text).
    let matchesAcrossLines: Bool
    /// The text offsets of the CRs (of CRLFs) left out of the current window, in order; with the
    /// window's offset of the LF that follows each.
    @exclusivity(unchecked) private var droppedCRs: [(text: Int, view: Int)] = []

    /// Where the next search starts, and whether an empty match was just found there.
    @exclusivity(unchecked) private(set) var position: Int
    @exclusivity(unchecked) var notEmptyAtStart = false
    /// Where the last ``nextMatch(startLimit:initialEnd:preferredEnd:)`` started, and whether it
    /// started after an empty match.
    @exclusivity(unchecked) private(set) var previousPosition = 0
    @exclusivity(unchecked) private(set) var previousNotEmpty = false

    private let contextBytes: Int
    private let contiguous: TextChunk?
    @exclusivity(unchecked) private var steps = 0
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>?
    @exclusivity(unchecked) private var capacity = 0
    @exclusivity(unchecked) private var windowBase: UnsafePointer<UInt8>?
    @exclusivity(unchecked) private var windowStart = 0
    @exclusivity(unchecked) private var windowEnd = -1
    /// The chunk ``byte(at:)`` read last outside the scanner's (held, so its bytes stay valid),
    /// and its bytes and offset, read without touching its owner's reference count.
    @exclusivity(unchecked) private var nearbyChunk: TextChunk?
    @exclusivity(unchecked) private var nearbyBytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    @exclusivity(unchecked) private var nearbyOffset = 0

    static let windowBytes = 128 * 1024
    /// How far past its start an anchored attempt's window first reaches when it must be copied
    /// (it grows when a match runs further).
    static let anchoredLookahead = 256
    /// How much text past the search position a reused window must still hold.
    static let minimumLookahead = 4096

    init(regex: CompiledRegex, anchoredRegex: CompiledRegex? = nil, limits: RegexLimits, text: any SearchableText, range: Range<Int>,
         start: Int, prefilter: PrefilterSet?, stopsAtCandidateLines: Bool, usesLFView: Bool,
         emptyMatchRule: EmptyMatchRule = .skippedWhereAMatchEnded, matchesAcrossLines: Bool = false) {
        state = RegexMatchState(regex: regex, limits: limits)
        anchoredState = anchoredRegex.map { RegexMatchState(regex: $0, limits: limits) }
        self.text = text
        self.range = range
        subject = range
        position = start
        contextBytes = (regex.maxLookbehind + 2) * 4
        scanner = prefilter.map { LiteralScanner(literals: $0.literals, text: text, range: range) }
        self.stopsAtCandidateLines = stopsAtCandidateLines
        self.usesLFView = usesLFView
        self.emptyMatchRule = emptyMatchRule
        self.matchesAcrossLines = matchesAcrossLines
        if text.withContiguousStorageIfAvailable({ _ in true }) == true {
            var whole = text.chunks(forwardIn: 0..<text.utf8Count)
            let chunk = whole.next()
            // The text itself is the window only when the view changes nothing in it.
            if usesLFView, let chunk, RegexWindow.containsCR(chunk, in: range) {
                contiguous = nil
            } else {
                contiguous = chunk
            }
        } else {
            contiguous = nil
        }
    }

    deinit { buffer?.deallocate() }

    /// Whether the text is one buffer (then every window is a slice of it).
    var isContiguous: Bool { contiguous != nil }

    /// Continues the search from `offset` (a scalar boundary), as after a rejected match.
    func reposition(to offset: Int) {
        position = offset
        notEmptyAtStart = false
    }

    /// Forgets the window (the subject changed).
    func invalidate() { windowEnd = -1 }

    /// Throws ``MatchError/cancelled`` if the task was cancelled, checking once every `interval`
    /// steps (a power of two).
    func checkCancellation(every interval: Int) throws(MatchError) {
        steps += 1
        if steps & (interval - 1) == 0 && Task.isCancelled { throw .cancelled }
    }

    /// The next match in the subject starting at or after `position` (and at or before
    /// `startLimit`, if given). The window first holds up to `initialEnd`, refilled up to
    /// `preferredEnd`. `anchored`, only a match starting at `position` is tried (with
    /// ``anchoredState``), and the position stays where it is when there is none.
    func nextMatch(startLimit: Int?, initialEnd: Int, preferredEnd: Int, anchored: Bool = false) throws(MatchError) -> Match? {
        let state = anchored ? anchoredState! : state
        previousPosition = position
        previousNotEmpty = notEmptyAtStart
        var wantedEnd = min(subject.upperBound, initialEnd)
        var fillEnd = min(subject.upperBound, max(preferredEnd, initialEnd))
        while position <= subject.upperBound {
            if let startLimit, position > startLimit { return nil }
            try checkCancellation(every: 64)
            prepareWindow(from: position, through: max(wantedEnd, min(subject.upperBound, position + 1)), fillingTo: fillEnd)
            let isFinal = windowEnd == subject.upperBound
            var options: UInt32 = 0
            if !isFinal { options |= UInt32(PCRE2_PARTIAL_HARD) }
            if notEmptyAtStart { options |= UInt32(PCRE2_NOTEMPTY_ATSTART) }
            let window = UnsafeBufferPointer(start: windowBase, count: windowEnd - windowStart - droppedCRs.count)
            switch try state.match(window, from: viewOffset(of: position), options: options, subjectOffset: windowStart) {
            case .match(let start, let end):
                let matchStart = textOffset(of: start), matchEnd = textOffset(of: end)
                if matchStart < previousPosition {
                    // Searching from between a CR and its LF, the view's LF maps back to the CR:
                    // that match started before the search did; go on after it.
                    position = max(matchEnd, position)
                    notEmptyAtStart = true
                    continue
                }
                if let startLimit, matchStart > startLimit { return nil }
                let match = Match(range: matchStart..<max(matchStart, matchEnd),
                                  groups: capturesGroups ? state.groups(mapping: textOffset(of:)) : [])
                position = max(matchEnd, position)
                switch emptyMatchRule {
                case .skippedWhereAMatchEnded:
                    // No empty match where a match ended (ripgrep), and never the same one twice.
                    notEmptyAtStart = true
                case .skippedWhereAMatchEndedItsLine where match.range.isEmpty:
                    // VS Code goes on from the next character (a line break is one), where any
                    // match may start.
                    stepOverCharacter()
                case .skippedWhereAMatchEndedItsLine:
                    // An empty match may follow, unless this match ended its line (`.*` once a line).
                    notEmptyAtStart = endsLine(at: position)
                }
                return match
            case .partial(let start):
                if let startLimit, textOffset(of: start) > startLimit { return nil }
                let size = windowEnd - windowStart
                wantedEnd = min(subject.upperBound, windowEnd + max(size, 4096))
                fillEnd = wantedEnd
            case .noMatch:
                if anchored { return nil }
                if isFinal {
                    position = subject.upperBound + 1
                    return nil
                }
                if let startLimit, windowEnd > startLimit { return nil }
                reposition(to: windowEnd)
                wantedEnd = min(subject.upperBound, position + RegexWindow.minimumLookahead)
                fillEnd = min(subject.upperBound, position + RegexWindow.windowBytes)
            }
        }
        return nil
    }

    /// Moves the position past the character there (a CRLF as one), or past the subject's end.
    private func stepOverCharacter() {
        notEmptyAtStart = false
        guard position < subject.upperBound else {
            position = subject.upperBound + 1
            return
        }
        let lead = byte(at: position)
        if lead == 0x0D, position + 1 < subject.upperBound, byte(at: position + 1) == 0x0A {
            position += 2
        } else {
            position = min(subject.upperBound, position + UTF8Bytes.scalarLength(lead: lead))
        }
    }

    /// Whether `offset` ends the text VS Code's find searches as one string: the subject's end, or,
    /// for a pattern matched line by line, a line's end (before its LF or CRLF).
    private func endsLine(at offset: Int) -> Bool {
        if offset >= subject.upperBound { return true }
        guard !matchesAcrossLines else { return false }
        let next = byte(at: offset)
        return next == 0x0A || (next == 0x0D && offset + 1 < range.upperBound && byte(at: offset + 1) == 0x0A)
    }

    /// Records a match a strategy found without PCRE2 as ``nextMatch(startLimit:initialEnd:preferredEnd:anchored:)``
    /// records its own (the search goes on at its end), and returns it. For a pattern without groups.
    func take(_ range: Range<Int>) -> Match {
        previousPosition = position
        previousNotEmpty = notEmptyAtStart
        position = max(range.upperBound, position)
        notEmptyAtStart = true
        return Match(range: range)
    }

    /// ``nextMatch(startLimit:initialEnd:preferredEnd:)`` with the usual window sizes.
    func nextMatch(startLimit: Int?) throws(MatchError) -> Match? {
        try nextMatch(startLimit: startLimit, initialEnd: position + RegexWindow.minimumLookahead,
                      preferredEnd: position + RegexWindow.windowBytes)
    }

    /// Makes the window hold at least `[from - context, through)`; when it must be refilled, it is
    /// filled up to `fillingTo`.
    private func prepareWindow(from offset: Int, through end: Int, fillingTo fill: Int) {
        if let contiguous {
            // The whole text is one buffer: the window is a slice of it, so nothing is copied and
            // lookbehind sees everything before the search position.
            // Unless PCRE2 should stop at a candidate line, the window is the whole subject.
            windowStart = subject.lowerBound
            windowEnd = stopsAtCandidateLines ? max(end, fill) : subject.upperBound
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
        // (A chunk ends on a scalar boundary: at the held chunk's end there is nothing to read.)
        while stop < subject.upperBound && stop != heldChunkEnd && UTF8Bytes.isContinuation(byte(at: stop)) { stop += 1 }
        // Never cut a CRLF: its CR is left out of the view only together with its LF.
        if usesLFView && stop < subject.upperBound && stop > start && byte(at: stop - 1) == 0x0D && byte(at: stop) == 0x0A { stop += 1 }
        droppedCRs.removeAll(keepingCapacity: true)
        if let chunk = heldChunk(covering: start..<stop),
           !usesLFView || !RegexWindow.containsCR(TextChunk(offset: chunk.offset, bytes: chunk.bytes, owner: nil), in: start..<stop) {
            // Zero copy: the window is a slice of the chunk the prefilter is reading.
            windowBase = UnsafePointer(chunk.bytes.baseAddress! + (start - chunk.offset))
            windowStart = start
            windowEnd = stop
            return
        }
        let size = stop - start
        if size > capacity || buffer == nil {
            buffer?.deallocate()
            capacity = max(size, capacity * 2, RegexWindow.windowBytes + 1024)
            buffer = .allocate(capacity: capacity)
        }
        if usesLFView {
            copyLFView(start..<stop)
        } else {
            text.copyBytes(in: start..<stop, to: buffer!)
        }
        windowBase = UnsafePointer(buffer!)
        windowStart = start
        windowEnd = stop
    }

    /// Copies `range` into the buffer without the CR of each CRLF, noting what was left out.
    private func copyLFView(_ range: Range<Int>) {
        var written = 0
        var chunks = text.chunks(forwardIn: range)
        while let chunk = chunks.next() {
            let bytes = chunk.bytes
            var index = 0
            while index < bytes.count {
                let run = trawl_find_byte(bytes.baseAddress! + index, bytes.count - index, 0x0D)
                (buffer! + written).update(from: bytes.baseAddress! + index, count: run)
                written += run
                index += run
                guard index < bytes.count else { break }
                let offset = chunk.offset + index
                if offset + 1 < range.upperBound && byte(at: offset + 1) == 0x0A {
                    droppedCRs.append((offset, written))
                } else {
                    buffer![written] = 0x0D
                    written += 1
                }
                index += 1
            }
        }
    }

    /// Whether `range` of a chunk holds a CR.
    private static func containsCR(_ chunk: TextChunk, in range: Range<Int>) -> Bool {
        let lower = max(range.lowerBound, chunk.offset), upper = min(range.upperBound, chunk.offset + chunk.bytes.count)
        guard lower < upper else { return false }
        return trawl_find_byte(chunk.bytes.baseAddress! + (lower - chunk.offset), upper - lower, 0x0D) < upper - lower
    }

    /// The window offset PCRE2 sees for a text offset (inside a CRLF: at its LF).
    private func viewOffset(of offset: Int) -> Int {
        guard !droppedCRs.isEmpty else { return offset - windowStart }
        var low = 0, high = droppedCRs.count
        while low < high {
            let middle = (low + high) / 2
            if droppedCRs[middle].text < offset { low = middle + 1 } else { high = middle }
        }
        return offset - windowStart - low
    }

    /// The text offset of a window offset: a boundary at the LF of a CRLF is the CRLF's start.
    private func textOffset(of view: Int) -> Int {
        guard !droppedCRs.isEmpty else { return windowStart + view }
        var low = 0, high = droppedCRs.count
        while low < high {
            let middle = (low + high) / 2
            if droppedCRs[middle].view < view { low = middle + 1 } else { high = middle }
        }
        return windowStart + view + low
    }

    /// The end of the text from `offset` that PCRE2 can read without a copy: the subject's end when
    /// the text is one buffer, else the end of the prefilter's current chunk when it holds `offset`.
    func endWithoutCopying(from offset: Int) -> Int? {
        if contiguous != nil { return subject.upperBound }
        guard heldChunk(covering: offset..<offset) != nil else { return nil }
        return min(subject.upperBound, heldChunkEnd)
    }

    /// The end of the prefilter's current chunk, or -1.
    private var heldChunkEnd: Int {
        guard let scanner, scanner.chunkBytes.baseAddress != nil else { return -1 }
        return scanner.chunkOffset + scanner.chunkBytes.count
    }

    /// The prefilter's current chunk, when it holds all of `wanted`: candidate lines are usually
    /// found, bounded and matched inside it without copying or seeking.
    private func heldChunk(covering wanted: Range<Int>) -> (offset: Int, bytes: UnsafeBufferPointer<UInt8>)? {
        guard let scanner else { return nil }
        let bytes = scanner.chunkBytes, offset = scanner.chunkOffset
        guard bytes.baseAddress != nil, offset <= wanted.lowerBound, wanted.upperBound <= offset + bytes.count else { return nil }
        return (offset, bytes)
    }

    /// The byte at `offset`, from `chunk` (the scanner's, which holds the occurrence being tried)
    /// when it has it: the strategies that decide attempts by bytes read a few around each.
    @inline(__always)
    func byte(at offset: Int, chunk: UnsafeBufferPointer<UInt8>, chunkStart: Int) -> UInt8 {
        offset >= chunkStart && offset - chunkStart < chunk.count ? chunk[offset - chunkStart] : byte(at: offset)
    }

    /// The byte at `offset` of the text (anywhere in it, not only in ``range``), read from the
    /// scanner's chunk or the chunk read last when one of them holds it.
    func byte(at offset: Int) -> UInt8 {
        if let chunk = heldChunk(covering: offset..<(offset + 1)) { return chunk.bytes[offset - chunk.offset] }
        if nearbyOffset <= offset, offset - nearbyOffset < nearbyBytes.count { return nearbyBytes[offset - nearbyOffset] }
        return fetchNearbyChunk(holding: offset)
    }

    /// Fetches and keeps the chunk holding `offset`, and returns the byte there. An attempt near
    /// the scanner's chunk's edge reads on into the next chunk, or back into the one before, a
    /// byte at a time: it pays one seek per chunk, not one per byte. A chunk before a known one is
    /// taken whole up to it, so that reads in either direction find it.
    private func fetchNearbyChunk(holding offset: Int) -> UInt8 {
        // The nearest start of a chunk above `offset` that this window knows.
        var above = Int.max
        if let scanner, scanner.chunkBytes.baseAddress != nil, scanner.chunkOffset > offset { above = scanner.chunkOffset }
        if nearbyBytes.baseAddress != nil, nearbyOffset > offset { above = min(above, nearbyOffset) }
        var chunk: TextChunk
        if above != Int.max {
            var before = text.chunks(backwardIn: 0..<above)
            chunk = before.next()!
            if chunk.offset > offset {
                // Further back than the chunk before: a seek of its own.
                var holding = text.chunks(backwardIn: 0..<(offset + 1))
                chunk = holding.next()!
            }
        } else {
            var after = text.chunks(forwardIn: offset..<text.utf8Count)
            chunk = after.next()!
        }
        nearbyChunk = chunk
        nearbyBytes = chunk.bytes
        nearbyOffset = chunk.offset
        return chunk.bytes[offset - chunk.offset]
    }

    /// The offset of the first line feed at or after `offset`, or the end of the range.
    func lineFeed(after offset: Int) -> Int {
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
    func lineFeed(before offset: Int, notBefore floor: Int) -> Int {
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

    /// The end of a line's content (before its LF or CRLF).
    func contentEnd(lineStart: Int, lineFeed: Int) -> Int {
        LineBreaks.contentEnd(lineStart: lineStart, lineFeed: lineFeed, textEnd: range.upperBound, byte: byte(at:))
    }

    /// Calls `body` with the bytes of a small range, from the window when it holds them.
    func withBytes<R>(in wanted: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if droppedCRs.isEmpty, let base = windowBase, windowStart <= wanted.lowerBound, wanted.upperBound <= windowEnd {
            return body(UnsafeBufferPointer(start: base + (wanted.lowerBound - windowStart), count: wanted.count))
        }
        return text.bytes(in: wanted).withUnsafeBufferPointer(body)
    }
}
