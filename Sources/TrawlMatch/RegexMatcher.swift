import TrawlNGram
/// Finds matches of a PCRE2 regular expression (8-bit, UTF, UCP, JIT-compiled when available).
///
/// Editor semantics: `^` and `$` anchor at lines (LF or CRLF), `\n` matches a line ending whether
/// the text uses LF or CRLF, `matchCase: false` folds case by Unicode simple case folding, and
/// empty matches advance one scalar. Patterns with a required literal that cannot match a line feed
/// run behind a literal prefilter; see ``RegexSearch``.
public struct RegexMatcher: Matcher {
    /// The pattern as written.
    public let pattern: String
    /// The options it was compiled with.
    public let options: MatchOptions
    /// What the analysis learned of the pattern (required literals, line-feed capability).
    public let analysis: PatternAnalysis
    let regex: CompiledRegex
    let prefilter: PrefilterSet?
    let mode: RegexSearchMode
    /// Set when the pattern is one plain literal: matches are then found by the literal scanner.
    let literal: PrefilterLiteral?
    /// Set when candidate lines are searched only from the run starts before the literal (see
    /// ``LeadingRun``).
    var runStarts: RunStarts?
    /// Set when the pattern is attempted only where its starting literals occur (mode
    /// `.literalStarts`; see ``LiteralStartPattern``).
    let literalStarts: LiteralStarts?

    /// The smallest prefilter score worth scanning for (about two uncommon bytes).
    static let minimumPrefilterScore = 40

    /// Compiles `pattern`; `options.syntax` is ignored. An empty pattern matches nothing.
    /// - Throws: ``MatchError/invalidPattern(message:offset:)`` with PCRE2's message and the offset
    ///   in `pattern`.
    public init(_ pattern: String, options: MatchOptions = .regex) throws(MatchError) {
        self.pattern = pattern
        var options = options
        options.syntax = .regex
        self.options = options
        let analysis = PatternAnalysis(pattern: pattern, caseless: !options.matchCase)
        self.analysis = analysis
        do {
            regex = try CompiledRegex(pattern: analysis.compiledPattern, caseless: !options.matchCase)
        } catch {
            if case .invalidPattern(let message, let offset) = error {
                throw .invalidPattern(message: message, offset: min(analysis.originalOffset(ofCompiledOffset: offset), pattern.utf8.count))
            }
            throw error
        }
        literal = regex.captureCount == 0 ? analysis.exactLiteral : nil
        var usable: PrefilterSet?
        if let set = analysis.prefilter, LiteralScanner.canScan(set), set.score >= RegexMatcher.minimumPrefilterScore {
            usable = set
        }
        let sameOnLinesAndWhole = !analysis.canMatchLineFeed && !analysis.hasSubjectAssertions
        // (Case-sensitive patterns matched line by line only: the shape's walk compares bytes.)
        let lineByLine = !analysis.isMultiline && !options.matchesAcrossLines
        literalStarts = lineByLine && options.matchCase && !analysis.hasSubjectAssertions
            ? usable.flatMap { LiteralStarts(compiledPattern: analysis.compiledPattern, prefilter: $0) } : nil
        if literalStarts != nil {
            prefilter = usable
            mode = .literalStarts
        } else if analysis.isMultiline || options.matchesAcrossLines || sameOnLinesAndWhole {
            // One subject; with a prefilter, PCRE2 runs only on candidate lines (sound only when no
            // match can contain a line feed).
            prefilter = analysis.canMatchLineFeed ? nil : usable
            mode = prefilter == nil ? .wholeText : .candidateLines
        } else if regex.hasKnownFirstCodeUnit && !analysis.hasSubjectAssertions {
            // PCRE2's JIT finds a known first code unit with SIMD at memory speed: let it scan the
            // whole text, and redo on its own only a line where a match touches a line break.
            prefilter = nil
            mode = .wholeTextCheckingLines
        } else {
            prefilter = usable
            mode = .lineSubjects
        }
        if mode == .candidateLines, !analysis.isMultiline, !options.matchesAcrossLines, let run = analysis.leadingRun,
           prefilter?.literals == [run.literal] {
            runStarts = RunStarts(run: run, compiledPattern: analysis.compiledPattern, caseless: !options.matchCase)
        } else {
            runStarts = nil
        }
    }

    /// Whether each line is matched on its own (the pattern asks for no line break), as opposed to
    /// the whole text as one subject.
    public var matchesLineByLine: Bool { !analysis.isMultiline && !options.matchesAcrossLines }

    /// Whether a match can contain a line feed: only a pattern matched across lines that can
    /// match one (matched line by line, no match reaches into the next line).
    public var canMatchAcrossLines: Bool { !matchesLineByLine && analysis.canMatchLineFeed }

    /// The number of capture groups.
    public var captureCount: Int { regex.captureCount }

    /// Capture group numbers by name.
    public var groupNumbers: [String: Int] { regex.groupNumbers }

    /// The literals every match contains, as the analysis found them (for an n-gram index).
    public var literalQuery: LiteralQuery { analysis.literalQuery }

    /// Line-bounded when matched line by line; lookbehind from PCRE2's longest lookbehind (in
    /// characters, one more for `^`), lookahead from the analysis.
    public var locality: MatchLocality {
        MatchLocality(isLineBounded: matchesLineByLine, lookbehind: analysis.looksUnboundedBehind ? nil : (regex.maxLookbehind + 1) * 4,
                      lookahead: analysis.lookaheadBytes, maxMatchLength: analysis.maxMatchBytes)
            .checkingWholeWords(options.wholeWord)
    }

    /// Whether PCRE2 JIT-compiled the pattern (it falls back to its interpreter otherwise).
    public var isJITCompiled: Bool { regex.isJITCompiled }

    /// Whether searches run PCRE2 only on lines holding a required literal.
    public var usesPrefilter: Bool { prefilter != nil }

    /// A cursor over the matches starting in `range`, reading no byte outside `context`.
    public func cursor(over text: some SearchableText, in range: Range<Int>, context: Range<Int>) -> MatchCursor {
        precondition(context.lowerBound >= 0 && context.upperBound <= text.utf8Count, "context out of bounds")
        precondition(context.lowerBound <= range.lowerBound && range.upperBound <= context.upperBound, "range outside its context")
        // An empty pattern finds nothing, as an empty literal (not an empty match at every position).
        guard !pattern.isEmpty else { return MatchCursor(engine: EmptySearch()) }
        let search: any MatchEngine
        if let literal {
            search = LiteralSearch(literal: literal, text: text, range: range, context: context)
        } else {
            search = makeRegexSearch(mode: mode, regex: regex, limits: options.limits, text: text, range: range, context: context,
                                     prefilter: prefilter, runStarts: runStarts, literalStarts: literalStarts,
                                     acrossLines: !matchesLineByLine, emptyMatchRule: options.emptyMatchRule)
        }
        var engine = search
        if options.wholeWord {
            engine = WholeWordFilter(base: engine, range: context, separators: options.wordSeparators)
        }
        if options.finalLineBreakEndsText {
            engine = FinalLineBreakFilter(base: engine, range: context)
        }
        return MatchCursor(engine: engine)
    }
}
