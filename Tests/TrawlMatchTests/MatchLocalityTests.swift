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
            let matcher = try RegexMatcher(pattern, options: FindOptions(syntax: .regex, wholeWord: wholeWord))
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
        #expect(LiteralMatcher("foo").locality == MatchLocality(isLineBounded: true, lookbehind: 0, lookahead: 0))
        #expect(LiteralMatcher("foo", options: FindOptions(wholeWord: true)).locality.lookahead == 4)
        #expect(try RegexMatcher("foo(?=bar)").locality.lookahead == nil)
        #expect(try RegexMatcher("foo\\b").locality.lookahead == 8)
        #expect(try RegexMatcher("(?<=abc)x").locality.lookbehind! >= 3)
        #expect(try RegexMatcher("a\\nb").locality.isLineBounded == false)
        #expect(try RegexMatcher("\\w+\\Kx").locality.lookbehind == nil)
        #expect(try RegexMatcher("\\X").locality.lookbehind == nil)
    }
}
