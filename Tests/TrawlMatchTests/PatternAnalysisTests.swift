import Testing
import TrawlMatch

@Suite struct PatternAnalysisTests {
    @Test(arguments: [
        ("\\w+Error\\b", ["Error"]),
        ("(struct|class|enum|protocol)\\s+[A-Z]\\w*", ["class", "enum", "protocol", "struct"]),
        ("(?i)eventloop", ["eventloop"]),
        ("[a-z]+ing\\b", ["ing"]),
        ("foo|bar", ["bar", "foo"]),
        ("a(b|c)d", ["abd", "acd"]),
        ("(?i)kind", ["ind"]),
        ("colou?r", ["color", "colour"]),
        ("(a)\\1", ["a"]),
        ("x{3}y", ["xxxy"]),
        ("é+", ["é"]),
        ("\\Qa.b\\E", ["a.b"]),
        ("(?x) f o o ", ["foo"]),
        ("foo(?=bar)baz", ["foobaz"]),
    ])
    func requiredLiterals(pattern: String, literals: [String]) {
        #expect(PatternAnalysis(pattern: pattern).requiredLiterals == literals)
    }

    @Test(arguments: ["x*", "\\d+", "a|\\w", ".*", "(\\w)\\1", "(?|(a)|(b))", "(?(1)a|b)", "(?R)", ""])
    func noRequiredLiterals(pattern: String) {
        #expect(PatternAnalysis(pattern: pattern).requiredLiterals == nil)
    }

    @Test func lineFeedsAreRewrittenOutsideClassesAndLookbehind() {
        #expect(PatternAnalysis(pattern: "a\\nb").compiledPattern == "a(?:\\r?\\n)b")
        #expect(PatternAnalysis(pattern: "a\nb").compiledPattern == "a(?:\\r?\\n)b")
        #expect(PatternAnalysis(pattern: "[\\n]").compiledPattern == "[\\n]")
        #expect(PatternAnalysis(pattern: "(?<=\\n)x").compiledPattern == "(?<=\\n)x")
        #expect(PatternAnalysis(pattern: "\\\\n").compiledPattern == "\\\\n")
        #expect(PatternAnalysis(pattern: "\\Qa\nb\\E").compiledPattern == "\\Qa\\E(?:\\r?\\n)\\Qb\\E")
    }

    @Test func multilineIsExplicit() {
        // VS Code's rule (a line feed, \\n, \\r, \\W) and PCRE2's \\R, \\v and dot-all.
        for pattern in ["a\\nb", "\\r", "(?s)a.b", "[^\\n]", "\\R", "x\ny", "\\W", "[\\W]", "\\v"] {
            #expect(PatternAnalysis(pattern: pattern).isMultiline, "\\(pattern)")
        }
        for pattern in ["\\s+", "[^x]", "a.b", "\\w", "foo$"] {
            #expect(!PatternAnalysis(pattern: pattern).isMultiline, "\\(pattern)")
        }
    }

    @Test func compileErrorOffsetsPointIntoThePatternAsWritten() {
        #expect(throws: MatchError.invalidPattern(message: "missing closing parenthesis", offset: 4)) { try RegexMatcher("(abc") }
        // `\n` is rewritten before compiling; the offset still counts in the original pattern.
        #expect(throws: MatchError.invalidPattern(message: "missing closing parenthesis", offset: 7)) { try RegexMatcher("a\\n(bcd") }
        // A line feed inside a quote is rewritten with the quote closed around it.
        #expect(throws: MatchError.invalidPattern(message: "missing closing parenthesis", offset: 9)) { try RegexMatcher("\\Qa\nb\\E(c") }
        #expect(throws: MatchError.invalidPattern(message: "quantifier does not follow a repeatable item", offset: 0)) { try RegexMatcher("*a") }
    }
}
