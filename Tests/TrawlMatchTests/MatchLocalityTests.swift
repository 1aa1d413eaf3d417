import Testing
import TrawlMatch
import TrawlText
import TrawlTestSupport

/// A matcher's locality is honest: every match is found again by a search that sees only the
/// match and the neighbourhood its locality names (its line, or the lookbehind and lookahead bytes
/// around it). The navigator re-matches only that neighbourhood around an edit.
@Suite struct MatchLocalityTests {
    @Test(arguments: [false, true])
    func everyMatchIsDecidedByItsNeighbourhood(wholeWord: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 0x10C &+ (wholeWord ? 1 : 0))
        let texts = (0..<Settings.scale).map { _ in random.matchText(pieces: 120) } + [Array("a\r\nb".utf8)]
        var checked = 0
        for pattern in MatcherDifferentialTests.patterns where !pattern.contains("\\G") {
            let matcher = try RegexMatcher(pattern, options: MatchOptions(syntax: .regex, wholeWord: wholeWord))
            let locality = matcher.locality
            for bytes in texts {
                let text = try ContiguousText(validating: bytes)
                for match in try matcher.matches(in: text) {
                    var context = 0..<bytes.count
                    if let behind = locality.lookbehind, let ahead = locality.lookahead {
                        context = max(0, match.range.lowerBound - behind)..<min(bytes.count, match.range.upperBound + ahead)
                    }
                    if locality.isLineBounded {
                        let lineStart = (bytes[..<match.range.lowerBound].lastIndex(of: 0x0A) ?? -1) + 1
                        let lineEnd = bytes[match.range.lowerBound...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
                        context = max(context.lowerBound, lineStart)..<min(context.upperBound, lineEnd)
                    }
                    while context.lowerBound > 0 && UTF8Bytes.isContinuation(bytes[context.lowerBound]) {
                        context = (context.lowerBound - 1)..<context.upperBound
                    }
                    while context.upperBound < bytes.count && UTF8Bytes.isContinuation(bytes[context.upperBound]) {
                        context = context.lowerBound..<(context.upperBound + 1)
                    }
                    // With an unbounded lookbehind (`\K`: the match consumed text before its start)
                    // the whole neighbourhood is searched from its start.
                    let start = locality.lookbehind == nil ? context.lowerBound : match.range.lowerBound
                    var cursor = matcher.cursor(over: text, in: start..<context.upperBound, context: context)
                    var again = try cursor.next()
                    while let found = again, found.range.lowerBound < match.range.lowerBound { again = try cursor.next() }
                    if again != match {
                        Issue.record("\(pattern) wholeWord=\(wholeWord) \(locality): \(match) found as \(String(describing: again)) in \(context) of \(String(decoding: bytes, as: UTF8.self).debugDescription.prefix(300))")
                        return
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 400)
    }

    @Test func shapes() throws {
        #expect(try LiteralMatcher("foo").locality == MatchLocality(isLineBounded: true, lookbehind: 0, lookahead: 0, maxMatchLength: 3))
        #expect(try LiteralMatcher("foo", options: MatchOptions(wholeWord: true)).locality.lookahead == 4)
        #expect(try RegexMatcher("foo(?=bar)").locality.lookahead == nil)
        #expect(try RegexMatcher("foo\\b").locality.lookahead == 8)
        #expect(try RegexMatcher("(?<=abc)x").locality.lookbehind! >= 3)
        #expect(try RegexMatcher("a\\nb").locality.isLineBounded == false)
        #expect(try RegexMatcher("\\w+\\Kx").locality.lookbehind == nil)
        #expect(try RegexMatcher("\\X").locality.lookbehind == nil)
    }

    /// No match is longer than the pattern's maximum match length, when it has one.
    @Test(arguments: [false, true])
    func noMatchIsLongerThanTheMaximum(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 0x1E7 &+ (caseless ? 1 : 0))
        let texts = (0..<Settings.scale).map { _ in random.matchText(pieces: 120) }
        var bounded = 0
        for pattern in MatcherDifferentialTests.patterns {
            let matcher = try RegexMatcher(pattern, options: MatchOptions(syntax: .regex, matchCase: !caseless))
            guard let maximum = matcher.locality.maxMatchLength else { continue }
            bounded += 1
            for bytes in texts {
                for match in try matcher.matches(in: try ContiguousText(validating: bytes)) where match.range.count > maximum {
                    Issue.record("\(pattern) caseless=\(caseless): \(match) is longer than \(maximum)")
                    return
                }
            }
        }
        #expect(bounded > 40)
    }

    @Test func maximumLengths() throws {
        #expect(try RegexMatcher("a\\nb").locality.maxMatchLength == 5) // \\n: up to CR CR LF in the LF view
        #expect(try RegexMatcher("x{3}").locality.maxMatchLength == 3)
        #expect(try RegexMatcher("(?s)a.{0,3}b").locality.maxMatchLength == 14)
        #expect(try RegexMatcher("\\cJ").locality.maxMatchLength == 2)
        #expect(try RegexMatcher("foo|é").locality.maxMatchLength == 3)
        #expect(try RegexMatcher("\\w+").locality.maxMatchLength == nil)
        #expect(try RegexMatcher("\\X").locality.maxMatchLength == nil)
        #expect(try RegexMatcher("(a)\\1").locality.maxMatchLength == nil)
        #expect(try LiteralMatcher("straße").locality.maxMatchLength == 7)
        #expect(try RegexMatcher("(?s)a.\\E+b|\\n").locality.maxMatchLength == nil, "\\E is ignored: + repeats the dot")
        // Analysed only (PCRE2 would refuse it as too large): no overflow.
        #expect(PatternAnalysis(pattern: "(?:(?:(?:.{65535}){65535}){65535}){65535}").maxMatchBytes == nil)
    }
}
