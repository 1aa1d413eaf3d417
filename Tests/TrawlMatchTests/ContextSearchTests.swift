import Testing
import TrawlMatch
import TrawlText

/// Searching a range with its context: exactly the matches of the whole text that start in the
/// range, with anchors, word boundaries and lookaround seeing past the range's edges — for ropes,
/// chunked and contiguous texts, and every pattern of the differential suite.
@Suite struct ContextSearchTests {
    /// Whether a match of the whole text belongs to `range` (the empty match at the very end
    /// belongs to the range that ends there).
    func belongs(_ match: Match, to range: Range<Int>, textEnd: Int) -> Bool {
        range.contains(match.range.lowerBound) || (match.range.lowerBound == range.upperBound && range.upperBound == textEnd)
    }

    @Test(arguments: [false, true])
    func rangesWithContextGiveTheWholeTextsMatches(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 0xC0 &+ (caseless ? 1 : 0))
        let texts = (0..<(2 * Settings.scale)).map { _ in random.matchText(pieces: 120) } + [[], Array("a\r\nb".utf8)]
        // `\G` anchors where a search starts, and `\K` reports a match after text it consumed (a
        // cut there is inside a match in progress): both depend on the cut by definition.
        for pattern in MatcherDifferentialTests.patterns where !pattern.contains("\\G") && !pattern.contains("\\K") {
            let options = MatchOptions(syntax: .regex, matchCase: !caseless)
            let matcher = try RegexMatcher(pattern, options: options)
            for bytes in texts {
                let rope = Rope(String(decoding: bytes, as: UTF8.self))
                let chunked = ChunkedText(chunks: random.chunks(of: bytes, maxSize: 7))
                let whole = try matcher.matches(in: rope)
                // A partition of the text into pieces cut where no match is in progress: at line
                // starts for patterns that cannot span lines, else at random scalar boundaries
                // outside every match.
                var cuts = [0, bytes.count]
                let lineStarts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
                for _ in 0..<4 {
                    var cut: Int
                    if !matcher.canMatchAcrossLines && Bool.random(using: &random) {
                        cut = lineStarts.randomElement(using: &random)!
                    } else {
                        cut = Int.random(in: 0...bytes.count, using: &random)
                        while cut < bytes.count && UTF8Bytes.isContinuation(bytes[cut]) { cut += 1 }
                    }
                    // Not inside a match, nor where one ends (a fresh search there could report an
                    // empty match that the whole search, just after that match, does not).
                    if whole.contains(where: { $0.range.lowerBound < cut && cut <= $0.range.upperBound }) { continue }
                    if cut > 0 && cut < bytes.count && bytes[cut - 1] == 0x0D && bytes[cut] == 0x0A { continue } // inside a line break
                    cuts.append(cut)
                }
                cuts = Array(Set(cuts)).sorted()
                var union: [Match] = []
                for (lower, upper) in zip(cuts, cuts.dropFirst()) {
                    let range = lower..<upper
                    var cursor = matcher.cursor(over: rope, in: range, context: 0..<bytes.count)
                    var found: [Match] = []
                    while let match = try cursor.next() { found.append(match) }
                    let expected = whole.filter { belongs($0, to: range, textEnd: bytes.count) }
                    #expect(found.map(\.range) == expected.map(\.range), "\(pattern) in \(range) of \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                    var chunkedCursor = matcher.cursor(over: chunked, in: range, context: 0..<bytes.count)
                    var chunkedFound: [Match] = []
                    while let match = try chunkedCursor.next() { chunkedFound.append(match) }
                    #expect(chunkedFound.map(\.range) == expected.map(\.range), "chunked: \(pattern) in \(range)")
                    union += found
                }
                if bytes.isEmpty { union = try matcher.matches(in: rope, range: 0..<0) }
                #expect(union.map(\.range) == whole.map(\.range), "\(pattern): the pieces together")
            }
        }
    }

    @Test func anchorsAndLookaroundSeeTheContext() throws {
        let rope = Rope("foo bar\nfoobar barfoo")
        func ranges(_ matcher: some Matcher, in range: Range<Int>) throws -> [Range<Int>] {
            var cursor = matcher.cursor(over: rope, in: range, context: 0..<rope.utf8Count)
            var result: [Range<Int>] = []
            while let match = try cursor.next() { result.append(match.range) }
            return result
        }
        // `^` at a line start inside the range, not at the range's start.
        #expect(try ranges(RegexMatcher("^foo"), in: 4..<20) == [8..<11])
        // `\b` sees the letter before the range.
        #expect(try ranges(RegexMatcher("\\bbar"), in: 12..<21) == [15..<18])
        // Lookbehind reaches before the range; lookahead past it; a match may end past it.
        #expect(try ranges(RegexMatcher("(?<=foo)bar"), in: 11..<14) == [11..<14])
        #expect(try ranges(RegexMatcher("bar(?=foo)"), in: 15..<16) == [15..<18])
        #expect(try ranges(RegexMatcher("foo\\s\\w+"), in: 0..<1) == [0..<7])
        // Literal and whole-word matching too.
        #expect(try ranges(try LiteralMatcher("foo"), in: 9..<19) == [18..<21])
        let word = try LiteralMatcher("bar", options: MatchOptions(wholeWord: true))
        #expect(try ranges(word, in: 4..<20) == [4..<7])
    }

    @Test func firstMatchStartsAtTheOffsetForLineByLinePatterns() throws {
        // Matched line by line: a fresh cursor must not go back to the start of the line.
        let rope = Rope("a b\nc d")
        for pattern in ["\\W", "\\s", "(?<=a)\\s", "\\w"] {
            let matcher = try RegexMatcher(pattern)
            let all = try matcher.matches(in: rope)
            for offset in 0...7 {
                let expected = all.first { $0.range.lowerBound >= offset }
                #expect(try matcher.firstMatch(in: rope, startingAtOrAfter: offset)?.range == expected?.range, "\(pattern) from \(offset)")
            }
        }
    }

    @Test func skipOnAFreshCursorIsHonoured() throws {
        // Skipping before the first match: the cursor must start there, not at the line's start.
        let rope = Rope("a b\r\nc d\ne f")
        for pattern in ["\\W", "\\s", "(?<=a)\\s", "\\w", "foo|\\w"] {
            let matcher = try RegexMatcher(pattern)
            let all = try matcher.matches(in: rope)
            // Any scalar boundary but the middle of a CRLF (one line break).
            for offset in 0...rope.utf8Count where !(offset > 0 && rope.byte(at: offset - 1) == 0x0D && offset < rope.utf8Count && rope.byte(at: offset) == 0x0A) {
                var cursor = matcher.cursor(over: rope)
                cursor.skip(to: offset)
                let expected = all.first { $0.range.lowerBound >= offset }
                #expect(try cursor.next()?.range == expected?.range, "\(pattern) skipping to \(offset)")
            }
        }
    }

    @Test func wholeWordRetriesNeverStopBetweenCRAndLF() throws {
        // "\nab" (the CRLF as one line break) is rejected, a word character follows; the retry
        // starts one character later, after the whole CRLF, never between its CR and its LF (where
        // the second alternative would find the LF alone).
        let matcher = try RegexMatcher("\\nab|\\n", options: MatchOptions(syntax: .regex, wholeWord: true))
        #expect(try matcher.matches(in: Rope("x\r\nab1")).isEmpty)
        #expect(try matcher.matches(in: Rope("x\nab1")).isEmpty)
    }

    @Test func noEmptyMatchWhereAMatchEnded() throws {
        // VS Code finds `.*` once per line, as rg -P, Rust's regex and sd do.
        #expect(try RegexMatcher(".*").matches(in: Rope("abc\ndef\n\nx\n")).map(\.range) == [0..<3, 4..<7, 8..<8, 9..<10, 11..<11])
        #expect(try RegexMatcher("a*").matches(in: Rope("aab")).map(\.range) == [0..<2, 3..<3])
        #expect(try RegexMatcher("(?s)x*").matches(in: Rope("xx\nx")).map(\.range) == [0..<2, 3..<4])
    }
}
