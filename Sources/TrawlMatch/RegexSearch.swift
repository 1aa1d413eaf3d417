import TrawlText

/// Successive PCRE2 matches in a range of chunked text, identical to matching the range as one
/// contiguous subject: a ``RegexWindow`` (the shared window and position) driven by one
/// ``SubjectStrategy`` per ``RegexSearchMode``.
final class RegexSearch<Strategy: SubjectStrategy>: MatchEngine {
    let window: RegexWindow
    @exclusivity(unchecked) private var strategy: Strategy
    /// Where reported matches start (see ``Matcher/cursor(over:in:context:)``).
    private let reported: Range<Int>
    @exclusivity(unchecked) private var finished = false

    init(window: RegexWindow, strategy: Strategy, reporting reported: Range<Int>) {
        self.window = window
        self.strategy = strategy
        self.reported = reported
    }

    func next() throws(MatchError) -> Match? {
        guard !finished else { return nil }
        // Only matches that start in the reported range (the one at the very end of the text
        // belongs to the range that ends there).
        guard let match = try strategy.next(in: window), match.range.lowerBound < reported.upperBound
                || (match.range.lowerBound == reported.upperBound && reported.upperBound == window.range.upperBound) else {
            finished = true
            return nil
        }
        return match
    }

    /// The strategy's own walk when it has one, else repeated ``next()`` calls.
    func forEachRemaining(_ body: (Match) throws(MatchError) -> Bool) throws(MatchError) {
        guard !finished else { return }
        let walked: Bool
        do {
            walked = try strategy.forEachRemaining(in: window, body)
        } catch {
            // A walk that threw has used up its search.
            finished = true
            throw error
        }
        if walked {
            finished = true
            return
        }
        try forEachNext(body)
    }

    func reposition(to offset: Int) { window.reposition(to: offset) }

    var capturesGroups: Bool {
        get { window.capturesGroups }
        set { window.capturesGroups = newValue }
    }

    func withBytes<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        window.withBytes(in: range, body)
    }
}

/// How the range is cut into PCRE2 subjects.
enum RegexSearchMode {
    /// The range is one subject (``WholeTextStrategy``).
    case wholeText
    /// The range is one subject, but PCRE2 only runs on lines holding a prefilter candidate
    /// (``CandidateLinesStrategy``).
    case candidateLines
    /// Every line (without its line break) is its own subject (``LineSubjectsStrategy``).
    case lineSubjects
    /// Line-by-line semantics computed with whole-text searches (``CheckingLinesStrategy``).
    case wholeTextCheckingLines
    /// Attempts only where a starting literal occurs, matched line by line
    /// (``LiteralStartsStrategy``).
    case literalStarts
}

/// Makes the search for `mode` over `range` of `text` (searched with `context`); `acrossLines`
/// when the pattern is matched across lines (then on an LF view of the text); `emptyMatchRule`
/// says where an empty match may follow a match. With `runStarts`,
/// candidate lines are searched from run starts only (``RunStartsStrategy``); `literalStarts` goes
/// with the mode of that name.
func makeRegexSearch(mode: RegexSearchMode, regex: CompiledRegex, limits: RegexLimits,
                     text: any SearchableText, range: Range<Int>, context: Range<Int>, prefilter: PrefilterSet?,
                     runStarts: RunStarts? = nil, literalStarts: LiteralStarts? = nil, acrossLines: Bool,
                     emptyMatchRule: EmptyMatchRule = .skippedWhereAMatchEnded) -> any MatchEngine {
    // RegexMatcher chooses the mode and the prefilter together: only these modes use one.
    precondition([.candidateLines, .literalStarts].contains(mode) ? prefilter != nil : mode == .lineSubjects || prefilter == nil)
    precondition(runStarts == nil || (mode == .candidateLines && !acrossLines))
    precondition((mode == .literalStarts) == (literalStarts != nil) && (literalStarts == nil || !acrossLines))
    let window = RegexWindow(regex: regex, anchoredRegex: runStarts?.anchoredRegex ?? literalStarts?.anchoredRegex, limits: limits,
                             text: text, range: context,
                             start: range.lowerBound,
                             prefilter: prefilter,
                             stopsAtCandidateLines: mode == .candidateLines || mode == .literalStarts,
                             // Patterns matched across lines see CRLFs as LFs (line subjects hold none).
                             usesLFView: acrossLines && (mode == .wholeText || mode == .candidateLines),
                             emptyMatchRule: emptyMatchRule, matchesAcrossLines: acrossLines)
    switch mode {
    case .wholeText:
        return RegexSearch(window: window, strategy: WholeTextStrategy(reported: range), reporting: range)
    case .candidateLines:
        if let runStarts {
            return RegexSearch(window: window, strategy: RunStartsStrategy(reported: range, runStarts: runStarts), reporting: range)
        }
        return RegexSearch(window: window, strategy: CandidateLinesStrategy(reported: range), reporting: range)
    case .lineSubjects:
        return RegexSearch(window: window, strategy: LineSubjectsStrategy(window: window, reported: range), reporting: range)
    case .wholeTextCheckingLines:
        return RegexSearch(window: window, strategy: CheckingLinesStrategy(reported: range), reporting: range)
    case .literalStarts:
        return RegexSearch(window: window, strategy: LiteralStartsStrategy(reported: range, literalStarts: literalStarts!), reporting: range)
    }
}

/// How one search mode cuts the range into PCRE2 subjects and finds the next match.
protocol SubjectStrategy {
    mutating func next(in window: RegexWindow) throws(MatchError) -> Match?
    /// Calls `body` with each match ``next(in:)`` would return (in the reported range), in order,
    /// until it returns false, in one walk of the text; false, having done nothing, when this
    /// strategy has no such walk. The search is used up afterwards.
    mutating func forEachRemaining(in window: RegexWindow, _ body: (Match) throws(MatchError) -> Bool) throws(MatchError) -> Bool
}

extension SubjectStrategy {
    mutating func forEachRemaining(in window: RegexWindow, _ body: (Match) throws(MatchError) -> Bool) throws(MatchError) -> Bool {
        false
    }
}
