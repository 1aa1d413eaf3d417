import TrawlText
import TrawlNGram

/// The boundary between "how to match" and everything that uses matches (the find navigator, the
/// index, the `trawl` command), in the spirit of ripgrep's grep-matcher crate.
///
/// A matcher is immutable and `Sendable`; each search gets its own ``MatchCursor``, which produces
/// matches lazily, in order, and checks for task cancellation as it goes.
public protocol Matcher: Sendable {
    /// The options the matcher was made with.
    var options: MatchOptions { get }

    /// Whether a match can contain a line feed (and so span lines). When it cannot, a line holds
    /// whole matches only, and a caller that needs one match per line can skip to the next line.
    var canMatchAcrossLines: Bool { get }

    /// The number of capture groups (0 for a literal), for replacement templates.
    var captureCount: Int { get }

    /// Capture group numbers by name.
    var groupNumbers: [String: Int] { get }

    /// How far from its own bytes a match depends on the text, which bounds what an edit changes.
    var locality: MatchLocality { get }

    /// What every match contains, as an AND/OR tree of literals: a text (or a part of one) that
    /// does not satisfy it holds no match, so an index can skip it.
    var literalQuery: LiteralQuery { get }

    /// A cursor over the matches that start in `range` of `text`, searched with `context` (which
    /// holds `range`) as the text: `^`, `\b`, lookbehind and lookahead see the context around the
    /// range, and a match may run past the range's end. The empty match at the context's end counts
    /// as starting in a range that ends there.
    ///
    /// When no match of the context is in progress at `range.lowerBound` or ends there (and it is
    /// not between a CR and its LF: a CRLF is one line break) — a line start for a pattern that
    /// cannot span lines (see ``canMatchAcrossLines``), or the start of a match — the cursor gives
    /// exactly the context's matches that start in the range, so ranges
    /// cut at such points give each match once: the contract the index (searching only candidate
    /// chunks) and the navigator (re-matching around an edit) rely on. (`\G` anchors where the
    /// search starts, which is the range's start.)
    func cursor(over text: some SearchableText, in range: Range<Int>, context: Range<Int>) -> MatchCursor
}

extension Matcher {
    /// A cursor over the matches in `range` of `text`, the range searched as if it were the whole
    /// text (`^`, `\A` and lookbehind do not see outside it).
    public func cursor(over text: some SearchableText, in range: Range<Int>) -> MatchCursor {
        cursor(over: text, in: range, context: range)
    }

    /// A cursor over the matches in the whole text.
    public func cursor(over text: some SearchableText) -> MatchCursor {
        cursor(over: text, in: 0..<text.utf8Count)
    }

    /// Every match in `range` (the whole text by default), in order, with its capture groups when
    /// `capturingGroups` is true.
    public func matches(in text: some SearchableText, range: Range<Int>? = nil,
                        capturingGroups: Bool = false) throws(MatchError) -> [Match] {
        var cursor = cursor(over: text, in: range ?? 0..<text.utf8Count)
        cursor.capturesGroups = capturingGroups
        var result: [Match] = []
        try cursor.forEachRemaining { match in
            result.append(match)
            return true
        }
        return result
    }

    /// The number of matches in `range` (the whole text by default).
    public func count(in text: some SearchableText, range: Range<Int>? = nil) throws(MatchError) -> Int {
        var cursor = cursor(over: text, in: range ?? 0..<text.utf8Count)
        var count = 0
        try cursor.forEachRemaining { _ in
            count += 1
            return true
        }
        return count
    }

    /// The first match starting at or after `offset`, searching `range` (the whole text by default),
    /// with its capture groups when `capturingGroups` is true.
    public func firstMatch(in text: some SearchableText, startingAtOrAfter offset: Int = 0,
                           range: Range<Int>? = nil, capturingGroups: Bool = false) throws(MatchError) -> Match? {
        let context = range ?? 0..<text.utf8Count
        let start = min(max(offset, context.lowerBound), context.upperBound)
        var cursor = cursor(over: text, in: start..<context.upperBound, context: context)
        cursor.capturesGroups = capturingGroups
        return try cursor.next()
    }
}

/// Produces the matches of one search, lazily and in order.
///
/// Non-copyable: a cursor is the position of one search, and a copy would share it with the
/// original (two cursors that seemed independent would advance each other). Make a new cursor
/// for a new search.
public struct MatchCursor: ~Copyable {
    private let engine: any MatchEngine

    init(engine: any MatchEngine) { self.engine = engine }

    /// Whether matches carry their capture groups (``Match/groups``). Off by default: reading the
    /// groups of every match costs an allocation per match that counting, listing or a replacement
    /// without group references does not need.
    public var capturesGroups: Bool {
        get { engine.capturesGroups }
        set { engine.capturesGroups = newValue }
    }

    /// The next match, or `nil` when there are no more.
    /// - Throws: ``MatchError/limitExceeded(_:offset:)`` when a regex hits a resource limit, and
    ///   ``MatchError/cancelled`` when the current task is cancelled.
    public mutating func next() throws(MatchError) -> Match? { try engine.next() }

    /// Calls `body` with each remaining match, in order, until it returns false: the matches
    /// ``next()`` would return, found faster by engines that can walk the text once for them all.
    mutating func forEachRemaining(_ body: (Match) throws(MatchError) -> Bool) throws(MatchError) {
        try engine.forEachRemaining(body)
    }

    /// Continues the search at `offset` (a scalar boundary at or after the start of the last match
    /// returned, plus one scalar).
    public mutating func skip(to offset: Int) { engine.reposition(to: offset) }
}

/// What a ``MatchCursor`` drives.
protocol MatchEngine: AnyObject {
    func next() throws(MatchError) -> Match?
    /// Calls `body` with each match ``next()`` would return, in order, until it returns false.
    func forEachRemaining(_ body: (Match) throws(MatchError) -> Bool) throws(MatchError)
    var capturesGroups: Bool { get set }
    func reposition(to offset: Int)
    /// Bytes of a small range, from a buffer the engine already holds when possible.
    func withBytes<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
}


extension MatchEngine {
    func forEachRemaining(_ body: (Match) throws(MatchError) -> Bool) throws(MatchError) {
        try forEachNext(body)
    }

    /// ``forEachRemaining(_:)`` by repeated ``next()`` calls (for an engine that has no faster way).
    func forEachNext(_ body: (Match) throws(MatchError) -> Bool) throws(MatchError) {
        while let match = try next() {
            guard try body(match) else { return }
        }
    }
}

/// Yields the occurrences of one literal, found by a ``LiteralScanner``.
final class LiteralSearch: MatchEngine {
    private let scanner: LiteralScanner
    @exclusivity(unchecked) private var position: Int

    private let reportEnd: Int
    @exclusivity(unchecked) private var steps = 0

    init(literal: PrefilterLiteral, text: any SearchableText, range: Range<Int>, context: Range<Int>) {
        // An occurrence starting in the range ends within the literal's length past it.
        let end = min(context.upperBound, range.upperBound + literal.units.count)
        scanner = LiteralScanner(literals: [literal], text: text, range: range.lowerBound..<end)
        position = range.lowerBound
        reportEnd = range.upperBound
    }

    func next() throws(MatchError) -> Match? {
        // Checking for cancellation costs about as much as finding a dense match: not every time.
        steps &+= 1
        if steps & 63 == 0 && Task.isCancelled { throw .cancelled }
        guard let occurrence = try scanner.next(from: position), occurrence.lowerBound < reportEnd else { return nil }
        position = occurrence.upperBound
        return Match(range: occurrence)
    }

    func reposition(to offset: Int) { position = offset }

    /// One walk of the text for all the occurrences: a seek per occurrence costs about as much as
    /// scanning the kilobytes between rare ones.
    func forEachRemaining(_ body: (Match) throws(MatchError) -> Bool) throws(MatchError) {
        var failure: MatchError?
        try scanner.forEachOccurrence(from: position) { occurrence in
            guard occurrence.lowerBound < reportEnd else { return false }
            position = occurrence.upperBound
            do throws(MatchError) {
                return try body(Match(range: occurrence))
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }

    /// A literal has no groups.
    var capturesGroups = false

    func withBytes<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        scanner.withBytes(in: range, body)
    }
}

/// An engine that finds nothing (an empty literal).
final class EmptySearch: MatchEngine {
    var capturesGroups = false
    func next() throws(MatchError) -> Match? { nil }
    func reposition(to offset: Int) {}
    func withBytes<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        [UInt8]().withUnsafeBufferPointer(body)
    }
}

/// An engine that changes which matches another engine's give and passes everything else on.
protocol FilteringEngine: MatchEngine {
    var base: any MatchEngine { get }
}

extension FilteringEngine {
    func reposition(to offset: Int) { base.reposition(to: offset) }

    var capturesGroups: Bool {
        get { base.capturesGroups }
        set { base.capturesGroups = newValue }
    }

    func withBytes<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        base.withBytes(in: range, body)
    }
}

/// Drops the empty match at the end of a text that is empty or ends with a line break: there, as
/// in grep and ripgrep, the line break ends the text and no empty last line follows it (so `^`
/// and `$` match once per line, and an empty file has no lines).
final class FinalLineBreakFilter: FilteringEngine {
    let base: any MatchEngine
    let range: Range<Int>

    init(base: any MatchEngine, range: Range<Int>) {
        self.base = base
        self.range = range
    }

    func next() throws(MatchError) -> Match? {
        guard let match = try base.next() else { return nil }
        if match.range.isEmpty && match.range.lowerBound == range.upperBound
            && (range.isEmpty || withBytes(in: (range.upperBound - 1)..<range.upperBound, { $0[0] == 0x0A })) {
            return nil // nothing can follow the end
        }
        return match
    }
}

/// Decoding single scalars at the edges of a few bytes of valid UTF-8.
enum UTF8Scalars {

    static func first(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard let lead = bytes.first else { return nil }
        let length = min(UTF8Bytes.scalarLength(lead: lead), bytes.count)
        return decode(UnsafeBufferPointer(rebasing: bytes[..<length]))
    }

    static func last(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard !bytes.isEmpty else { return nil }
        var start = bytes.count - 1
        while start > 0 && UTF8Bytes.isContinuation(bytes[start]) { start -= 1 }
        return decode(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }
}
