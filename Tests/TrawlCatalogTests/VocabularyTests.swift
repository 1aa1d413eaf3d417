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

    /// The shared n-gram index over the words finds exactly the words that contain a piece (a scan
    /// of every word finds), as the vocabulary grows between lookups; pieces under three bytes
    /// find nothing.
    @Test func wordsContainingAPieceAgreeWithAScan() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 23))
        let letters = ["a", "b", "c", "ab", "é", "ж"]
        func randomWord(_ lengths: ClosedRange<Int>) -> [UInt8] {
            Array((0..<Int.random(in: lengths, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined().utf8)
        }
        var vocabulary = Vocabulary()
        var words: [[UInt8]] = []
        for _ in 0..<(8 * PropertyTestSettings.scale) {
            for _ in 0..<Int.random(in: 1...200, using: &random) {
                let word = randomWord(0...12)
                let number = word.withUnsafeBufferPointer { vocabulary.number(adding: $0) }
                if number == words.count { words.append(word) }
            }
            vocabulary.sort()
            for _ in 0..<50 {
                let piece = randomWord(1...4)
                var found: [UInt32] = []
                vocabulary.forEachWord(containing: piece) { found.append($0) }
                let expected = piece.count < 3 ? [] : words.indices.filter { number in
                    words[number].count >= piece.count
                        && (0...(words[number].count - piece.count)).contains { Array(words[number][$0..<($0 + piece.count)]) == piece }
                }.map(UInt32.init)
                #expect(found.sorted() == expected, "\(String(decoding: piece, as: UTF8.self))")
            }
        }
        #expect(vocabulary.grams.postingCount > 0)
    }

    /// The Levenshtein walk over the byte-ordered words finds exactly the words a brute-force
    /// distance in letters (scalars) finds, with the same distances, for whole words and prefixes,
    /// whatever the letters' UTF-8 lengths: "Москв" is one edit from "Москва", as "Moskv" from "Moskva".
    @Test func typoLookupAgreesWithBruteForce() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 21))
        // Letters of one to four bytes, some sharing their first bytes (д and ж, 東 and 来).
        let letters = ["a", "b", "c", "é", "д", "ж", "東", "来", "𝒜"].map { Array($0.utf8) }
        let alphabet = letters.indices
        for _ in 0..<(20 * PropertyTestSettings.scale) {
            var vocabulary = Vocabulary()
            var words: Set<[UInt8]> = []
            for _ in 0..<Int.random(in: 1...300, using: &random) {
                let word = (0..<Int.random(in: 1...9, using: &random)).flatMap { _ in letters[alphabet.randomElement(using: &random)!] }
                words.insert(word)
                _ = word.withUnsafeBufferPointer { vocabulary.number(adding: $0) }
                if Int.random(in: 0..<50, using: &random) == 0 { vocabulary.sort() } // sorted in several merges
            }
            vocabulary.sort()
            for _ in 0..<40 {
                let query = (0..<Int.random(in: 1...8, using: &random)).flatMap { _ in letters[alphabet.randomElement(using: &random)!] }
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
        #expect(WordFolding.words(of: "Crème BRÛLÉE, naïve-Straße_x2 日本語 Ελληνικά") == ["creme", "brulee", "naive", "strasse", "x2", "日本語", "ελληνικα"])
        #expect(WordFolding.words(of: "  --  ") == [])
        #expect(WordFolding.words(of: "e\u{301}te\u{301}") == ["ete"]) // decomposed input too
        var ranges: [Range<Int>] = []
        WordFolding.forEachWord(in: "Ça va?") { range, _ in ranges.append(range) }
        #expect(ranges == [0..<3, 4..<6]) // byte ranges in the original text
    }

    /// Case folds, not lowercases: letters that differ only by case, however their language
    /// spells it, are one word (lowercasing alone kept "ς" from "σ", "ß" from "ss").
    @Test func foldingJoinsEverySpellingOfALettersCase() {
        let sameWords: [[String]] = [
            ["λόγος", "ΛΌΓΟΣ", "λογοσ", "Λόγος"],  // final sigma
            ["straße", "STRASSE", "Strasse", "STRAẞE"],  // sharp s, capital sharp s
            ["ﬁle", "FILE", "file"], ["ﬆop", "stop"],  // ligatures
            ["ſun", "sun"], ["ϑ", "θ", "ϴ"], ["µ", "μ", "Μ"],  // long s, theta, micro sign
            ["ᏣᎳᎩ", "ꮳꮃꭹ"],  // Cherokee, whose case folding goes to capitals
            ["ǅemal", "ǆemal", "ǄEMAL"], ["Ĳssel", "ĳssel"], ["ᾳ", "ᾼ", "ΑΙ", "αι"],
            ["ΐ", "Ϊ́", "ι"],  // uppercases to three scalars
        ]
        for spellings in sameWords {
            let folded = spellings.map(WordFolding.words(of:))
            #expect(folded.allSatisfy { $0.count == 1 && $0 == folded[0] }, "\(spellings): \(folded)")
        }
        #expect(WordFolding.words(of: "Ωmega") == ["ωmega"])
        // Every scalar that is a word alone folds as its capital and small forms do, and a folded
        // word folds to itself.
        for value in 0x80...0x1FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped else { continue }
            let text = String(scalar)
            let spellings = [text, text.uppercased(), text.lowercased()].map(WordFolding.words(of:))
            guard spellings.allSatisfy({ $0.count == 1 }) else { continue }
            #expect(spellings[1] == spellings[0] && spellings[2] == spellings[0], "U+\(String(value, radix: 16)): \(spellings)")
            #expect(WordFolding.words(of: spellings[0][0]) == spellings[0], "U+\(String(value, radix: 16))")
        }
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

    /// Long texts of every kind of piece (ASCII runs longer than the scan's 64-byte windows,
    /// letters with diacritics, other scripts, lone and decomposed marks, emoji, punctuation):
    /// the words are the runs of letters, digits and marks the standard library's Unicode
    /// properties give, less those of marks alone, at the same byte ranges.
    @Test func wordsAreTheRunsOfWordScalarsOfAnyText() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x5EED_F02D))
        let pieces = ["a", "Z", "q", "9", "0", "é", "E\u{301}", "\u{301}", "\u{345}", "\u{20DD}", "ß", "Ω", "日本", "ǅ", "ⅷ", "²", "ـ",
                      " ", "-", "_", ".", "\n", "😀", "\u{200B}", "—", "«", String(repeating: "x", count: 70),
                      String(repeating: "Ab1", count: 30), String(repeating: " ", count: 65), String(repeating: "é", count: 40)]
        let categories: Set<Unicode.GeneralCategory> = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                                                        .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark]
        for _ in 0..<400 {
            let text = (0..<Int.random(in: 0...60, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var expected: [Range<Int>] = []
            var offset = 0, start: Int? = nil, onlyMarks = true
            for scalar in text.unicodeScalars {
                if categories.contains(scalar.properties.generalCategory) {
                    if start == nil { (start, onlyMarks) = (offset, true) }
                    // A word of nonspacing marks alone folds to nothing and is no word.
                    if scalar.properties.generalCategory != .nonspacingMark { onlyMarks = false }
                } else if let begun = start {
                    if !onlyMarks { expected.append(begun..<offset) }
                    start = nil
                }
                offset += scalar.utf8.count
            }
            if let begun = start, !onlyMarks { expected.append(begun..<offset) }
            var ranges: [Range<Int>] = [], unfolded: [Range<Int>] = []
            WordFolding.forEachWord(in: text) { range, _ in ranges.append(range) }
            WordFolding.forEachWordRange(in: text) { unfolded.append($0); return true }
            #expect(ranges == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(unfolded == expected)
        }
    }

    @Test func typoBudgetFollowsWordLength() {
        #expect((1...12).map(catalogTypoBudget(forWordOfLength:)) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    }
}
