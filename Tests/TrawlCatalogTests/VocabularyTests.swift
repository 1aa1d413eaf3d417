import Testing
import TrawlTestSupport
@testable import TrawlCatalog

@Suite struct VocabularyTests {
    /// Words are numbered in order of first appearance and found again by their bytes (the
    /// vocabulary's own hash table against a `Dictionary`), absent words not at all; words of 0 to
    /// 72 bytes, past the table's growth steps and across its eight-byte hashing steps.
    /// With a hash of no bits, every word of a length collides: the lookup then rests on the
    /// words' bytes.
    @Test(arguments: [24, 0]) func wordNumbersAgreeWithADictionary(hashBits: Int) {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 22))
        // Colliding words share most bytes, past the eight a table slot holds.
        let letters = hashBits == 0 ? ["a", "b", "é"] : ["a", "b", "c", "x", "y", "z", "0", "9", "é"]
        func randomWord(upTo length: Int) -> [UInt8] {
            Array((0..<Int.random(in: 0...length, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined().utf8)
        }
        var vocabulary = Vocabulary(hashBits: hashBits)
        var expected: [[UInt8]: UInt32] = [:]
        for _ in 0..<((hashBits == 0 ? 1_000 : 3_000) * PropertyTestSettings.scale) {
            let word = randomWord(upTo: 36)
            let number = word.withUnsafeBufferPointer { vocabulary.number(adding: $0) }
            let known = expected[word]
            #expect(number == known ?? UInt32(expected.count), "\(word)")
            if known == nil { expected[word] = number }
            let probe = randomWord(upTo: 10)
            #expect(vocabulary.number(of: String(decoding: probe, as: UTF8.self)) == expected[probe])
        }
        #expect(vocabulary.count == expected.count)
        for (word, number) in expected {
            #expect(vocabulary.number(of: String(decoding: word, as: UTF8.self)) == number)
            #expect(Array(vocabulary.word(number)) == word)
        }
    }

    /// The Levenshtein walk over the byte-ordered words finds exactly the words a brute-force
    /// distance finds, with the same distances, for whole words and prefixes.
    @Test func typoLookupAgreesWithBruteForce() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 21))
        let alphabet: [UInt8] = Array("abcde".utf8)
        for _ in 0..<(20 * PropertyTestSettings.scale) {
            var vocabulary = Vocabulary()
            var words: Set<[UInt8]> = []
            for _ in 0..<Int.random(in: 1...300, using: &random) {
                let word = (0..<Int.random(in: 1...9, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
                words.insert(word)
                _ = word.withUnsafeBufferPointer { vocabulary.number(adding: $0) }
                if Int.random(in: 0..<50, using: &random) == 0 { vocabulary.sort() } // sorted in several merges
            }
            vocabulary.sort()
            for _ in 0..<40 {
                let query = (0..<Int.random(in: 1...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
                let typos = Int.random(in: 0...2, using: &random)
                let prefix = Bool.random(using: &random)
                var found: [String: Int] = [:]
                vocabulary.forEachMatch(of: query, typos: typos, prefix: prefix) { number, distance in
                    let word = vocabulary.string(number)
                    #expect(found[word] == nil, "reported twice: \(word)")
                    found[word] = distance
                }
                var expected: [String: Int] = [:]
                for word in words {
                    let distance = prefix ? CatalogOracle.prefixDistance(query, word) : CatalogOracle.distance(query, word)
                    if distance <= typos { expected[String(decoding: word, as: UTF8.self)] = distance }
                }
                #expect(found == expected, "query \(String(decoding: query, as: UTF8.self)) typos \(typos) prefix \(prefix)")
                // One word at a time (how the matches of a shorter query are filtered), the same.
                var distance = Vocabulary.Distance(query: query, typos: typos, prefix: prefix)
                var filtered: [String: Int] = [:]
                for word in words { filtered[String(decoding: word, as: UTF8.self)] = distance.typos(of: word[...]) }
                #expect(filtered == expected, "one at a time: query \(String(decoding: query, as: UTF8.self)) typos \(typos) prefix \(prefix)")
            }
        }
    }

    @Test func foldingIgnoresCaseAndDiacriticsAndSplitsOnNonLetters() {
        #expect(WordFolding.words(of: "Crème BRÛLÉE, naïve-Straße_x2 日本語 Ελληνικά") == ["creme", "brulee", "naive", "straße", "x2", "日本語", "ελληνικα"])
        #expect(WordFolding.words(of: "  --  ") == [])
        #expect(WordFolding.words(of: "e\u{301}te\u{301}") == ["ete"]) // decomposed input too
        var ranges: [Range<Int>] = []
        WordFolding.forEachWord(in: "Ça va?") { range, _ in ranges.append(range) }
        #expect(ranges == [0..<3, 4..<6]) // byte ranges in the original text
    }

    /// ASCII words fold without a copy when already lowercase and through one when not: both
    /// against the standard library's split and `lowercased()`, with the byte ranges too.
    @Test func asciiWordsFoldAsTheStandardLibraryLowercasesThem() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x5EED_F01D))
        let alphabet = Array("aZqQ9m0 -_.,\t")
        for _ in 0..<500 {
            let text = String((0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let expected = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
            var words: [String] = [], ranges: [Range<Int>] = []
            WordFolding.forEachWord(in: text) { range, folded in
                ranges.append(range)
                words.append(String(decoding: folded, as: UTF8.self))
            }
            #expect(words == expected.map { $0.lowercased() }, "\(text)")
            #expect(ranges == expected.map { text.utf8.distance(from: text.startIndex, to: $0.startIndex)..<text.utf8.distance(from: text.startIndex, to: $0.endIndex) }, "\(text)")
            var unfolded: [Range<Int>] = []
            WordFolding.forEachWordRange(in: text) { unfolded.append($0); return true }
            #expect(unfolded == ranges, "\(text)")
        }
    }

    @Test func typoBudgetFollowsWordLength() {
        #expect((1...12).map(catalogTypoBudget(forWordOfLength:)) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    }
}
