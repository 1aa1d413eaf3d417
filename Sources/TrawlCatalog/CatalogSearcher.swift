/// Searches a ``Catalog`` keystroke after keystroke: it keeps its working memory between searches,
/// and when the new query only narrows the last one (the last word extended, a word or a token
/// added) it ranks the last matches again instead of starting over.
///
/// A value: a host keeps one per search field and may move it into the task that searches.
public struct CatalogSearcher: Sendable {
    /// One bit per vocabulary word: whether the current search tagged it, cleared as a search
    /// starts; then, by word number, the query words it matches, which of those exactly, and its
    /// typos for each (two bits per query word).
    var matchedWords: [UInt64] = []
    var wordMasks: [UInt16] = []
    var exactMasks: [UInt16] = []
    var wordTypos: [UInt32] = []
    /// One bit per internal item number, for unions of postings; all clear between searches.
    var candidateBits: [UInt64] = []
    /// By internal item number, a one-word query's rank key (see `rankOneWord`); all zero between
    /// searches.
    var itemKeys: [UInt8] = []
    /// By internal item number, the fields holding a query word (a field tag; see `fillKeys`); all
    /// zero between searches.
    var itemFields: [UInt8] = []
    /// The fewest candidates a query needs to be ranked from the postings rather than from each
    /// item's words (tests set it to 0, postings whenever the query allows, or `Int.max`, never, to
    /// check one way against the other).
    var postingsRankingMinimum = 4096
    var last: Refinement?
    /// The vocabulary words each word of the last query matched: typing repeats the words before
    /// the last one, and the last one's matches narrow as it grows.
    var lastTerms: [TermMatches] = []
    /// The last word keyed from several terms' postings, for the next keystroke.
    var lastKeyed: KeyedWord?

    /// A searcher with nothing remembered yet.
    public init() {}

    /// The most words a query uses; later words are ignored.
    public static let maximumWords = 16

    /// Ranks the items of `catalog` that match `query`.
    public mutating func search(_ query: CatalogQuery, in catalog: Catalog) -> CatalogResults {
        let clock = ContinuousClock()
        let deadline = query.budget.map { clock.now + $0 }
        let words = Self.queryWords(query.text, matchingInside: query.matchesInsideWords)
        let filterSet = Set(query.filters)
        var results = CatalogResults()
        var filters: [UInt32] = []
        for filter in filterSet {
            guard let value = catalog.valueNumber(of: filter) else { return results } // nothing has it
            filters.append(value)
        }
        clearWordTags(catalog)

        // Tag the vocabulary words each query word matches.
        var termLists: [[UInt32]] = []
        let vocabulary = catalog.vocabulary
        var allTerms: [TermMatches] = []
        defer { lastTerms = allTerms }
        for (index, word) in words.enumerated() {
            let terms = termMatches(of: word, in: catalog)
            allTerms.append(terms)
            let bit = UInt16(1) << UInt16(index)
            for (number, typos) in zip(terms.numbers, terms.typos) {
                let slot = Int(number)
                if matchedWords[slot >> 6] & 1 << UInt64(slot & 63) == 0 {
                    matchedWords[slot >> 6] |= 1 << UInt64(slot & 63)
                    wordMasks[slot] = 0
                    exactMasks[slot] = 0
                    wordTypos[slot] = 0
                }
                wordMasks[slot] |= bit
                wordTypos[slot] |= UInt32(typos) << UInt32(2 * index)
                if typos == 0, vocabulary.length(of: number) == word.bytes.count { exactMasks[slot] |= bit }
            }
            if terms.numbers.isEmpty { return results }
            termLists.append(terms.numbers)
        }

        let facetAttributes = Self.facetAttributes(query.facets, in: catalog)
        var ranking = Ranking(limit: query.limit, valueCount: facetAttributes.isEmpty ? 0 : catalog.valueStrings.count,
                              deadline: deadline, clock: clock)
        if let source = oneWordSource(termLists, words: words, filters: filters, filterSet: filterSet, in: catalog) {
            rankOneWord(source, words: words, filters: filters, facets: facetAttributes, in: catalog, into: &ranking)
        } else if let plan = boundedPlan(termLists, words: words, filters: filters, filterSet: filterSet, in: catalog) {
            rankByBounds(plan, words: words, filters: filters, facets: facetAttributes, in: catalog, into: &ranking)
        } else {
            let candidates = candidates(termLists, filters: filters, filterSet: filterSet, words: words, in: catalog)
            rank(candidates, words: words, filters: filters, facets: facetAttributes, in: catalog, into: &ranking)
        }
        results.isPartial = ranking.isPartial
        results.matchCount = ranking.matches.count
        let best = ranking.best.sorted()
        catalog.prepareItems(best.map { Int($0.1) })
        results.hits = best.map { rank, item in
            CatalogResults.Hit(item: catalog.item(Int(item))!, highlights: highlights(of: Int(item), in: catalog), rank: rank)
        }
        var facets: [String: [CatalogResults.FacetValue]] = [:]
        for attribute in facetAttributes { facets[catalog.attributeNames[attribute]] = [] }
        for (value, count) in ranking.valueCounts.enumerated() where count > 0 && facetAttributes.contains(catalog.valueAttribute[value]) {
            facets[catalog.attributeNames[catalog.valueAttribute[value]], default: []]
                .append(CatalogResults.FacetValue(value: catalog.valueStrings[value], count: count))
        }
        results.facets = facets.mapValues { $0.sorted { ($1.count, $0.value) < ($0.count, $1.value) } }
        if !results.isPartial {
            last = Refinement(revision: catalog.revision, words: words, filters: filterSet, matches: ranking.matches)
        } else {
            last = nil
        }
        return results
    }

    /// The items to rank: the last matches when this query narrows them and they are fewer than
    /// the postings, else the items holding the rarest word (or the rarest filter value, or
    /// everything).
    private mutating func candidates(_ termLists: [[UInt32]], filters: [UInt32], filterSet: Set<CatalogFilter>, words: [QueryWord],
                                     in catalog: Catalog) -> [UInt32] {
        let rarestFilter = filters.min { catalog.valuePostingCount(of: Int($0)) < catalog.valuePostingCount(of: Int($1)) }
        let totals = termLists.map { $0.reduce(0) { $0 + catalog.postingCount(of: Int($1)) } }
        let rarest = totals.indices.min { totals[$0] < totals[$1] }
        if let last, last.covers(words, filterSet, revision: catalog.revision), rarest.map({ last.matches.count <= totals[$0] }) ?? true {
            return last.matches
        }
        guard let rarest else {
            if let filter = rarestFilter { return catalog.valuePostingItems(of: Int(filter)) }
            return Array(0..<UInt32(catalog.slotCount))
        }
        if let filter = rarestFilter, catalog.valuePostingCount(of: Int(filter)) < totals[rarest] {
            return catalog.valuePostingItems(of: Int(filter))
        }
        if termLists[rarest].count == 1 { return catalog.postingItems(of: Int(termLists[rarest][0])) }
        // A bitmap unions the postings and lists the candidates in order, which keeps the ranking
        // pass's reads of the forward index moving forward.
        var candidates: [UInt32] = []
        candidates.reserveCapacity(min(totals[rarest], catalog.slotCount))
        reserveCandidateBits(catalog)
        candidateBits.withUnsafeMutableBufferPointer { bits in
            for term in termLists[rarest] {
                catalog.postingItems(of: Int(term)).withUnsafeBufferPointer { items in
                    for item in items { bits[Int(item >> 6)] |= 1 << UInt64(item & 63) }
                }
            }
            Self.drain(bits) { candidates.append($0) }
        }
        return candidates
    }

    /// Grows the candidate bitmap to the catalog's numbers.
    mutating func reserveCandidateBits(_ catalog: Catalog) {
        let wordCount = (catalog.slotCount + 63) / 64
        if candidateBits.count < wordCount { candidateBits.append(contentsOf: repeatElement(0, count: wordCount - candidateBits.count)) }
    }

    /// Calls `body` with each set bit's number in ascending order, clearing the bitmap.
    static func drain(_ bits: UnsafeMutableBufferPointer<UInt64>, _ body: (UInt32) -> Void) {
        for index in bits.indices where bits[index] != 0 {
            var word = bits[index]
            bits[index] = 0
            while word != 0 {
                body(UInt32(index << 6 | word.trailingZeroBitCount))
                word &= word - 1
            }
        }
    }

    /// Ranks every candidate that matches from the forward index, keeping the best.
    func rank(_ candidates: [UInt32], words: [QueryWord], filters: [UInt32], facets: Set<Int>, in catalog: Catalog,
                      into ranking: inout Ranking) {
        ranking.matches.reserveCapacity(min(candidates.count, 1 << 20))
        var scorer = ItemScorer(words: words, catalog: catalog, matchedWords: matchedWords, wordMasks: wordMasks,
                                exactMasks: exactMasks, wordTypos: wordTypos)
        let isLive = catalog.isLive, filter = ItemFilter(filters, in: catalog)
        candidates.withUnsafeBufferPointer { candidates in
            for (position, item) in candidates.enumerated() {
                if position & 1023 == 1023, ranking.isOutOfTime() { break }
                scorer.prefetch(candidates, at: position)
                let number = Int(item)
                guard isLive[number] else { continue }
                if !filter.isEmpty, !filter.admits(number) { continue }
                guard let rank = scorer.rank(item: number) else { continue }
                ranking.add(item, rank: rank)
            }
        }
        if !facets.isEmpty { ranking.countValues(of: ranking.matches, attributes: facets, in: catalog) }
    }

    /// Forgets the last matches, so the next search starts over.
    public mutating func reset() {
        last = nil
        lastTerms = []
        lastKeyed = nil
    }

    /// Clears the tags of the last search's words, growing the tables to the vocabulary.
    private mutating func clearWordTags(_ catalog: Catalog) {
        let vocabularySize = catalog.vocabulary.count
        if wordMasks.count < vocabularySize {
            let added = vocabularySize - wordMasks.count
            wordMasks.append(contentsOf: repeatElement(0, count: added))
            exactMasks.append(contentsOf: repeatElement(0, count: added))
            wordTypos.append(contentsOf: repeatElement(0, count: added))
        }
        let bitWords = (vocabularySize + 63) / 64
        if matchedWords.count < bitWords { matchedWords.append(contentsOf: repeatElement(0, count: bitWords - matchedWords.count)) }
        matchedWords.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// The folded words of `text`: all but the last complete, the last a prefix unless the text
    /// ends after it (a space, punctuation).
    static func queryWords(_ text: String, matchingInside: Bool = false) -> [QueryWord] {
        var words: [QueryWord] = []
        var end = 0
        WordFolding.forEachWord(in: text) { range, folded in
            guard words.count < maximumWords else { return }
            let letters = String(decoding: folded, as: UTF8.self).unicodeScalars.count
            words.append(QueryWord(bytes: Array(folded), typos: catalogTypoBudget(forWordOfLength: letters), isPrefix: false,
                                   matchesInside: matchingInside && letters >= 3))
            end = range.upperBound
        }
        if !words.isEmpty, end == text.utf8.count { words[words.count - 1].isPrefix = true }
        return words
    }

    private static func facetAttributes(_ names: [String]?, in catalog: Catalog) -> Set<Int> {
        guard let names else { return Set(catalog.attributeNames.indices) }
        return Set(names.compactMap { catalog.attributeNumber(of: $0) })
    }

    /// The byte ranges of the words of `item` that the query matched, by field.
    private func highlights(of item: Int, in catalog: Catalog) -> [String: [Range<Int>]] {
        var highlights: [String: [Range<Int>]] = [:]
        guard let stored = catalog.item(item) else { return highlights }
        // Locals, not the searcher's properties: a closure capturing the searcher copied it (a
        // retain per array) for every word of the scan.
        let matchedWords = matchedWords, wordMasks = wordMasks
        for (index, field) in catalog.fields.enumerated() {
            // The forward index holds the field's words in the order the text has them, so it
            // tells which words matched; the text gives only their ranges.
            let words = catalog.words(of: UInt32(item), field: index)
            func isMatched(_ position: Int) -> Bool {
                let word = Int(words[position])
                return matchedWords[word >> 6] & 1 << UInt64(word & 63) != 0 && wordMasks[word] != 0
            }
            let positions = words.indices
            guard let lastMatched = positions.last(where: isMatched), let text = stored.fields[field.name] else { continue }
            var ranges: [Range<Int>] = []
            var position = positions.lowerBound
            WordFolding.forEachWordRange(in: text) { range in
                if isMatched(position) { ranges.append(range) }
                position += 1
                return position <= lastMatched
            }
            highlights[field.name] = ranges
        }
        return highlights
    }
}
