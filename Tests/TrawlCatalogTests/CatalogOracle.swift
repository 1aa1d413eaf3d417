@testable import TrawlCatalog

/// A brute-force catalog search, written from the documented rules only: every item's words are
/// folded, every query word is compared with every word by a plain Levenshtein distance, and the
/// rank is computed criterion by criterion. The engine must agree with it exactly.
struct CatalogOracle {
    let fields: [CatalogField]
    /// Items in insertion order of their ids (the last version of each).
    let items: [CatalogItem]

    func search(_ query: CatalogQuery) -> (hits: [(String, CatalogResults.Rank)], count: Int, facets: [String: [String: Int]]) {
        let words = CatalogSearcher.queryWords(query.text, matchingInside: query.matchesInsideWords)
        var ranked: [(CatalogResults.Rank, String)] = []
        var facets: [String: [String: Int]] = [:]
        for (order, item) in items.enumerated() {
            guard query.filters.allSatisfy({ item.attributes[$0.attribute]?.contains($0.value) ?? false }) else { continue }
            guard let rank = rank(item, words, order: order) else { continue }
            ranked.append((rank, item.id))
            let counted = query.facets ?? Array(item.attributes.keys)
            for name in counted {
                for value in Set(item.attributes[name] ?? []) { facets[name, default: [:]][value, default: 0] += 1 }
            }
        }
        ranked.sort { $0.0 < $1.0 }
        return (ranked.prefix(query.limit).map { ($0.1, $0.0) }, ranked.count, facets)
    }

    private func rank(_ item: CatalogItem, _ words: [QueryWord], order: Int) -> CatalogResults.Rank? {
        let tokens: [[[UInt8]]] = fields.map { field in (item.fields[field.name].map(WordFolding.words) ?? []).map { Array($0.utf8) } }
        var typos: [Int] = [], weights: [Int] = [], exactWords = 0
        for word in words {
            var best = Int.max, weight = 0, exact = false
            for (field, list) in tokens.enumerated() {
                for token in list {
                    let distance = Self.typos(word, token)
                    guard distance != Int.max else { continue }
                    // The field weight counts the word's fewest-typo matches only.
                    if distance < best { (best, weight) = (distance, max(0, fields[field].weight)) }
                    if distance == best { weight = max(weight, fields[field].weight) }
                    if token == word.bytes { exact = true }
                }
            }
            guard best != Int.max else { return nil }
            typos.append(best)
            weights.append(weight)
            if exact { exactWords += 1 }
        }
        var proximity = 0
        for pair in words.indices.dropLast() {
            var cost = ItemScorer.farthest
            for list in tokens {
                for (a, left) in list.enumerated() where Self.matches(words[pair], left) {
                    for (b, right) in list.enumerated() where Self.matches(words[pair + 1], right) {
                        cost = min(cost, b > a ? b - a : 1 + a - b)
                    }
                }
            }
            proximity += cost
        }
        let exactField = !words.isEmpty && tokens.contains { list in
            list.count == words.count && zip(list, words).allSatisfy { $0 == $1.bytes }
        }
        return CatalogResults.Rank(typos: typos.reduce(0, +), proximity: proximity, fieldWeight: weights.reduce(0, +),
                                   exactField: exactField, exactWords: exactWords, length: words.isEmpty ? 0 : tokens.reduce(0) { $0 + $1.count }, order: order)
    }

    /// The byte ranges of the words of item `id` that match a word of `text`, by field.
    func highlights(of id: String, text: String, matchingInside: Bool = false) -> [String: [Range<Int>]] {
        let words = CatalogSearcher.queryWords(text, matchingInside: matchingInside)
        guard let item = items.last(where: { $0.id == id }) else { return [:] }
        var highlights: [String: [Range<Int>]] = [:]
        for field in fields {
            guard let text = item.fields[field.name] else { continue }
            var ranges: [Range<Int>] = []
            WordFolding.forEachWord(in: text) { range, folded in
                let token = Array(folded)
                if words.contains(where: { Self.matches($0, token) }) { ranges.append(range) }
            }
            if !ranges.isEmpty { highlights[field.name] = ranges }
        }
        return highlights
    }

    private static func matches(_ word: QueryWord, _ token: [UInt8]) -> Bool { typos(word, token) != Int.max }

    /// The typos `token` counts as a match of `word`, or `Int.max` when it is none: its edit
    /// distance within the budget, else, for a word matching inside others, 3 when it holds it.
    static func typos(_ word: QueryWord, _ token: [UInt8]) -> Int {
        let distance = word.isPrefix ? prefixDistance(word.bytes, token) : distance(word.bytes, token)
        if distance <= word.typos { return distance }
        guard word.matchesInside, String(decoding: word.bytes, as: UTF8.self).unicodeScalars.count >= 3,
              token.count >= word.bytes.count else { return Int.max }
        let found = (0...(token.count - word.bytes.count)).contains { Array(token[$0..<($0 + word.bytes.count)]) == word.bytes }
        return found ? 3 : Int.max
    }

    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        // Edits count letters (scalars), not bytes.
        let a = Array(String(decoding: a, as: UTF8.self).unicodeScalars), b = Array(String(decoding: b, as: UTF8.self).unicodeScalars)
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var next = [i + 1]
            for (j, y) in b.enumerated() { next.append(min(row[j] + (x == y ? 0 : 1), row[j + 1] + 1, next[j] + 1)) }
            row = next
        }
        return row[b.count]
    }

    /// The least distance between `a` and any prefix of `b`.
    static func prefixDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        (0...b.count).filter { $0 == b.count || b[$0] & 0xC0 != 0x80 }.map { distance(a, Array(b[..<$0])) }.min()!
    }
}
