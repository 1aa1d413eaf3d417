import Testing
@testable import TrawlMatch
import TrawlTestSupport
import TrawlText

/// Patterns that start with their literals and never backtrack (`func\s+\w+\(`) are attempted only
/// at the literals' occurrences, decided by comparing bytes where they can be
/// (``LiteralStartsStrategy``): they find exactly what PCRE2 finds line by line on one contiguous
/// buffer, from any start, with whole words, groups or not, in any chunking.
@Suite struct LiteralStartsTests {
    static let shaped = [
        "func\\s+\\w+\\(", "(struct|class|enum|protocol)\\s+[A-Z]\\w*", "(?:ab|cd)\\w+\\b", "ab\\s*cd", "ab[0-9]{2}x", "zx[a-c]+-\\d*",
        "struct\\s+[a-z]\\w*\\s*=", "ab\\b", "(ab|abc)\\b", "(abc|ab)\\s", "ab\\S+\\b", "ab[^ ]*", "cd[^a-z]", "ab\\d{2,}\\b", "ab\\s+\\(",
        "(struct|ab)\\s\\w*\\b", "(ab|abc)[^ ]", "ab[\\]x]+",
        // Literals that can overlap (one starts inside another): walked one occurrence at a time.
        "(ab|ba)\\s*\\w", "abab\\d*", "(abc|bcd)\\s",
    ]
    /// Shapes not taken: caseless, a top-level alternative, quantified literals, repeats that could
    /// give back characters to what follows (`\w+\d`), lazy or possessive repeats, assertions,
    /// dots, an empty alternative, POSIX classes, line breaks, a literal the prefilter does not use.
    static let notShaped = [
        "(?i)func\\s+\\w+", "func|class", "ab+c", "(ab|cd)+x", "func\\w+\\d", "func\\s*\\s", "func.*x", "func\\w+?x", "func\\w++x",
        "func$", "^func", "func(?=x)", "(ab|)x", "fu[[:alpha:]]+", "func\\n", "func\\s+\\w+\\b\\(", "(?x)func \\w", "func\\w{2,5}x",
        "a\\s+veryRareLiteral",
        // Literal sets whose scan returns occurrences in the order of their rarest bytes (one byte
        // long, or more than eight), and `\c` taking the backslash after it in a class.
        "(aqz|q)\\d", "(Int|UInt8|UInt16|UInt32|UInt64|Int8|Int16|Int32|Int64)\\s*\\(", "zq[\\c\\]x]",
    ]
    static let alphabet = ["ab", "zx", "abc", "cd", "d", "func", "struct", "class", "enum", "Enum", "protocol", "let", "=", " = ", "x", "-",
                           "(", "[", "]", "]x", " ", "  ", "\t", "\n", "\r\n", "\r", "Foo", "_", "1", "42", "é", "É", "中", "\u{A0}", "—"]

    static func text(_ random: inout SeededGenerator) -> [UInt8] { randomText(from: alphabet, using: &random) }

    @Test func shapedPatternsAreAttemptedAtTheirLiterals() throws {
        for pattern in Self.shaped {
            #expect(try RegexMatcher(pattern).literalStarts != nil, "\(pattern)")
            #expect(try RegexMatcher(pattern, options: MatchOptions(syntax: .regex, matchCase: false)).literalStarts == nil, "\(pattern)")
            var acrossLines = MatchOptions.regex
            acrossLines.matchesAcrossLines = true
            #expect(try RegexMatcher(pattern, options: acrossLines).literalStarts == nil, "\(pattern)")
        }
        for pattern in Self.notShaped {
            #expect(try RegexMatcher(pattern).literalStarts == nil, "\(pattern)")
        }
    }

    /// The patterns not taken still find what PCRE2 finds line by line.
    @Test func patternsNotTakenMatchAsPCRE2() throws {
        let texts = ["aqz1 q2", "UInt8( Int16 ( Int(", "zq\u{1C}x] zq]x"].map { Array($0.utf8) }
        for pattern in Self.notShaped {
            let matcher = try RegexMatcher(pattern)
            let oracle = try ContiguousOracle(pattern: pattern, caseless: false)
            for text in texts {
                #expect(try matcher.matches(in: try Rope(validating: text)).map(\.range) == oracle.matchesLineByLine(in: text).map(\.range),
                        "\(pattern) in \(String(decoding: text, as: UTF8.self).debugDescription)")
            }
        }
    }

    /// On ASCII text without line breaks in the way, every attempt is decided by the walk.
    @Test func asciiAttemptsAreDecidedWithoutPCRE2() throws {
        let text = Array("func  go(x) func\tf2( functional struct Foo class bar enum E_1 protocol P".utf8)
        for pattern in ["func\\s+\\w+\\(", "(struct|class|enum|protocol)\\s+[A-Z]\\w*"] {
            let shape = try #require(RegexMatcher(pattern).literalStarts).pattern
            let oracle = try ContiguousOracle(pattern: pattern, caseless: false)
            let starts = try oracle.matches(in: text).map(\.range)
            var decided: [Range<Int>] = []
            for start in text.indices {
                switch shape.decide(at: start, subjectEnd: text.count, byte: { text[$0] }) {
                case .match(let end): decided.append(start..<end)
                case .none: break
                case .undecided: Issue.record("\(pattern): undecided at \(start)")
                }
            }
            #expect(decided == starts, "\(pattern)")
        }
    }

    @Test(arguments: [false, true])
    func matchesEqualContiguousPCRE2LineByLine(capturingGroups: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 17 &+ (capturingGroups ? 1 : 0))
        let texts = (0..<(4 * Settings.scale)).map { _ in Self.text(&random) }
            + [Array("func \nf(x)\r\nfunc\r\n g(".utf8), Array("struct\u{A0}Foo class  Bar\r".utf8), Array("abcd ab\u{2028}cd".utf8),
               // Occurrences starting inside others (and inside a match).
               Array("abababc classtruct Foo".utf8), Array("abcd ababab1".utf8)]
        for pattern in Self.shaped {
            let matcher = try RegexMatcher(pattern)
            #expect(matcher.literalStarts != nil, "\(pattern)")
            let oracle = try ContiguousOracle(pattern: pattern, caseless: false)
            for text in texts {
                let expected = try oracle.matchesLineByLine(in: text)
                // A context that ends inside the text is a subject that ends there.
                let (end, inContext) = try matchesInContextEndingInside(text, matcher: matcher, using: &random)
                let expectedInContext = try oracle.matchesLineByLine(in: Array(text[..<end])).map(\.range)
                if inContext != expectedInContext {
                    Issue.record("\(pattern) context 0..<\(end): \(inContext.prefix(5)) != \(expectedInContext.prefix(5)) in \(String(decoding: text, as: UTF8.self).debugDescription)")
                    return
                }
                let chunked = ChunkedText(chunks: random.chunks(of: text, maxSize: Int.random(in: 1...9, using: &random)))
                for (name, actual) in [("rope", try matcher.matches(in: try Rope(validating: text), capturingGroups: capturingGroups)),
                                       ("chunked", try matcher.matches(in: chunked, capturingGroups: capturingGroups)),
                                       ("contiguous", try matcher.matches(in: try ContiguousText(validating: text), capturingGroups: capturingGroups))]
                where actual.map(\.range) != expected.map(\.range) || capturingGroups && actual.map(\.groups) != expected.map(\.groups) {
                    Issue.record("\(pattern) \(name): \(actual.prefix(5)) != \(expected.prefix(5)) in \(String(decoding: text, as: UTF8.self).debugDescription)")
                    return
                }
            }
        }
    }

    /// Matches taken one by one and then the rest in one walk, on one cursor, are the matches.
    @Test func nextThenTheWalkFindEveryMatchOnce() throws {
        var random = SeededGenerator(seed: Settings.seed &+ 23)
        for pattern in Self.shaped {
            let matcher = try RegexMatcher(pattern)
            let oracle = try ContiguousOracle(pattern: pattern, caseless: false)
            for _ in 0..<(2 * Settings.scale) {
                let text = Self.text(&random)
                let expected = try oracle.matchesLineByLine(in: text).map(\.range)
                var cursor = matcher.cursor(over: try Rope(validating: text), in: 0..<text.count, context: 0..<text.count)
                let found = try rangesByNextThenWalk(&cursor, using: &random)
                if found != expected {
                    Issue.record("\(pattern): \(found.prefix(5)) != \(expected.prefix(5)) in \(String(decoding: text, as: UTF8.self).debugDescription)")
                    return
                }
            }
        }
    }

    @Test func placesWhereLiteralsOverlapAreKnown() {
        #expect(LiteralStarts.overlapShifts([Array("abab".utf8)]) == [2])
        #expect(LiteralStarts.overlapShifts([Array("ab".utf8), Array("ba".utf8)]) == [1])
        #expect(LiteralStarts.overlapShifts([Array("abc".utf8), Array("b".utf8)]) == [1])
        #expect(LiteralStarts.overlapShifts([Array("func".utf8)]) == [])
        #expect(LiteralStarts.overlapShifts(["struct", "class", "enum", "protocol"].map { Array($0.utf8) }) == [4])
    }

    /// Searches that start inside a match, go on one character after a match's start, stop inside
    /// the text or keep whole words only find what the pattern finds without the strategy (the
    /// same pattern inside a group, which the shape does not take).
    @Test(arguments: [false, true])
    func rangesAndWholeWordsEqualSearchingWithoutTheStrategy(wholeWord: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 19 &+ (wholeWord ? 1 : 0))
        for pattern in Self.shaped {
            let fast = try RegexMatcher(pattern, options: MatchOptions(syntax: .regex, wholeWord: wholeWord))
            let slow = try RegexMatcher("(?:\(pattern))", options: MatchOptions(syntax: .regex, wholeWord: wholeWord))
            #expect(fast.literalStarts != nil && slow.literalStarts == nil, "\(pattern)")
            for _ in 0..<(2 * Settings.scale) {
                let text = Self.text(&random)
                let rope = try Rope(validating: text)
                // (The range ends before its context half the time.)
                let range = randomSearchRange(in: text, using: &random)
                let (actual, expected) = (try matchesSkippingEveryOther(fast, in: text, rope: rope, range: range),
                                          try matchesSkippingEveryOther(slow, in: text, rope: rope, range: range))
                if actual.map(\.range) != expected.map(\.range) {
                    Issue.record("\(pattern) in \(range): \(actual.prefix(5)) != \(expected.prefix(5)) in \(String(decoding: text, as: UTF8.self).debugDescription)")
                    return
                }
            }
        }
    }
}
