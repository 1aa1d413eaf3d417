import Testing
@testable import TrawlMatch
import TrawlTestSupport
import TrawlText

/// Whole-word literal search (VS Code's: both ends of a match are word boundaries, a rejected
/// start is retried one scalar later) finds, by a walk of the whole text and by `next()`, in any
/// chunking, what a plain search of the text's scalars does.
@Suite struct WholeWordTests {
    static let separators = WordSeparators.default

    /// The ASCII table, built without the Unicode property tables, and the list of the others
    /// say what the definition says: whitespace (Unicode's White_Space) or one of the characters
    /// given, whatever their order or repeats.
    @Test(arguments: ["", "-", WordSeparators.default.characters.map(String.init).joined(), "_a Z\t", "—·x—\u{3000}é·"])
    func separatorsAreWhitespaceOrTheCharactersGiven(_ characters: String) {
        let separators = WordSeparators(characters)
        let others: [Unicode.Scalar] = ["é", "e", "—", "·", "\u{3000}", "\u{A0}", "\u{2028}", "ß", "😀"]
        for scalar in (UInt8(0)...127).map(Unicode.Scalar.init) + others {
            #expect(separators.isSeparator(scalar) == (scalar.properties.isWhitespace || characters.unicodeScalars.contains(scalar)),
                    "U+\(String(scalar.value, radix: 16))")
        }
        #expect(separators.characters == Set(characters.unicodeScalars))
        let reordered = WordSeparators(String(String.UnicodeScalarView(characters.unicodeScalars.reversed() + characters.unicodeScalars)))
        #expect(reordered == separators && reordered.hashValue == separators.hashValue)
        #expect(characters.isEmpty || WordSeparators(String(characters.unicodeScalars.dropFirst())) != separators
                || characters.unicodeScalars.dropFirst().contains(characters.unicodeScalars.first!))
    }

    /// The matches by the definition: at each scalar, the needle's occurrence there, kept when
    /// both its ends are boundaries (then the search goes on after it).
    static func oracle(_ needle: [UInt8], in text: [UInt8], caseless: Bool) -> [Range<Int>] {
        func same(_ one: UInt8, _ other: UInt8) -> Bool {
            one == other || caseless && one | 0x20 == other | 0x20 && (0x61...0x7A).contains(one | 0x20)
        }
        func scalar(endingAt end: Int) -> Unicode.Scalar {
            var start = end - 1
            while text[start] & 0xC0 == 0x80 { start -= 1 }
            return String(decoding: text[start..<end], as: UTF8.self).unicodeScalars.first!
        }
        func scalar(at start: Int) -> Unicode.Scalar {
            String(decoding: text[start...].prefix(4), as: UTF8.self).unicodeScalars.first!
        }
        func isSeparator(_ scalar: Unicode.Scalar) -> Bool { separators.isSeparator(scalar) }
        var found: [Range<Int>] = []
        var start = 0
        while start + needle.count <= text.count {
            let end = start + needle.count
            if zip(needle, text[start..<end]).allSatisfy(same) {
                let left = start == 0 || isSeparator(scalar(endingAt: start)) || isSeparator(scalar(at: start))
                let right = end == text.count || isSeparator(scalar(at: end)) || isSeparator(scalar(endingAt: end))
                if left && right {
                    found.append(start..<end)
                    start = end
                    continue
                }
            }
            // A CRLF is one line break: never between its CR and LF.
            start += text[start] == 0x0D && start + 1 < text.count && text[start + 1] == 0x0A ? 2 : UTF8Bytes.scalarLength(lead: text[start])
        }
        return found
    }

    @Test(arguments: [false, true])
    func wholeWordLiteralsEqualTheDefinition(caseless: Bool) throws {
        var random = SeededGenerator(seed: Settings.seed &+ 21 &+ (caseless ? 1 : 0))
        // Needles that cannot overlap themselves (the walk path) and ones that can (retries).
        let needles = ["foo", "Error", "a", "ab", "x1", "aa", "abab", "ababa", "foo.", ".bar", "é", "eventLoop", "_", " ", "-", "a.a", ".a."]
        // (The oracle folds ASCII letters only: caseless, the needles are ASCII.)
        for needle in needles where !caseless || needle.utf8.allSatisfy({ $0 < 0x80 }) {
            let options = MatchOptions(matchCase: !caseless, wholeWord: true)
            let matcher = try LiteralMatcher(needle, options: options)
            for _ in 0..<(4 * Settings.scale) {
                // (Also a rejected occurrence overlapping a whole one: `a.a` in `xa.a.a`.)
                var text = random.matchText(pieces: 150) + Array("xa.a.a".utf8)
                // Planted occurrences, with and without separators around them.
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    let place = Int.random(in: 0...text.count, using: &random)
                    guard place == text.count || text[place] & 0xC0 != 0x80 else { continue }
                    text.insert(contentsOf: Array(needle.utf8) + (Bool.random(using: &random) ? [0x20] : []), at: place)
                }
                let expected = Self.oracle(Array(needle.utf8), in: text, caseless: caseless)
                let chunked = ChunkedText(chunks: random.chunks(of: text, maxSize: Int.random(in: 1...9, using: &random)))
                for (name, searched) in [("rope", try Rope(validating: text) as any SearchableText), ("chunked", chunked),
                                         ("contiguous", try ContiguousText(validating: text))] {
                    let walked = try matcher.matches(in: searched).map(\.range)
                    var cursor = matcher.cursor(over: searched, in: 0..<text.count, context: 0..<text.count)
                    var stepped: [Range<Int>] = []
                    while let match = try cursor.next() { stepped.append(match.range) }
                    let counted = try matcher.count(in: searched)
                    // Some matches by next(), then the rest by the walk, on one cursor.
                    var mixed = matcher.cursor(over: searched, in: 0..<text.count, context: 0..<text.count)
                    let both = try rangesByNextThenWalk(&mixed, using: &random)
                    if walked != expected || stepped != expected || both != expected || counted != expected.count {
                        Issue.record("\(needle.debugDescription) caseless=\(caseless) \(name): walked \(walked.prefix(4)), stepped \(stepped.prefix(4)), counted \(counted), expected \(expected.prefix(4)) in \(String(decoding: text, as: UTF8.self).debugDescription)")
                        return
                    }
                }
                // A context that ends inside the text: its end is an edge of the search.
                var end = Int.random(in: 0...text.count, using: &random)
                while end < text.count && text[end] & 0xC0 == 0x80 { end += 1 }
                let expectedInContext = Self.oracle(Array(needle.utf8), in: Array(text[..<end]), caseless: caseless)
                let inContext = try matcher.matches(in: try Rope(validating: text), range: 0..<end).map(\.range)
                if inContext != expectedInContext {
                    Issue.record("\(needle.debugDescription) caseless=\(caseless) context 0..<\(end): \(inContext.prefix(4)) != \(expectedInContext.prefix(4))")
                    return
                }
            }
        }
    }
}
