import Testing
import TrawlMatch
import TrawlText

/// Matching chunked text (random chunk sizes, and ropes) gives exactly what PCRE2 gives on one
/// contiguous buffer, for a few hundred patterns with and without case folding.
@Suite struct MatcherDifferentialTests {
    static let patterns: [String] = [
        // literals and classes
        "foo", "Foo", "bar|baz", "ab", "abc", "a", "é", "É", "ß", "straße", "中文", "😀", "👍🏽", "\\.", "\\(", "x1",
        "[abc]", "[^abc]", "[a-z]+", "[A-Z][a-z]+", "[éÉ]", "[😀a]", "\\d+", "\\w+", "\\W+", "\\s+", "\\S+", "\\h+", ".", ".+",
        "(?s).+", "\\N+", "\\X", "\\p{L}+", "\\p{Lu}", "\\P{L}+", "[[:alpha:]]+", "[[:space:]]+",
        // the benchmark patterns
        "\\w+Error\\b", "func\\s+\\w+\\(", "(struct|class|enum|protocol)\\s+[A-Z]\\w*", "[a-z]+ing\\b", "(?i)eventloop",
        // anchors and empty matches
        "^", "$", "^$", "\\b", "\\B", "x*", "a*", "(?:)", "a?", "^\\s*$", "^foo", "foo$", "bar$", "\\Afoo", "\\z", "\\Z",
        "^.*$", "\\G", "(?m)^a", "b\\b", "\\bfoo\\b", "\\berror\\b",
        // line endings: \n matches LF and CRLF
        "\\n", "\\r\\n", "\\r", "\\n\\n", "a\\nb", "foo\\s*\\n", "$\\n^", "\\R", "[\\r\\n]+", ".\\n", "\\v+",
        // lookaround, including across chunk boundaries
        "(?<=a)b", "(?<!a)b", "(?<=foo)bar", "(?<=ab)c", "(?<=\\n)foo", "(?<=é)\\w", "bar(?=baz)", "foo(?!bar)",
        "(?<=\\bfoo)\\s", "(?<![a-z])ing", "\\w+(?=\\()", "foo\\Kbar", "\\w+\\Ke",
        // groups and alternation
        "(a)(b)?", "(foo)|(bar)", "(?<word>\\w+)\\s+\\k<word>", "(a|b)+", "(?:ab)+", "((a)|b)+", "(\\w)\\1",
        "(?i)(foo|bar)", "(?i:f)oo", "a(?i)b", "(?x) f o o ", "(?x)foo # comment\n", "[a-c]{2,3}", "a{2}", "(ab){1,2}",
        "\\w{3,}", "(?>a+)b", "a++b", "a+?", "\\w+?ing", "(?|(a)|(b))", "(?U)a+", "(?n)(a)",
        // case-folding specials
        "k", "K", "s", "S", "Ж", "STRASSE", "\\x{212A}", "ſ", "[k-m]", "(?i)k", "(?i)ss",
        // single-line patterns that could cross a line break, starting with a known character
        // (matched on the whole text, redone per line when a match touches a line break)
        "a\\s*", "a\\s+b", "b[^x]*", "x[^a]", "e\\W", "a\\s*$", "é\\s?", "f\\D*", "c\\s*\\w", "(?i)k\\s",
        // escapes
        "\\x41", "\\x{1F600}", "\\t", "\\Qa.b\\E", "\\Q(\\E", "\\Qab\\E{2}", "x\\Qab\\E?y", "a\\E+b", "\\Qa|b\\E", "\\e", "\\cJ", "\\012",
    ]

    @Test(arguments: [false, true])
    func regexMatchesAreIndependentOfChunking(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ (caseless ? 1 : 0))
        let texts = (0..<(3 * Settings.scale)).map { _ in random.matchText(pieces: 200) } + [[], Array("a".utf8), Array("\r\n".utf8)]
        var checked = 0
        for pattern in Self.patterns {
            let oracle: ContiguousOracle
            do { oracle = try ContiguousOracle(pattern: pattern, caseless: caseless) } catch {
                Issue.record("oracle cannot compile \(pattern)")
                continue
            }
            let matcher = try RegexMatcher(pattern, options: MatchOptions(syntax: .regex, matchCase: !caseless))
            for text in texts {
                let expected = matcher.matchesLineByLine ? try oracle.matchesLineByLine(in: text) : try oracle.matches(in: text)
                let chunked = ChunkedText(chunks: random.chunks(of: text, maxSize: Int.random(in: 1...9, using: &random)))
                let rope = try Rope(validating: text)
                let contiguous = try ContiguousText(validating: text)
                let rangesOnly = expected.map { Match(range: $0.range) }
                for (name, actual, wanted) in [("chunked", try matcher.matches(in: chunked, capturingGroups: true), expected),
                                               ("rope", try matcher.matches(in: rope, capturingGroups: true), expected),
                                               ("contiguous", try matcher.matches(in: contiguous, capturingGroups: true), expected),
                                               ("no groups", try matcher.matches(in: rope), rangesOnly),
                                               ("borrowed", try text.withUnsafeBufferPointer { buffer in
                                                   try withBorrowedText(validating: buffer) { try matcher.matches(in: $0, capturingGroups: true) }
                                               }, expected)] where actual != wanted {
                    Issue.record("\(pattern) caseless=\(caseless) \(name): \(actual.prefix(5)) != \(expected.prefix(5)) in \(String(decoding: text, as: UTF8.self).debugDescription.prefix(200))")
                    return
                }
                checked += 1
            }
        }
        #expect(checked == Self.patterns.count * texts.count)
    }

    @Test(arguments: [false, true])
    func literalMatchesEqualTheEscapedRegex(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 7 &+ (caseless ? 1 : 0))
        let needles = ["foo", "o", "ab", "abab", "a\nb", "\n", "é", "straße", "STRASSE", "k", "😀", "Error", "e\u{301}", "\r\n",
                       " ", "..", "x1", "eventloop", "Ж"] + (0..<40).map { _ in String(decoding: random.matchText(pieces: 3), as: UTF8.self) }
        for needle in needles where !needle.isEmpty {
            let oracle = try ContiguousOracle(pattern: LiteralMatcher.escapedPattern(needle), caseless: caseless)
            let matcher = try LiteralMatcher(needle, options: MatchOptions(matchCase: !caseless))
            for _ in 0..<(4 * Settings.scale) {
                let text = random.matchText(pieces: 300)
                let expected = try oracle.matches(in: text)
                let chunked = ChunkedText(chunks: random.chunks(of: text, maxSize: Int.random(in: 1...7, using: &random)))
                let actual = try matcher.matches(in: chunked, capturingGroups: true)
                if actual != expected {
                    Issue.record("literal \(needle.debugDescription) caseless=\(caseless): \(actual.prefix(5)) != \(expected.prefix(5))")
                    return
                }
                #expect(try matcher.matches(in: Rope(validating: text), capturingGroups: true) == expected)
            }
        }
    }

    /// The literal kernel steps 128, then 32 bytes at a time and ends with one step overlapping
    /// the previous one: needles planted at every distance from the ends of contiguous texts of
    /// every length around those steps, in text made of the needle's own bytes (so that its two
    /// scanned bytes often occur without it), are found exactly where PCRE2 finds them.
    @Test(arguments: [false, true])
    func literalsInContiguousTextAreFoundAcrossEverySIMDStep(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 11 &+ (caseless ? 1 : 0))
        for needle in ["ab", "abc", "EventLoop", "xyxyz", "preconditionFailure"] {
            let oracle = try ContiguousOracle(pattern: LiteralMatcher.escapedPattern(needle), caseless: caseless)
            let matcher = try LiteralMatcher(needle, options: MatchOptions(matchCase: !caseless))
            let alphabet = Array(needle.utf8) + Array(needle.uppercased().utf8) + [0x20, 0x0A]
            for length in Array(0...300) + [511, 512, 513, 1000, 4096 + 37] {
                var text = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
                if length >= needle.utf8.count {
                    // One occurrence at a random place, and often one flush with the end.
                    let places = [Int.random(in: 0...(length - needle.utf8.count), using: &random), length - needle.utf8.count]
                    for place in places.prefix(Bool.random(using: &random) ? 2 : 1) {
                        text.replaceSubrange(place..<(place + needle.utf8.count), with: needle.utf8)
                    }
                }
                let expected = try oracle.matches(in: text)
                let actual = try matcher.matches(in: ContiguousText(validating: text), capturingGroups: false)
                if actual != expected {
                    Issue.record("literal \(needle.debugDescription) caseless=\(caseless) length \(length): \(actual.prefix(5)) != \(expected.prefix(5))")
                    return
                }
            }
        }
    }

    /// A set of literals is found in one pass by the multi-literal kernel: occurrences of any of
    /// them, overlapping prefixes and ties at one start included, at every distance from the SIMD
    /// steps' ends, in contiguous text and across chunk boundaries, as PCRE2 finds them.
    @Test(arguments: [false, true])
    func literalSetsAreFoundAcrossEverySIMDStepAndChunk(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 13 &+ (caseless ? 1 : 0))
        let sets = [["struct", "class", "enum", "protocol"], ["ab", "abc"], ["abc", "ab"], ["xyz", "yz", "zx"],
                    ["struct", "class", "enum", "protocol", "actor", "extension", "typealias", "func"],
                    ["abc", "abd", "bcd", "cab", "dab", "bca", "cda", "adc"]]
        for literals in sets {
            let pattern = (caseless ? "(?i)" : "") + "(?:" + literals.map(LiteralMatcher.escapedPattern).joined(separator: "|") + ")"
            let oracle = try ContiguousOracle(pattern: pattern, caseless: false)
            let matcher = try RegexMatcher(pattern)
            #expect(matcher.usesPrefilter, "\(pattern) is found through the literal kernel")
            let alphabet = Array(Set(Array(literals.joined().utf8) + Array(literals.joined().uppercased().utf8))).sorted() + [0x20, 0x0A]
            for length in Array(0...200) + [511, 512, 513, 1000, 4096 + 37] {
                var text = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    let literal = Array(literals.randomElement(using: &random)!.utf8)
                    guard length >= literal.count else { continue }
                    let place = Bool.random(using: &random) ? length - literal.count : Int.random(in: 0...(length - literal.count), using: &random)
                    text.replaceSubrange(place..<(place + literal.count), with: literal)
                }
                let expected = try oracle.matches(in: text)
                let contiguous = try matcher.matches(in: ContiguousText(validating: text), capturingGroups: false)
                let chunked = try matcher.matches(in: ChunkedText(chunks: random.chunks(of: text, maxSize: Int.random(in: 1...70, using: &random))),
                                                  capturingGroups: false)
                if contiguous != expected || chunked != expected {
                    Issue.record("\(pattern) length \(length): \(contiguous.prefix(5)) / \(chunked.prefix(5)) != \(expected.prefix(5))")
                    return
                }
            }
        }
    }

    @Test func prefilterIsUsedForPatternsWithRequiredLiterals() throws {
        // (`func\s+\w+\(` is attempted at each occurrence of its literal: see LiteralStartsTests.)
        for pattern in ["\\w+Error\\b", "(struct|class|enum|protocol)\\s+[A-Z]\\w*", "(?i)eventloop", "[a-z]+ing\\b", "func\\s+\\w+\\("] {
            #expect(try RegexMatcher(pattern).usesPrefilter, "\(pattern)")
        }
        // PCRE2 finds a known first character itself, faster than a prefilter would (with a lazy
        // repeat, each occurrence of the literal would be an attempt PCRE2 makes anyway).
        #expect(try !RegexMatcher("func\\s+\\w+?\\(").usesPrefilter)
        for pattern in ["\\w+", "a\\nb", "(?s)foo.*bar", "(?i)k"] {
            #expect(try !RegexMatcher(pattern).usesPrefilter, "\(pattern)")
        }
    }

    @Test func borrowedTextRejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62]
        #expect(throws: InvalidUTF8Error(offset: 1)) {
            try bytes.withUnsafeBufferPointer { buffer in try withBorrowedText(validating: buffer) { _ in 0 } }
        }
    }
}
