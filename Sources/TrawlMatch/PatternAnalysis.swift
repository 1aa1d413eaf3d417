import TrawlText
import TrawlNGram

/// What Trawl learns from a PCRE2 pattern before compiling it:
///
/// - the pattern with editor semantics applied (see ``PatternRewrite``): `\n` (and a raw line
///   feed) outside classes becomes `(?:\r?\n)`, so it matches a line ending in LF or CRLF;
/// - literals of which every match contains one (for the prefilter, and for index queries);
/// - whether a match can contain a line feed (if not, a match lies within one line, so the regex
///   only needs to run on lines where the prefilter found a candidate).
///
/// The analysis is conservative: a construct it does not model yields no literals and "may match a
/// line feed", never a wrong answer. It follows Russ Cox's "exact set / required set" scheme.
public struct PatternAnalysis: Sendable {
    /// The pattern handed to PCRE2.
    public let compiledPattern: String
    /// Literal strings of which every match contains at least one, or `nil` when none is known.
    /// ASCII letters in caseless parts of the pattern are folded to lowercase here.
    public var requiredLiterals: [String]? {
        prefilter?.literals.map { String(decoding: $0.units.map { UInt8($0 & 0xFF) }, as: UTF8.self) }
    }
    /// What every match contains, as an AND/OR tree of literals (``LiteralQuery/all`` when nothing
    /// is known).
    public let literalQuery: LiteralQuery
    /// Whether some match might contain a line feed.
    public let canMatchLineFeed: Bool
    /// Whether the pattern asks for line breaks explicitly: VS Code's rule (its
    /// `isMultilineRegexSource`: a line feed, `\n`, `\r` or `\W`), and PCRE2's `\R`, `\v` and `.`
    /// in dot-all mode. Only such patterns match across lines; the others are matched line by
    /// line, so `\s` or `[^x]` never run into the next line.
    public let isMultiline: Bool
    /// Whether the pattern has assertions whose result depends on where the subject starts or ends
    /// (`\A`, `\z`, `\Z`, `\G`, lookaround), which make line-by-line matching differ from matching
    /// the whole text.
    public let hasSubjectAssertions: Bool
    /// How many bytes after a match's end can decide it: 0, 8 for `$`, `\b`, `\Z` (a CRLF is two
    /// characters), `nil` for a lookahead group or a pattern not fully understood.
    public let lookaheadBytes: Int?
    /// The most bytes a match can take (a CRLF counted as two, any other character as up to
    /// four), or `nil` when unbounded or not known.
    public let maxMatchBytes: Int?
    /// Whether a match can depend on text any distance before it (`\K`, `\X`).
    public let looksUnboundedBehind: Bool
    /// Whether every construct of the pattern was understood.
    public let isComplete: Bool

    let prefilter: PrefilterSet?
    /// Set when the pattern is a class repeated without bound followed at once by the prefilter's
    /// only literal, as `[a-z]+ing\b` and `\w+Error\b` are (see ``RunStartsStrategy``).
    let leadingRun: LeadingRun?
    /// The one string the pattern matches, when it is a plain literal (no assertions): then a
    /// literal scan finds exactly the matches PCRE2 would.
    let exactLiteral: PrefilterLiteral?
    private let rewrite: PatternRewrite

    /// Analyzes a PCRE2 pattern; `caseless` is the initial state of the `i` flag.
    public init(pattern: String, caseless: Bool = false) {
        var parser = PatternParser(pattern: Array(pattern.utf8), caseless: caseless)
        let info = parser.parseTopLevel()
        rewrite = PatternRewrite(parser.pattern, sites: parser.rewrites)
        compiledPattern = String(decoding: rewrite.pattern, as: UTF8.self)
        isComplete = !parser.failed
        literalQuery = parser.failed || parser.resetsMatchStart ? .all : info.query
        looksUnboundedBehind = parser.failed || parser.looksUnboundedBehind
        maxMatchBytes = parser.failed || parser.resetsMatchStart ? nil : info.maxLength
        lookaheadBytes = parser.failed || parser.hasLookahead ? nil : parser.looksOneCharacterAhead ? 8 : 0
        canMatchLineFeed = parser.failed || info.canMatchLineFeed
        isMultiline = parser.mentionsLineBreak
        hasSubjectAssertions = parser.failed || parser.hasSubjectAssertions
        // (Not with a CR or LF: across lines, a pattern sees each CRLF as LF, a byte scan does not.)
        if !parser.failed, !parser.hasAssertions, let exact = info.exact, exact.count == 1, let only = exact.first, !only.isEmpty,
           !only.contains(0x0D), !only.contains(0x0A) {
            exactLiteral = PrefilterLiteral(units: only)
        } else {
            exactLiteral = nil
        }
        if parser.failed {
            prefilter = nil
        } else {
            let candidates = [info.required, info.exact].compactMap { $0 }.filter { set in
                !set.isEmpty && !set.contains { $0.isEmpty }
            }
            prefilter = candidates.map { PrefilterSet(literals: $0.sorted { $0.lexicographicallyPrecedes($1) }.map(PrefilterLiteral.init)) }
                .max { $0.score < $1.score }
        }
        // (Not with assertions tied to where a search starts, nor `\K`: the run starts are tried
        // anchored, at offsets a whole-subject search would not start from.)
        if !parser.failed, !parser.hasSubjectAssertions, !parser.looksUnboundedBehind, parser.topLevelBranches == 1,
           parser.rewrites.isEmpty, let literals = prefilter?.literals, literals.count == 1 {
            var leading = PatternParser(pattern: parser.pattern, caseless: caseless)
            if let repetition = leading.leadingClassRepeat(),
               LeadingRun.literal(literals[0], follows: repetition.end, in: parser.pattern) {
                leadingRun = LeadingRun(classPattern: String(decoding: parser.pattern[repetition.atom], as: UTF8.self), literal: literals[0],
                                        minimum: repetition.minimum, kind: repetition.kind,
                                        ending: LeadingRun.ending(after: literals[0], at: repetition.end, in: parser.pattern))
            } else {
                leadingRun = nil
            }
        } else {
            leadingRun = nil
        }
    }

    /// Maps an offset in ``compiledPattern`` back to the pattern as written.
    public func originalOffset(ofCompiledOffset offset: Int) -> Int {
        rewrite.originalOffset(ofCompiledOffset: offset)
    }
}
