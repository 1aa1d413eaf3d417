import CPCRE2

/// What a ``RunStartsStrategy`` needs of a ``LeadingRun`` pattern: the pattern compiled anchored,
/// and which ASCII characters its leading class holds.
final class RunStarts: Sendable {
    let anchoredRegex: CompiledRegex
    /// Bit `c` set when ASCII character `c` is in the class. (Beyond ASCII the class is not known
    /// here: a run that reaches a non-ASCII character is searched as a candidate line instead.)
    let asciiMembers: ASCIISet
    /// Set when attempts can be decided without PCRE2.
    let decision: RunMatchDecision?

    /// Compiles the pattern (as handed to PCRE2) anchored and asks PCRE2 which ASCII characters the
    /// class matches, so the class means exactly what PCRE2 makes of it (case folding included).
    init?(run: LeadingRun, compiledPattern: String, caseless: Bool) {
        guard let anchored = try? CompiledRegex(pattern: compiledPattern, caseless: caseless, anchored: true),
              let members = ASCIISet(characterClass: run.classPattern, caseless: caseless) else { return nil }
        // A class holding a line break would let a run reach into earlier lines (the analysis
        // may not know every class that can match one; PCRE2 does).
        guard !members.contains(0x0A), !members.contains(0x0D) else { return nil }
        anchoredRegex = anchored
        asciiMembers = members
        decision = anchored.captureCount == 0 ? RunMatchDecision(run: run, members: members) : nil
    }
}

/// PCRE2 runs, anchored, only at the start of the class run right before each occurrence of the
/// literal (see ``LeadingRun`` for why those are the only places a match can start), each start
/// once. Like ``CandidateLinesStrategy`` it needs a pattern that cannot match a line feed, so a
/// run never crosses a line; a run that reaches a non-ASCII character falls back to searching the
/// occurrence's line as that strategy does.
struct RunStartsStrategy: SubjectStrategy {
    let reported: Range<Int>
    /// ``RunStarts/asciiMembers``, held here: the walk reads it for every byte.
    private let members: ASCIISet
    private let decision: RunMatchDecision?
    /// The end of the line of the last occurrence searched as a line (see the fallback below).
    private var knownLineEnd = -1
    /// Where the next occurrence is looked for (past the last one handled).
    private var searchFrom = 0
    /// The last start tried without a match.
    private var lastTried = -1
    /// A stretch known to be one run: `[start, end)` all in the class, `start` a run start (or
    /// the search position when it was found).
    private var knownRun = (start: -1, end: -1)
    /// The window's position when this strategy last left it: any other means the search was
    /// moved (a rejected match, a skip), and what was learned before no longer holds.
    private var leftAt = -1

    init(reported: Range<Int>, runStarts: RunStarts) {
        self.reported = reported
        members = runStarts.asciiMembers
        decision = runStarts.decision
    }

    mutating func next(in window: RegexWindow) throws(MatchError) -> Match? {
        // (Not retained for each match: the window holds it for the search.)
        unowned(unsafe) let scanner = window.scanner!
        if window.position != leftAt {
            searchFrom = window.position
            lastTried = -1
            knownRun = (-1, -1)
        }
        defer { leftAt = window.position }
        while window.position <= window.range.upperBound {
            try window.checkCancellation(every: 256)
            guard let occurrence = try scanner.next(from: max(window.position, searchFrom)) else { break }
            let found = occurrence.lowerBound
            searchFrom = found + 1
            guard let start = runStart(before: found, floor: window.position, in: window, scanner: scanner) else {
                // The occurrence's line, searched as a candidate line; the search goes on after it.
                let lineEnd = found < knownLineEnd ? knownLineEnd : window.lineFeed(after: found)
                knownLineEnd = lineEnd
                switch try CandidateLinesStrategy.searchLine(holding: found, lineEnd: lineEnd, reportedEnd: reported.upperBound, in: window) {
                case .found(let match): return match
                case .pastRange: break
                case .none:
                    searchFrom = lineEnd + 1
                    lastTried = -1
                    knownRun = (-1, -1)
                    continue
                }
                break
            }
            if start > reported.upperBound { break }
            if start == lastTried { continue }
            if start > window.position { window.reposition(to: start) }
            if let decision {
                let chunk = scanner.chunkBytes, chunkStart = scanner.chunkOffset
                let outcome = decision.decide(start: start, occurrence: found, subjectEnd: window.subject.upperBound) { index in
                    window.byte(at: index, chunk: chunk, chunkStart: chunkStart)
                }
                switch outcome {
                case .match(let end): return window.take(start..<end)
                case .none:
                    lastTried = start
                    continue
                case .undecided: break
                }
            }
            // An anchored attempt reads only as far as its match can reach (never past the line, as
            // the pattern cannot match a line feed): the text that needs no copy will do, and a
            // match running past its end is found by the window growing. No line end is looked for.
            let initialEnd = window.endWithoutCopying(from: found) ?? min(found + RegexWindow.anchoredLookahead, window.range.upperBound)
            if let match = try window.nextMatch(startLimit: start, initialEnd: initialEnd, preferredEnd: initialEnd, anchored: true) {
                return match
            }
            // (Only once the attempt has run: after a thrown limit, the start is tried again.)
            lastTried = start
        }
        window.reposition(to: window.range.upperBound + 1)
        return nil
    }

    /// The start of the run of class characters that ends right before `offset`, not before
    /// `floor`; nil when the run reaches a non-ASCII character. Each byte is read about once over
    /// a search: a run already walked is remembered.
    private mutating func runStart(before offset: Int, floor: Int, in window: RegexWindow, scanner: LiteralScanner) -> Int? {
        var cursor = offset
        let stop = knownRun.end >= floor && knownRun.end <= offset ? knownRun.end : floor
        let chunk = scanner.chunkBytes, chunkStart = scanner.chunkOffset
        while cursor > stop {
            let byte = window.byte(at: cursor - 1, chunk: chunk, chunkStart: chunkStart)
            guard byte < 0x80 else {
                knownRun = (-1, -1)
                return nil
            }
            if !members.contains(byte) {
                knownRun = (cursor, offset)
                return cursor
            }
            cursor -= 1
        }
        // Reached the floor, or a stretch known to be in one run since its start.
        let start = cursor == floor || knownRun.end != cursor ? cursor : max(floor, knownRun.start)
        knownRun = (start, offset)
        return start
    }
}
