/// What a ``LiteralStartsStrategy`` needs: the pattern's shape and the pattern compiled anchored.
final class LiteralStarts: Sendable {
    let pattern: LiteralStartPattern
    let anchoredRegex: CompiledRegex

    /// Nil unless `compiledPattern` (matched case-sensitively) has the shape of a
    /// ``LiteralStartPattern`` whose starting literals are exactly the prefilter's, and the
    /// prefilter's scan finds every start of them in order.
    init?(compiledPattern: String, prefilter: PrefilterSet) {
        let literals = prefilter.literals.map { $0.units.map { UInt8(truncatingIfNeeded: $0) } }
        guard LiteralScanner.findsEveryStart(of: prefilter.literals), prefilter.literals.allSatisfy({ $0.units.allSatisfy { $0 < 0x100 } }),
              let pattern = LiteralStartPattern(pattern: Array(compiledPattern.utf8), startingWith: Set(literals)),
              let anchored = try? CompiledRegex(pattern: compiledPattern, caseless: false, anchored: true) else { return nil }
        self.pattern = pattern
        anchoredRegex = anchored
        overlapShifts = Self.overlapShifts(literals)
    }

    /// The offsets inside an occurrence of a starting literal at which an occurrence of one of
    /// them can also start (a suffix of one is a prefix of another, or one holds another): a walk
    /// that resumes after each occurrence's end tries these too.
    let overlapShifts: [Int]

    static func overlapShifts(_ literals: [[UInt8]]) -> [Int] {
        let longest = literals.map { $0.count }.max() ?? 0
        return (1..<max(longest, 1)).filter { shift in
            literals.contains { outer in
                shift < outer.count && literals.contains { inner in zip(outer[shift...], inner).allSatisfy { $0 == $1 } }
            }
        }
    }
}

/// Attempts a match only where one of the pattern's starting literals occurs (every match starts
/// at one), in order, each once: decided by comparing bytes where the ``LiteralStartPattern`` can,
/// otherwise by PCRE2 anchored at the occurrence, on its line. For patterns matched line by line:
/// the line is the subject PCRE2 sees, and a decided walk never crosses a line.
struct LiteralStartsStrategy: SubjectStrategy {
    let reported: Range<Int>
    private let pattern: LiteralStartPattern
    private let overlapShifts: [Int]
    /// Where the next occurrence is looked for (past the last one tried; a search is only ever
    /// moved forward, past the start of the last match).
    private var searchFrom = 0
    /// The line feed ending the line of the last attempt PCRE2 made (attempts on one long line
    /// look for it once).
    private var knownLineFeed = -1

    init(reported: Range<Int>, literalStarts: LiteralStarts) {
        self.reported = reported
        pattern = literalStarts.pattern
        overlapShifts = literalStarts.overlapShifts
    }

    mutating func next(in window: RegexWindow) throws(MatchError) -> Match? {
        // (Not retained for each match: the window holds it for the search.)
        unowned(unsafe) let scanner = window.scanner!
        while window.position <= window.range.upperBound {
            try window.checkCancellation(every: 256)
            guard let occurrence = try scanner.next(from: max(window.position, searchFrom)) else { break }
            let start = occurrence.lowerBound
            guard start < reported.upperBound else { break }
            let match = try attempt(at: start, in: window, scanner: scanner)
            // (Only once the attempt has run: after a thrown limit, the start is tried again.)
            searchFrom = start + 1
            if let match { return match }
        }
        window.reposition(to: window.range.upperBound + 1)
        return nil
    }

    /// One walk of the text's chunks for all the occurrences (a seek per occurrence costs a
    /// rope about as much as scanning to the next). The walk resumes after each occurrence's end,
    /// so the places inside it where another can start are tried as well.
    mutating func forEachRemaining(in window: RegexWindow, _ body: (Match) throws(MatchError) -> Bool) throws(MatchError) -> Bool {
        // (On one buffer, next() finds each occurrence without a seek, for less than the walk's
        // handling of chunk seams, as measured.)
        guard !window.isContiguous else { return false }
        unowned(unsafe) let scanner = window.scanner!
        // What the walk's calls share, behind a pointer: locals captured by both a closure and a
        // local function are checked for exclusive access at every use.
        struct Walk {
            /// Attempts before it would start inside the last match (or before the search's start).
            var floor: Int
            var failure: MatchError?
        }
        var walk = Walk(floor: max(window.position, searchFrom))
        try withUnsafeMutablePointer(to: &walk) { (walk) throws(MatchError) in
            /// Reports the match starting at `start`, if any; false to stop the walk.
            func visit(_ start: Int) -> Bool {
                guard start < reported.upperBound else { return false }
                do throws(MatchError) {
                    guard let match = try attempt(at: start, in: window, scanner: scanner) else { return true }
                    walk.pointee.floor = match.range.upperBound
                    return try body(match)
                } catch {
                    walk.pointee.failure = error
                    return false
                }
            }
            try scanner.forEachOccurrence(from: walk.pointee.floor) { occurrence in
                // (One inside the last match may still hold the start of another past its end.)
                if occurrence.lowerBound >= walk.pointee.floor {
                    guard visit(occurrence.lowerBound) else { return false }
                }
                for shift in overlapShifts where shift < occurrence.count && occurrence.lowerBound + shift >= walk.pointee.floor {
                    guard visit(occurrence.lowerBound + shift) else { return false }
                }
                return true
            }
        }
        if let failure = walk.failure { throw failure }
        window.reposition(to: window.range.upperBound + 1)
        return true
    }

    /// The match starting at `start`: decided by the shape's walk when it can be (and the match's
    /// groups are not wanted), else by PCRE2.
    @inline(__always)
    private mutating func attempt(at start: Int, in window: RegexWindow, scanner: LiteralScanner) throws(MatchError) -> Match? {
        if !window.capturesGroups {
            let chunk = scanner.chunkBytes, chunkStart = scanner.chunkOffset
            let outcome = pattern.decide(at: start, subjectEnd: window.range.upperBound) { index in
                window.byte(at: index, chunk: chunk, chunkStart: chunkStart)
            }
            switch outcome {
            case .match(let end): return window.take(start..<end)
            case .none: return nil
            case .undecided: break
            }
        }
        return try anchoredAttempt(at: start, in: window)
    }

    /// PCRE2's anchored attempt at `start`, on the rest of its line (the pattern looks at nothing
    /// before its starting literal). The line's end is looked for once per line, and a window that
    /// must be copied first reaches ``RegexWindow/anchoredLookahead`` bytes past the start, growing only for a match
    /// that runs further: attempts on a long line cost what they read, not the line each.
    private mutating func anchoredAttempt(at start: Int, in window: RegexWindow) throws(MatchError) -> Match? {
        if start >= knownLineFeed { knownLineFeed = window.lineFeed(after: start) }
        let contentEnd = window.contentEnd(lineStart: start, lineFeed: knownLineFeed)
        let whole = window.subject
        window.subject = start..<contentEnd
        window.invalidate()
        defer {
            window.subject = whole
            window.invalidate()
        }
        window.reposition(to: start)
        let initialEnd = window.endWithoutCopying(from: start) ?? min(start + RegexWindow.anchoredLookahead, contentEnd)
        // Without a match the position stays at `start`.
        return try window.nextMatch(startLimit: start, initialEnd: initialEnd, preferredEnd: initialEnd, anchored: true)
    }
}
