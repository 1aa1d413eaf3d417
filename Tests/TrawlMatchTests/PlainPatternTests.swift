import Testing
@testable import TrawlMatch
import TrawlNGram
import TrawlText
import TrawlTestSupport

/// A regex pattern without metacharacters is found as a literal, and the literal finds exactly what
/// PCRE2 finds for the pattern under every flag that shapes a pattern (`-i`, `-S`, `-w`, `-U`).
@Suite struct PlainPatternTests {
    /// Pieces beside the matching alphabet: punctuation that is literal in a regex, letters whose
    /// case folds beyond ASCII (Kelvin sign, long s, ß), and multi-byte scalars.
    static let pieces = [
        "foo", "Foo", "k", "K", "s", "S", "\u{212A}", "\u{17F}", "é", "É", "straße", "STRASSE", "ß", " ", "-", "#", "_",
        "x1", ",", "'", "\"", "/", "<", ">", "=", "!", "%", "&", "@", "~", "`", "ж", "Ж", "😀", "\t", "ab",
    ]

    @Test func metacharactersAndLineBreaksAreNotPlainText() throws {
        for meta in ["\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}", "\n", "\r"] {
            #expect(!MatchOptions.isPlainText("ab\(meta)c"), "\(meta.debugDescription)")
        }
        for plain in Self.pieces + ["a b", "x-y", "#k", "a,b;c:d"] {
            #expect(MatchOptions.isPlainText(plain), "\(plain.debugDescription)")
        }
        #expect(try FindQuery(pattern: "EventLoop").makeMatcher() is LiteralMatcher)
        #expect(try FindQuery(pattern: "Event.oop").makeMatcher() is RegexMatcher)
    }

    @Test(arguments: [CaseMode.sensitive, .insensitive, .smart])
    func plainTextFindsWhatTheRegexFinds(caseMode: CaseMode) throws {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x7A11_46) &+ UInt64(String(describing: caseMode).count))
        let alphabet = (matchAlphabet + Self.pieces).filter { !$0.isEmpty }
        let texts: [[UInt8]] = (0..<(24 * PropertyTestSettings.scale)).map { _ in
            (0..<Int.random(in: 0...80, using: &random)).flatMap { _ in Array(alphabet.randomElement(using: &random)!.utf8) }
        }
        var patterns: Set<String> = []
        while patterns.count < 120 {
            let pattern = (0..<Int.random(in: 1...3, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
            if MatchOptions.isPlainText(pattern) { patterns.insert(pattern) }
        }
        var found = 0
        for pattern in patterns.sorted() {
            for wholeWord in [false, true] {
                for multiline in [false, true] {
                    var options = FindQuery(pattern: pattern)
                    options.caseMode = caseMode
                    options.wholeWord = wholeWord
                    options.multiline = multiline
                    let plain = try options.makeMatcher()
                    #expect(plain is LiteralMatcher)
                    var regexOptions = options.findOptions
                    regexOptions.syntax = .regex
                    let regex = try RegexMatcher(pattern, options: regexOptions)
                    for text in texts {
                        let subject = try ContiguousText(validating: text)
                        let expected = try regex.matches(in: subject)
                        let actual = try plain.matches(in: subject)
                        guard actual == expected else {
                            Issue.record("""
                                \(pattern.debugDescription) \(caseMode) wholeWord=\(wholeWord) multiline=\(multiline): \
                                \(actual.prefix(4)) != \(expected.prefix(4)) in \(String(decoding: text, as: UTF8.self).debugDescription)
                                """)
                            return
                        }
                        found += expected.count
                    }
                }
            }
        }
        // The patterns are drawn from the texts' own pieces, so many are found.
        #expect(found > 1000)
    }
}

/// The literal scanner's caseless flag is the query literal's (each module keeps it as a literal
/// constant: read in scanning loops).
@Suite struct CaselessFlagTests {
    @Test func theScannerAndTheQueryMarkCaselessBytesAlike() {
        #expect(PrefilterLiteral.caselessFlag == QueryLiteral.caselessFlag)
    }
}
