import Testing
import TrawlMatch
import TrawlText
import TrawlTestSupport

/// The find semantics of DESIGN.md, as an editor user sees them.
@Suite struct EditorSemanticsTests {
    func ranges(_ pattern: String, _ text: String, _ options: MatchOptions = .regex) throws -> [Range<Int>] {
        let matcher: any Matcher = options.syntax == .regex ? try RegexMatcher(pattern, options: options) : try LiteralMatcher(pattern, options: options)
        return try matcher.matches(in: Rope(text)).map(\.range)
    }

    @Test func onlyPatternsWithALineBreakMatchAcrossLines() throws {
        #expect(try ranges("foo\\s+bar", "foo\nbar").isEmpty)
        #expect(try ranges("foo\\s+bar", "foo  bar") == [0..<8])
        #expect(try ranges("foo\\nbar", "foo\nbar") == [0..<7])
        #expect(try ranges("foo\\nbar", "foo\r\nbar") == [0..<8], "\\n matches CRLF")
        #expect(try ranges("foo\nbar", "foo\r\nbar", MatchOptions()) == [0..<8], "a literal line feed matches CRLF")
        #expect(try ranges("[^x]+", "ab\ncd") == [0..<2, 3..<5])
        #expect(try ranges("\\s+$", "a \r\nb") == [1..<2], "a line ends before CRLF")
    }

    @Test func anchorsWorkAtLines() throws {
        #expect(try ranges("^", "a\nb\n") == [0..<0, 2..<2, 4..<4], "the empty last line has a start too")
        #expect(try ranges("$", "a\r\nb") == [1..<1, 4..<4])
        #expect(try ranges("^b", "a\r\nb") == [3..<4])
    }

    @Test func emptyMatchesStepOneScalar() throws {
        #expect(try ranges("x*", "é😀") == [0..<0, 2..<2, 6..<6])
        #expect(try ranges("(?:)", "ab") == [0..<0, 1..<1, 2..<2])
    }

    @Test func aCaselessNeedleTooLongForPCRE2Throws() {
        // Matched by PCRE2 (caseless `s` also matches the long s): 30,000 are more than it compiles.
        #expect(throws: MatchError.self) { try LiteralMatcher(String(repeating: "s", count: 30_000), options: MatchOptions(matchCase: false)) }
        #expect(throws: Never.self) { try LiteralMatcher(String(repeating: "s", count: 30_000)) }
    }

    @Test func caseFoldingIsUnicodeSimpleFolding() throws {
        let caseless = MatchOptions(matchCase: false)
        #expect(try ranges("straße", "STRAẞE straße", caseless) == [0..<8, 9..<16])
        #expect(try ranges("k", "K k \u{212A}", caseless) == [0..<1, 2..<3, 4..<7], "the Kelvin sign folds to k")
        #expect(try ranges("ж", "Ж ж", caseless) == [0..<2, 3..<5])
        #expect(try ranges("EventLoop", "eventloop EVENTLOOP", caseless) == [0..<9, 10..<19])
    }

    @Test func wholeWordUsesSeparatorsAndLettersOfEveryScript() throws {
        let whole = MatchOptions(wholeWord: true)
        #expect(try ranges("foo", "foo foobar (foo) foo.bar barfoo", whole) == [0..<3, 12..<15, 17..<20])
        #expect(try ranges("кот", "кот котик кот", whole) == [0..<6, 18..<24])
        #expect(try ranges("a", "aa a", whole) == [3..<4], "a rejected start retries one scalar later")
        #expect(try ranges(".bar", "foo.bar", whole) == [3..<7], "a match that starts with a separator is whole")
        var custom = whole
        custom.wordSeparators = WordSeparators("-")
        #expect(try ranges("foo", "foo-bar foo.bar", custom) == [0..<3])
        var regexWhole = MatchOptions.regex
        regexWhole.wholeWord = true
        #expect(try ranges("\\w+ing", "sing singer king", regexWhole) == [0..<4, 12..<16])
    }

    @Test func catastrophicPatternsStopAtALimit() throws {
        let text = Rope(String(repeating: "a", count: 30) + "b")
        #expect(throws: MatchError.self) { try RegexMatcher("(a+)+$").matches(in: text) }
        do {
            _ = try RegexMatcher("(a+)+$").matches(in: text)
        } catch {
            guard case .limitExceeded(let kind, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(kind == .matchLimit || kind == .depthLimit)
        }
        var tight = MatchOptions.regex
        tight.limits.matchLimit = 1000
        #expect(throws: MatchError.self) { try RegexMatcher("(\\w+)*[0-9]", options: tight).matches(in: Rope(String(repeating: "ab", count: 40))) }
        // A required literal that never occurs means PCRE2 never runs: no limit is reached.
        #expect(try RegexMatcher("(\\w+)*x", options: tight).matches(in: Rope(String(repeating: "ab", count: 40))).isEmpty)
    }

    @Test func searchingARangeTreatsItAsTheWholeText() throws {
        let rope = Rope("foo bar foo bar")
        let matcher = try RegexMatcher("^foo")
        #expect(try matcher.matches(in: rope, range: 8..<15).map(\.range) == [8..<11])
        #expect(try LiteralMatcher("bar").matches(in: rope, range: 5..<13).map(\.range) == [])
        #expect(try matcher.firstMatch(in: rope, startingAtOrAfter: 1) == nil)
        #expect(try LiteralMatcher("foo").firstMatch(in: rope, startingAtOrAfter: 1)?.range == 8..<11)
    }

    @Test func cancellationStopsALongSearch() async throws {
        let text = Rope(String(repeating: "abcdefgh\n", count: 200_000))
        let matcher = try RegexMatcher("\\w+z")
        let task = Task { () throws(MatchError) -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return try matcher.count(in: text)
        }
        let result = await task.result
        #expect(throws: MatchError.cancelled) { try result.get() }
    }

    @Test func multilinePatternsFollowVSCodesRule() throws {
        // isMultilineRegexSource: a line feed, \n, \r or \W.
        #expect(try !RegexMatcher("a\\Wb").matchesLineByLine)
        #expect(try ranges("a\\Wb", "a\nb") == [0..<3])
        #expect(try ranges("a[\\W]b", "a\nb") == [0..<3])
        #expect(try RegexMatcher("a\\sb").matchesLineByLine)
        #expect(try ranges("a\\sb", "a\nb").isEmpty)
    }

    @Test func javaScriptEscapesAreAccepted() throws {
        #expect(try ranges("caf\\u00e9", "café") == [0..<5])
        #expect(try ranges("\\u{1F600}+", "x😀😀") == [1..<9])
        #expect(try ranges("\\uD83D\\uDE00", "😀") == [0..<4], "a surrogate pair is one character")
        #expect(try ranges("[\\u00e9\\u{41}]+", "éAé-") == [0..<5])
        #expect(try ranges("\\u00C9", "é", MatchOptions(syntax: .regex, matchCase: false)) == [0..<2])
        // Offsets of errors still count in the pattern as written.
        #expect(throws: MatchError.invalidPattern(message: "missing closing parenthesis", offset: 10)) { try RegexMatcher("\\u{1F600}(") }
        #expect(throws: (any Error).self) { try RegexMatcher("\\u12") }
    }

    @Test func anEmptyPatternMatchesNothing() throws {
        #expect(try ranges("", "abc").isEmpty)
        #expect(try ranges("", "abc", MatchOptions()).isEmpty)
    }

    @Test func aCRInAPatternNeverFindsTheCROfACRLF() throws {
        #expect(try ranges("\\r", "a\r\nb\rc") == [4..<5], "only the lone CR")
        #expect(try ranges("\\r\\n", "a\r\nb").isEmpty)
        #expect(try ranges("a\r", "a\r\n", MatchOptions()).isEmpty, "a literal CR too")
        #expect(try ranges("a\\\r", "a\r\n").isEmpty, "an escaped raw CR too")
        #expect(try ranges("a\\\nb", "a\r\nb") == [0..<4], "an escaped raw line feed matches a CRLF")
        #expect(try ranges("[\\r\\n]+", "a\r\n\r\nb") == [1..<5])
        // A class that can match a line break takes a CRLF as one.
        #expect(try ranges("a\\Wb", "a\r\nb") == [0..<4])
        var across = MatchOptions.regex
        across.matchesAcrossLines = true
        #expect(try ranges("a[^x]b", "a\r\nb", across) == [0..<4])
        #expect(try ranges("[^x]", "\r\n", across) == [0..<2])
    }

    /// A document gives the same matches whatever its line endings: matching the CRLF version of
    /// a text finds the LF version's matches, each moved past the CRs before it.
    @Test func theSameMatchesWhateverTheLineEndings() throws {
        var random = SeededGenerator(seed: Settings.seed &+ 0xC21F)
        let patterns = ["a\\nb", "\\n\\n", "[^x]+\\n", "\\W+", "\\s+", "$", "^", "^$", "(?s)a.", "x\\R", "\\v+",
                        ".*", "\\w+$", "\\n^", "(?s)b.*?a", "[\\s\\S]{2}", "\\W"]
        var checked = 0
        for _ in 0..<(3 * Settings.scale) {
            let lf = String(decoding: random.matchText(pieces: 120), as: UTF8.self)
                .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "")
            let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
            let lfBytes = Array(lf.utf8)
            func moved(_ offset: Int) -> Int { offset + lfBytes[..<offset].filter { $0 == 0x0A }.count }
            for pattern in patterns {
                for across in [false, true] {
                    var options = MatchOptions.regex
                    options.matchesAcrossLines = across
                    let expected = try ranges(pattern, lf, options).map { moved($0.lowerBound)..<moved($0.upperBound) }
                    let actual = try ranges(pattern, crlf, options)
                    if actual != expected {
                        Issue.record("\(pattern) across=\(across): \(actual.prefix(6)) != \(expected.prefix(6)) in \(crlf.debugDescription.prefix(200))")
                        return
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 0)
    }

    @Test func aSearchFromInsideACRLFNeverReturnsAMatchBeforeIt() throws {
        let matcher = try RegexMatcher("\\n")
        #expect(try matcher.firstMatch(in: Rope("a\r\nb"), startingAtOrAfter: 2) == nil)
        #expect(try matcher.firstMatch(in: Rope("a\r\nb\r\n"), startingAtOrAfter: 2)?.range == 4..<6)
    }
}
