import Testing
import TrawlFind
import TrawlMatch
import TrawlTestSupport
import TrawlText

/// The navigator's match set, patched after each edit, equals a full search of the document —
/// after thousands of random edits (typing, deleting, pasting multi-byte text and CRLF, replacing
/// one match or all), undos and redos, for literal and regex queries, with and without find in selection.
@MainActor @Suite struct IncrementalMatchTests {
    nonisolated static let queries: [(String, MatchOptions)] = [
        ("foo", MatchOptions()),
        ("ab", MatchOptions()),
        ("a", MatchOptions(wholeWord: true)),
        ("eventloop", MatchOptions(matchCase: false)),
        ("straße", MatchOptions(matchCase: false)),
        ("\\w+Error\\b", .regex),
        ("^\\s*$", .regex),
        ("a\\s*", .regex),
        ("b$", .regex),
        ("(?<=a)b", .regex),
        ("a\\nb", .regex),
        ("\\n\\n", .regex),
        ("[a-z]+\\r?\\n[A-Z]", .regex),
        ("(?s)a.{0,3}b", .regex),
        ("x*", .regex),
        ("foo(?=bar)", .regex),
        // Multi-line matches of unbounded length, and empty ones (found by review).
        ("x\\n*y|\\n", .regex),
        ("\\n??", .regex),
        ("b\\W+a", .regex),
        // Bounded multi-line matches that can begin before a kept match near the edit.
        ("(?s)x.{1,3}y|b", .regex),
        ("a\\n?.?y|x", .regex),
        // A multi-line match that looks ahead (past a scope's end) and behind.
        ("x\\n(?=ay)|(?<=b)\\n", .regex),
    ]

    nonisolated static let pieces = ["foo", "bar", "ab", "a", "b", " ", "\n", "\r\n", "Error", "x", "é", "😀", "eventLoop", "STRASSE", "\r", "-", "y"]

    @Test(arguments: 0..<IncrementalMatchTests.queries.count)
    func patchedMatchesEqualAFullSearch(queryIndex: Int) throws {
        let (query, options) = IncrementalMatchTests.queries[queryIndex]
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x66696E64) &+ UInt64(queryIndex))
        let document = TextDocument(String(decoding: random.matchText(pieces: 60), as: UTF8.self))
        let navigator = FindNavigator(document: document)
        navigator.options = options
        navigator.query = query
        let steps = 300 * PropertyTestSettings.scale
        for step in 0..<steps {
            let length = document.text.utf8Count
            switch Int.random(in: 0..<11, using: &random) {
            case 0..<5: // type or paste at a random place
                let at = document.text.clamp(Int.random(in: 0...length, using: &random))
                let insert = (0..<Int.random(in: 1...3, using: &random)).map { _ in IncrementalMatchTests.pieces.randomElement(using: &random)! }.joined()
                document.replace(at..<at, with: insert)
            case 5..<8: // delete or replace a random range
                let a = document.text.clamp(Int.random(in: 0...length, using: &random))
                let b = document.text.clamp(min(length, a + Int.random(in: 0...8, using: &random)))
                document.replace(a..<max(a, b), with: Bool.random(using: &random) ? "" : IncrementalMatchTests.pieces.randomElement(using: &random)!)
            case 8:
                document.undo()
            case 9: // replace the current match, or all of them (edits made by the navigator)
                navigator.replacement = IncrementalMatchTests.pieces.randomElement(using: &random)!
                // (Not when matches are many: an empty-matching query would double the text.)
                if Int.random(in: 0..<4, using: &random) == 0 && navigator.matchCount < 20 {
                    _ = try? navigator.replaceAll()
                } else {
                    _ = try? navigator.replace()
                }
            default:
                if Bool.random(using: &random) { document.redo() } else {
                    // Several places at once (multi-cursor typing).
                    let carets = (0..<3).map { _ in document.text.clamp(Int.random(in: 0...length, using: &random)) }
                    document.select(carets.map { $0..<$0 })
                    document.insertAtSelections(IncrementalMatchTests.pieces.randomElement(using: &random)!)
                }
            }
            if step % 41 == 0 {
                // Find in selection over two ranges, now and then.
                let a = document.text.clamp(Int.random(in: 0...document.text.utf8Count, using: &random))
                let b = document.text.clamp(Int.random(in: a...document.text.utf8Count, using: &random))
                navigator.restrict(to: Bool.random(using: &random) ? nil : [0..<a, b..<document.text.utf8Count])
            }
            let expected = try fullSearch(query, options, document.text, scopes: navigator.scopes)
            if navigator.matches.ranges != expected {
                Issue.record("\(query) step \(step): \(navigator.matches.ranges.prefix(8)) != \(expected.prefix(8)) in \(document.text.description.debugDescription.prefix(300))")
                return
            }
        }
    }

    /// A fresh search with a fresh matcher: the oracle.
    func fullSearch(_ query: String, _ options: MatchOptions, _ text: Rope, scopes: [Range<Int>]?) throws -> [Range<Int>] {
        var options = options
        options.emptyMatchRule = .skippedWhereAMatchEndedItsLine // the navigator's, an editor's
        let matcher: any Matcher = options.syntax == .regex ? try RegexMatcher(query, options: options) : try LiteralMatcher(query, options: options)
        var result: [Range<Int>] = []
        for range in scopes ?? [0..<text.utf8Count] {
            var cursor = matcher.cursor(over: text, in: range, context: 0..<text.utf8Count)
            while let match = try cursor.next(), match.range.upperBound <= range.upperBound { result.append(match.range) }
        }
        return result
    }
}
