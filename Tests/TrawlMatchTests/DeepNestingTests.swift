import Testing
import TrawlMatch
import TrawlText

/// A pattern nested deeper than PCRE2 allows is an error with PCRE2's message, never a crash
/// (the analysis before compiling reads no deeper than PCRE2 would); nesting PCRE2 accepts still
/// matches as PCRE2 does.
@Suite struct DeepNestingTests {
    func nested(_ depth: Int, open: String = "(", close: String = ")") -> String {
        String(repeating: open, count: depth) + "a" + String(repeating: close, count: depth)
    }

    @Test(arguments: [("(", ")"), ("(?:", ")"), ("(?=", ")a"), ("(?<n", ">)")])
    func nestingPastPCRE2sLimitIsAnError(open: String, close: String) {
        let pattern = open == "(?<n" ? (0..<10_000).map { "(?<n\($0)>" }.joined() + "a" + String(repeating: ")", count: 10_000) : nested(10_000, open: open, close: close)
        do {
            _ = try RegexMatcher(pattern, options: .regex)
            Issue.record("compiled")
        } catch {
            #expect("\(error)".contains("too deeply nested"), "\(error)")
        }
        // The analysis alone (what indexes and prefilters read) does not crash either.
        _ = PatternAnalysis(pattern: pattern)
    }

    @Test func nestingPCRE2AcceptsStillMatches() throws {
        let matcher = try RegexMatcher(nested(200), options: .regex)
        let matches = try matcher.matches(in: Rope("xa a"))
        #expect(matches.map(\.range) == [1..<2, 3..<4])
    }
}
