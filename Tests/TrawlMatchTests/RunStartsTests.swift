import Testing
@testable import TrawlMatch
import TrawlTestSupport
import TrawlText

/// Patterns that start with a class repeated without bound before their literal (`[a-z]+ing\b`)
/// are tried only at the run starts before the literal's occurrences (``RunStartsStrategy``): they
/// find exactly what PCRE2 finds on one contiguous buffer, and exactly what searching every
/// candidate line finds, from any start, with whole words, in any chunking.
@Suite struct RunStartsTests {
    static let shaped = [
        "[a-z]+ing\\b", "\\w+Error\\b", "[a-z]+ing", "[a-z]*ing", "[a-z]+?ing", "[a-z]++ing", "[abg]{2,}ing", "\\d+Error", "\\d*Error",
        "[a-zé]+ing", "[a-zé]*ing\\b", "\\S+Error", "\\w*+ing",
        "[a-z]+?ing\\b", "[a-z]++ing\\b", "[abg]{2,}ing\\b", "\\d+Error\\b", "\\w+ing\\b", "[a-z]+g-\\b", "[a-z]+ing\\B", "\\w+Error$",
        "\\d++Error\\b", "\\d{3,}+Error", "[a-z]*?ing\\b", "[abg]{2,}?ing",
    ]
    /// Shaped patterns whose attempts PCRE2 makes: something other than `\\b` after the literal.
    static let undecided = ["[a-z]+ing\\B", "\\w+Error$"]
    /// Runs, literals inside and after them, characters beyond ASCII in and out of the classes.
    static let alphabet = ["a", "b", "ab", "ba", "i", "n", "g", "in", "ing", "Ing", "INGX", "Error", "error", "Err", "or", "x", "1", "42",
                           " ", "  ", "\n", "\r\n", "_", "é", "É", "中", "-", "x", "—"]

    static func text(_ random: inout SeededGenerator) -> [UInt8] { randomText(from: alphabet, using: &random) }

    @Test func shapedPatternsAreSearchedFromRunStarts() throws {
        for pattern in Self.shaped {
            #expect(try RegexMatcher(pattern).runStarts != nil, "\(pattern)")
        }
        // An alternative at the top, an upper bound, a quantified last literal character, no
        // literal right after the repeat, two literals, a class that may hold a line break (PCRE2
        // says so when the analysis cannot: `\t-~` is a range holding LF), a quantified literal, or
        // assertions tied to the search start: every line.
        for pattern in ["[a-z]+ing|x", "[a-z]{2,5}ing", "[a-z]+in+", "[a-z]+(ing)", "\\w+\\KError", "\\w+(?<=e)rror",
                        "\\Gab+ing", "a+ing", "(?i)[a-z]+ing", "[a-z]+\\u0069ng", "\\w+ing?", "[[:alpha:]]+ing",
                        "[\\t-~]+ing", "\\w+Error{1}"] {
            #expect(try RegexMatcher(pattern).runStarts == nil, "\(pattern)")
        }
    }

    @Test func simpleShapesAreDecidedWithoutPCRE2() throws {
        for pattern in Self.shaped {
            #expect(try (RegexMatcher(pattern).runStarts?.decision == nil) == Self.undecided.contains(pattern), "\(pattern)")
        }
    }

    @Test(arguments: [false, true])
    func matchesEqualContiguousPCRE2(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 11 &+ (caseless ? 1 : 0))
        // (A line searched whole for a run beyond ASCII, without a match, then the literal first
        // on the next line; a literal ending in a non-word character before `\b` and the text's end;
        // digit runs before a literal outside their class.)
        let texts = (0..<(4 * Settings.scale)).map { _ in Self.text(&random) } + [Array("éingx\ning".utf8), Array("ag-x\nbg-".utf8),
                                                                           Array("x 42Error 1234Error 7Errors".utf8)]
        for pattern in Self.shaped {
            let matcher = try RegexMatcher(pattern, options: MatchOptions(syntax: .regex, matchCase: !caseless))
            #expect(matcher.runStarts != nil, "\(pattern)")
            let oracle = try ContiguousOracle(pattern: pattern, caseless: caseless)
            for text in texts {
                let expected = try oracle.matches(in: text)
                let chunked = ChunkedText(chunks: random.chunks(of: text, maxSize: Int.random(in: 1...9, using: &random)))
                // A context that ends inside the text (a word, often) is a subject that ends there.
                let (end, inContext) = try matchesInContextEndingInside(text, matcher: matcher, using: &random)
                let expectedInContext = try oracle.matches(in: Array(text[..<end])).map(\.range)
                if inContext != expectedInContext {
                    Issue.record("\(pattern) caseless=\(caseless) context 0..<\(end): \(inContext.prefix(5)) != \(expectedInContext.prefix(5)) in \(String(decoding: text, as: UTF8.self).debugDescription)")
                    return
                }
                for (name, actual) in [("rope", try matcher.matches(in: try Rope(validating: text), capturingGroups: true)),
                                       ("chunked", try matcher.matches(in: chunked, capturingGroups: true)),
                                       ("contiguous", try matcher.matches(in: try ContiguousText(validating: text)))] where actual.map(\.range) != expected.map(\.range) {
                    Issue.record("\(pattern) caseless=\(caseless) \(name): \(actual.prefix(5)) != \(expected.prefix(5)) in \(String(decoding: text, as: UTF8.self).debugDescription)")
                    return
                }
            }
        }
    }

    /// Searches that start inside a run (a range's start is where the search starts), go on from
    /// inside a match, or keep whole words only find what searching every candidate line does.
    @Test(arguments: [false, true])
    func rangesAndWholeWordsEqualSearchingEveryCandidateLine(wholeWord: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 13 &+ (wholeWord ? 1 : 0))
        for pattern in Self.shaped {
            let fast = try RegexMatcher(pattern, options: MatchOptions(syntax: .regex, wholeWord: wholeWord))
            var everyLine = fast
            everyLine.runStarts = nil
            for _ in 0..<(2 * Settings.scale) {
                let text = Self.text(&random)
                let rope = try Rope(validating: text)
                // (The range ends before its context half the time.)
                let range = randomSearchRange(in: text, using: &random)
                let (actual, expected) = (try matchesSkippingEveryOther(fast, in: text, rope: rope, range: range),
                                          try matchesSkippingEveryOther(everyLine, in: text, rope: rope, range: range))
                if actual != expected {
                    Issue.record("\(pattern) in \(range): \(actual.prefix(5)) != \(expected.prefix(5)) in \(String(decoding: text, as: UTF8.self).debugDescription)")
                    return
                }
            }
        }
    }

    /// A match that starts in the range may hold its literal past the range's end, also when its
    /// run goes beyond ASCII and its line is searched whole.
    @Test func aMatchStartingInTheRangeEndsPastIt() throws {
        let matcher = try RegexMatcher("[a-zé]+ing")
        #expect(matcher.runStarts != nil)
        let text = try Rope(validating: Array("x éxing axing".utf8))
        var cursor = matcher.cursor(over: text, in: 0..<4, context: 0..<text.utf8Count)
        #expect(try cursor.next()?.range == 2..<8)
    }
}
