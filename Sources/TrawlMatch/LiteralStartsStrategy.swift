/// What a ``LiteralStartsStrategy`` needs: the pattern's shape and the pattern compiled anchored.
final class LiteralStarts: Sendable {
    let pattern: LiteralStartPattern
    let anchoredRegex: CompiledRegex

    /// Nil unless `compiledPattern` (matched case-sensitively) has the shape of a
    /// ``LiteralStartPattern`` whose starting literals are exactly the prefilter's.
    init?(compiledPattern: String, prefilter: PrefilterSet) {
        guard let pattern = LiteralStartPattern(pattern: Array(compiledPattern.utf8)),
              Set(pattern.literals.map { $0.map(UInt16.init) }) == Set(prefilter.literals.map(\.units)),
              let anchored = try? CompiledRegex(pattern: compiledPattern, caseless: false, anchored: true) else { return nil }
        self.pattern = pattern
        anchoredRegex = anchored
        overlapShifts = Self.overlapShifts(pattern.literals)
    }

    /// The offsets inside an occurrence of a starting literal at which an occurrence of one of
    /// them can also start (a suffix of one is a prefix of another, or one holds another): a walk
    /// that resumes after each occurrence's end tries these too.
    let overlapShifts: [Int]

    static func overlapShifts(_ literals: [[UInt8]]) -> [Int] {
        let longest = literals.map(\.count).max() ?? 0
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
    /// Where the next occurrence is looked for (past the last one tried; a search is only ever
    /// moved forward, past the start of the last match).
    private var searchFrom = 0

    private let overlapShifts: [Int]

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
            if start > reported.upperBound { break }
            searchFrom = start + 1
            if !window.capturesGroups {
                let chunk = scanner.chunkBytes, chunkStart = scanner.chunkOffset
                let outcome = pattern.decide(at: start, subjectEnd: window.range.upperBound) { index in
                    RunStartsStrategy.byte(at: index, chunk: chunk, chunkStart: chunkStart, window: window)
                }
                switch outcome {
                case .match(let end): return window.take(start..<end)
                case .none: continue
                case .undecided: break
                }
            }
            if let match = try attempt(at: start, in: window) { return match }
        }
        window.reposition(to: window.range.upperBound + 1)
        return nil
    }

    /// One walk of the text's chunks for all the occurrences (a seek per occurrence costs a
    /// rope about as much as scanning to the next). The walk resumes after each occurrence's end,
    /// so the places inside it where another can start are tried as well.
    mutating func forEachRemaining(in window: RegexWindow, _ body: (Match) throws(MatchError) -> Bool) throws(MatchError) -> Bool {
        // (On one buffer, next() finds each occurrence without a seek, for less than the walk's
        // handling of chunk seams: measured 4.8 against 4.5-4.7 GB/s for `func\s+\w+\(`.)
        guard !window.capturesGroups, !window.isContiguous else { return false }
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
            /// The attempt at `start`; false to stop the walk.
            func attempt(at start: Int) -> Bool {
                guard start < reported.upperBound else { return false }
                let chunk = scanner.chunkBytes, chunkStart = scanner.chunkOffset
                let outcome = pattern.decide(at: start, subjectEnd: window.range.upperBound) { index in
                    RunStartsStrategy.byte(at: index, chunk: chunk, chunkStart: chunkStart, window: window)
                }
                do throws(MatchError) {
                    let match: Match
                    switch outcome {
                    case .match(let end): match = window.take(start..<end)
                    case .none: return true
                    case .undecided:
                        guard let found = try self.attempt(at: start, in: window) else { return true }
                        match = found
                    }
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
                    guard attempt(at: occurrence.lowerBound) else { return false }
                }
                for shift in overlapShifts where shift < occurrence.count && occurrence.lowerBound + shift >= walk.pointee.floor {
                    guard attempt(at: occurrence.lowerBound + shift) else { return false }
                }
                return true
            }
        }
        if let failure = walk.failure { throw failure }
        window.reposition(to: window.range.upperBound + 1)
        return true
    }

    /// PCRE2's anchored attempt at `start`, with the line holding it as the subject.
    private func attempt(at start: Int, in window: RegexWindow) throws(MatchError) -> Match? {
        let lineStart = window.lineFeed(before: start, notBefore: window.range.lowerBound) + 1
        let contentEnd = window.contentEnd(lineStart: lineStart, lineFeed: window.lineFeed(after: start))
        let whole = window.subject
        window.subject = lineStart..<contentEnd
        window.invalidate()
        defer {
            window.subject = whole
            window.invalidate()
        }
        window.reposition(to: start)
        let match = try window.nextMatch(startLimit: start, initialEnd: contentEnd, preferredEnd: contentEnd, anchored: true)
        // Without a match the position stays at `start`; the search goes on after it.
        return match
    }
}
