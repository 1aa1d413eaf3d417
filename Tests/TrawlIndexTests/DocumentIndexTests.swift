import Testing
import TrawlIndex
import TrawlMatch
import TrawlTestSupport
import TrawlText
import TrawlNGram

/// The document index never loses a match: searching only its candidate regions gives exactly the
/// matches of a full search, after any sequence of edits; and once compacted it lists for each
/// unit exactly the trigrams starting there.
@Suite struct DocumentIndexTests {
    static let queries: [(String, MatchOptions)] = [
        ("foo", MatchOptions()), ("Error", MatchOptions()), ("error", MatchOptions(matchCase: false)),
        ("ParseError", MatchOptions(wholeWord: true)), ("func ", MatchOptions()), ("straße", MatchOptions(matchCase: false)),
        ("é", MatchOptions(matchCase: false)), ("bar\nfoo", MatchOptions()),
        ("\\w+Error\\b", .regex), ("(foo|baz)bar", .regex), ("(?i)struct\\s+\\w+", .regex), ("foo.*bar", .regex),
        ("^\\s*class ", .regex), ("(?<=foo)bar", .regex), ("ba[rz]$", .regex), ("k", MatchOptions(matchCase: false)),
        ("kelvin", MatchOptions(matchCase: false)), ("(?i)SSS", .regex), ("fo", MatchOptions()), ("ror\\b|\\bba", .regex),
        ("a\\nb", .regex), ("[^x]oo", .regex),
    ]

    static let pieces = ["foo", "bar", "baz", "Error", "error", "ParseError", "func ", "struct ", "class ", "\n", "\r\n",
                         " ", "é", "É", "straße", "STRASSE", "\u{212A}elvin", "KELVIN", "ſ", "S", "😀", "x", "ba", "r"]

    func matchers() throws -> [any Matcher] {
        try DocumentIndexTests.queries.map { query, options throws -> any Matcher in
            if options.syntax == .regex { return try RegexMatcher(query, options: options) }
            return try LiteralMatcher(query, options: options)
        }
    }

    func fullSearch(_ matcher: any Matcher, _ text: Rope) throws -> [Range<Int>] {
        var found: [Range<Int>] = []
        var cursor = matcher.cursor(over: text)
        while let match = try cursor.next() { found.append(match.range) }
        return found
    }

    /// With `parallel`, the regions are searched on the cores whatever their size.
    func indexedSearch(_ matcher: any Matcher, _ index: DocumentIndex, _ text: Rope, parallel: Bool = false) throws -> [Range<Int>] {
        var found: [Range<Int>] = []
        try index.forEachMatch(of: matcher, in: text, parallelFrom: parallel ? 0 : .max) { found.append($0.range) }
        return found
    }

    /// Each unit's trigrams, read straight from the text.
    func expectedTrigrams(_ index: DocumentIndex, _ text: Rope) -> [Set<UInt32>] {
        let bytes = Array(text.bytes())
        return index.unitRanges.map { range in
            var keys = Set<UInt32>()
            for start in range where start + 3 <= bytes.count {
                keys.insert(Trigram(bytes[start], bytes[start + 1], bytes[start + 2]).key)
            }
            return keys
        }
    }

    @Test(arguments: [64, 200])
    func indexedSearchEqualsAFullSearchThroughEdits(unitLength: Int) throws {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x1D3) &+ UInt64(unitLength))
        let matchers = try matchers()
        var text = Rope(String((0..<400).map { _ in DocumentIndexTests.pieces.randomElement(using: &random)! }.joined()))
        var index = DocumentIndex(text, unitLength: unitLength)
        var narrowed = 0
        for step in 0..<(400 * PropertyTestSettings.scale) {
            let old = text
            var edits: [TextEdit] = []
            for _ in 0..<(Int.random(in: 0..<8, using: &random) == 0 ? 3 : 1) {
                let length = text.utf8Count
                let a = text.clamp(Int.random(in: 0...length, using: &random))
                let big = Int.random(in: 0..<20, using: &random) == 0
                let b = text.clamp(min(length, a + Int.random(in: 0...(big ? 3 * unitLength : 6), using: &random)))
                let insert = (0..<Int.random(in: 0...(big ? 60 : 2), using: &random)).map { _ in DocumentIndexTests.pieces.randomElement(using: &random)! }.joined()
                edits.append(text.replace(a..<max(a, b), with: insert))
            }
            index.update(after: edits, from: old, to: text)
            for matcher in matchers where step % 5 == 0 {
                if index.candidateRegions(for: matcher, in: text) != nil { narrowed += 1 }
                let expected = try fullSearch(matcher, text)
                let found = try indexedSearch(matcher, index, text, parallel: step % 10 == 0)
                if found != expected {
                    Issue.record("step \(step) \(matcher): \(found.prefix(6)) != \(expected.prefix(6))")
                    return
                }
            }
            if step % 50 == 0 {
                index.compact(in: text)
                if index.trigramsByUnit != expectedTrigrams(index, text) {
                    Issue.record("step \(step): the compacted index differs from the text's trigrams")
                    return
                }
            }
        }
        // The index narrowed most searches (else this test would prove little).
        #expect(narrowed > 400 * PropertyTestSettings.scale / 5 * matchers.count / 3)
    }

    @Test func aRareLiteralNamesFewRegions() throws {
        let line = "let value = compute(input)\n"
        var text = Rope(String(repeating: line, count: 5000))
        var index = DocumentIndex(text, unitLength: 1024)
        let matcher = try LiteralMatcher("needle", options: MatchOptions())
        #expect(index.candidateRegions(for: matcher, in: text) == [])
        let old = text
        let edit = text.replace(70_000..<70_000, with: "needle")
        index.update(after: [edit], from: old, to: text)
        let regions = try #require(index.candidateRegions(for: matcher, in: text))
        #expect(regions.count == 1 && regions[0].count <= 2 * 1024 + 2 * line.utf8.count + 6)
        #expect(try indexedSearch(matcher, index, text) == [70_000..<70_006])
    }

    @Test func aLiteralAcrossAUnitBoundaryIsFoundWhereverTheBoundaryCutsIt() throws {
        // Its trigrams occur nowhere else, so each is in one unit only: the unit of the rarest
        // must lead back to the unit where the occurrence starts.
        for shift in 0..<80 {
            let text = Rope(String(repeating: "-", count: 128 + shift) + "quokkazebra" + String(repeating: "-\n", count: 60))
            let index = DocumentIndex(text, unitLength: 64)
            let matcher = try LiteralMatcher("quokkazebra", options: MatchOptions())
            #expect(try indexedSearch(matcher, index, text) == [(128 + shift)..<(139 + shift)], "shift \(shift)")
        }
    }

    @Test func theLiteralsOfAMatchMayLieUnitsApartOnOneLine() throws {
        let text = Rope("foo" + String(repeating: "x", count: 300) + "bar\n" + String(repeating: "bar bar\n", count: 50))
        let index = DocumentIndex(text, unitLength: 64)
        let matcher = try RegexMatcher("foo.*bar", options: .regex)
        #expect(try indexedSearch(matcher, index, text) == [0..<306])
        // The lines holding only `bar` are not searched.
        let regions = try #require(index.candidateRegions(for: matcher, in: text))
        #expect(regions == [0..<307])
    }

    @Test func patternsThatCanCrossLinesOrLackALiteralSearchEverything() throws {
        let text = Rope("foo\nbar\n")
        let index = DocumentIndex(text, unitLength: 64)
        #expect(index.candidateRegions(for: try RegexMatcher("foo\\nbar", options: .regex), in: text) == nil)
        #expect(index.candidateRegions(for: try LiteralMatcher("fo", options: MatchOptions()), in: text) == nil)
        #expect(index.candidateRegions(for: try RegexMatcher("\\w+", options: .regex), in: text) == nil)
    }
}
