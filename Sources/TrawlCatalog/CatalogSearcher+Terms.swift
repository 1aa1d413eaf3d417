/// The vocabulary words a query word matches, reused while the user types.
///
/// A typo-tolerant lookup walks much of the vocabulary (with two typos allowed, most of its first
/// three levels), and typing "processors decomposition" a key at a time would walk for
/// "processors" at every key of the second word. The words before the last are taken from the last
/// query as they are; the last word's matches, once it allows a typo, are the last query's matches
/// filtered, since a word that begins close to "decompositi" also begins close to "decomposit".
extension CatalogSearcher {
    /// The vocabulary words `word` matched in catalog state `revision`, with the typos of each: in
    /// byte order, then the words it is only inside of (``QueryWord/insideTypos``).
    struct TermMatches: Sendable {
        var word: QueryWord
        var revision: Revision
        var numbers: [UInt32] = []
        var typos: [UInt8] = []
    }

    /// The vocabulary words `word` matches in `catalog`, from the last query's when it can.
    func termMatches(of word: QueryWord, in catalog: Catalog) -> TermMatches {
        let revision = catalog.revision
        if let same = lastTerms.first(where: { $0.revision === revision && $0.word == word }) { return same }
        var found = TermMatches(word: word, revision: revision)
        let vocabulary = catalog.vocabulary
        // Without typos the lookup is a range of the sorted words; filtering costs more.
        if word.typos > 0, let wider = lastTerms.first(where: { $0.revision === revision && Self.narrows(word, $0.word) }) {
            var filter = Vocabulary.Distance(query: word.bytes, typos: word.typos, prefix: word.isPrefix)
            for number in wider.numbers {
                if let typos = filter.typos(of: vocabulary.word(number)) {
                    found.numbers.append(number)
                    found.typos.append(UInt8(typos))
                } else if word.matchesInside, vocabulary.word(number).firstRange(of: word.bytes) != nil {
                    found.numbers.append(number)
                    found.typos.append(UInt8(QueryWord.insideTypos))
                }
            }
            return found
        }
        vocabulary.forEachMatch(of: word.bytes, typos: word.typos, prefix: word.isPrefix) { number, typos in
            found.numbers.append(number)
            found.typos.append(UInt8(typos))
        }
        guard word.matchesInside else { return found }
        let matched = Set(found.numbers)
        var inside: [UInt32] = []
        vocabulary.forEachWord(containing: word.bytes) { number in if !matched.contains(number) { inside.append(number) } }
        // In word order, so that equal queries list equal terms.
        found.numbers += inside.sorted()
        found.typos += repeatElement(UInt8(QueryWord.insideTypos), count: inside.count)
        return found
    }

    /// Whether every word `word` matches is among those `wider` (a prefix) matches: `word` extends
    /// it or completes it, with no more typos allowed.
    static func narrows(_ word: QueryWord, _ wider: QueryWord) -> Bool {
        wider.isPrefix && word.typos <= wider.typos && word.bytes.starts(with: wider.bytes) && (!word.matchesInside || wider.matchesInside)
    }
}
