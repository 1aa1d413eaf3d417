import Testing
import TrawlMatch
import TrawlTestSupport
import TrawlNGram

/// The required-literal query: its shape on known patterns, and soundness (every match satisfies
/// the query) against real matches of the differential test's patterns.
@Suite struct LiteralQueryTests {
    @Test(arguments: [
        ("foo", "\"foo\""),
        ("(struct|class)\\s+Foo", "((\"class\" OR \"struct\") AND \"Foo\")"),
        ("\\w+Error\\b", "\"Error\""),
        ("(?i)eventloop", "i\"eventloop\""),
        ("(?i)kind", "i\"ind\""),
        ("a(b|c)d", "(\"abd\" OR \"acd\")"),
        ("foo.*bar|baz", "((\"foo\" AND \"bar\") OR \"baz\")"),
        ("x*", "ALL"),
        ("foo|\\w", "ALL"),
        ("a\\nb", "(\"a\\nb\" OR \"a\\r\\nb\")"),
        ("(?R)", "ALL"),
        ("(abc)+d", "(\"abc\" AND \"d\")"),
        ("foo\\Kbar", "ALL"), // the reported match is only "bar"
    ])
    func shape(pattern: String, expected: String) throws {
        #expect(try RegexMatcher(pattern).literalQuery.description == expected)
    }

    @Test func literalMatcherQueriesItsNeedle() throws {
        #expect(try LiteralMatcher("EventLoop").literalQuery == .literal(QueryLiteral("EventLoop")))
        #expect(try LiteralMatcher("EventLoop", options: MatchOptions(matchCase: false)).literalQuery
                == .literal(QueryLiteral("EventLoop", ignoringASCIICase: true)))
        #expect(try LiteralMatcher("").literalQuery == .all)
    }

    @Test func evaluation() {
        let query = LiteralQuery.and([.literal(QueryLiteral("ab")), .or([.literal(QueryLiteral("x")), .literal(QueryLiteral("Y", ignoringASCIICase: true))])])
        #expect(query.isSatisfied(by: Array("..ab..y".utf8)))
        #expect(query.isSatisfied(by: Array("x ab".utf8)))
        #expect(!query.isSatisfied(by: Array("a b x".utf8)))
        #expect(!query.isSatisfied(by: Array("ab".utf8)))
    }

    /// Soundness: the text of every match satisfies the pattern's query, with and without case
    /// folding, for every pattern of the differential test.
    @Test(arguments: [false, true])
    func everyMatchSatisfiesTheQuery(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 7 &+ (caseless ? 1 : 0))
        let texts = (0..<(2 * Settings.scale)).map { _ in random.matchText(pieces: 200) }
        var checked = 0
        for pattern in MatcherDifferentialTests.patterns {
            let matcher = try RegexMatcher(pattern, options: MatchOptions(syntax: .regex, matchCase: !caseless))
            let query = matcher.literalQuery
            for text in texts {
                for match in try matcher.matches(in: try ContiguousText(validating: text)) {
                    let matched = text[match.range]
                    if !query.isSatisfied(by: matched) {
                        Issue.record("\(pattern) caseless=\(caseless): \(String(decoding: matched, as: UTF8.self).debugDescription) does not satisfy \(query)")
                        return
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)
    }
}
