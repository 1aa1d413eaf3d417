import Trawl

/// The best recall@limit any ranker can expect on queries drawn the way `make_queries.py` draws
/// them, so a recall figure can be read against what the queries allow.
///
/// A query is k distinct words sampled uniformly from one item's query words (``queryWords(of:)``),
/// k = min(c, n) for c uniform in 1...3 and n the item's number of query words, the item uniform
/// over the catalog. Given the words, an item that holds all of them was the source with
/// probability ∝ P(k | n) / C(n, k), which falls as n grows: the Bayes-optimal ranking puts items
/// with fewer query words first, and its expected recall for a query is the share of that
/// probability its top `limit` hold. The ceiling averages it over the queries, computed from the
/// words *before* any typo (more than an engine sees): no ranker can expect more. A ranker's
/// measured recall still varies around its own expectation with the query set (the deviation
/// returned is that spread for the best ranking).
enum RecallCeiling {
    /// Words 1–2 letters long, with digits or non-ASCII letters, or in this list are never drawn
    /// (the list is make_queries.py's).
    static let stopWords: Set<String> = Set("""
        the and for with that this from are you your can not but all any has have was were will which \
        into its also use used using other more such than then there these those may been only when \
        where what who how one two based some most each both very well
        """.split(separator: " ").map(String.init))

    /// The item's distinct drawable words, title first: lowercased runs of letters and digits that
    /// are all ASCII letters, three or more long, and not stop words.
    static func queryWords(of item: CatalogItem) -> [String] {
        var words: [String] = []
        var seen: Set<String> = []
        for field in ["title", "body"] {
            let text = (item.fields[field] ?? "").lowercased()
            for run in text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
                guard run.count >= 3, run.allSatisfy({ $0.isASCII && $0.isLetter }) else { continue }
                let word = String(run)
                if !stopWords.contains(word), seen.insert(word).inserted { words.append(word) }
            }
        }
        return words
    }

    /// The expected recall@`limit` of the Bayes-optimal ranking over `queries` (each the words
    /// drawn, before any typo), and the standard deviation of a measured recall around it; zeros
    /// for no queries. The intended items are not needed: the expectation is over all of them.
    static func recall(of queries: [[String]], in items: [CatalogItem], limit: Int) -> (expected: Double, deviation: Double) {
        guard !queries.isEmpty else { return (0, 0) }
        var queriesOfWord: [String: [Int]] = [:]
        for (number, words) in queries.enumerated() {
            for word in Set(words) { queriesOfWord[word, default: []].append(number) }
        }
        let needed = queries.map { Set($0).count }
        // Per query: how many matching items have each query-word count.
        var matchesByWordCount = [[Int: Int]](repeating: [:], count: queries.count)
        var held = [Int](repeating: 0, count: queries.count)
        var touched: [Int] = []
        for item in items {
            let words = queryWords(of: item)
            for word in words {
                for number in queriesOfWord[word] ?? [] {
                    if held[number] == 0 { touched.append(number) }
                    held[number] += 1
                }
            }
            for number in touched {
                if held[number] == needed[number] { matchesByWordCount[number][words.count, default: 0] += 1 }
                held[number] = 0
            }
            touched.removeAll(keepingCapacity: true)
        }
        var total = 0.0, variance = 0.0
        for number in queries.indices {
            let k = needed[number]
            // Each item's weight, the likeliest first.
            let weights = matchesByWordCount[number].map { (weight: likelihood(k: k, n: $0.key), count: $0.value) }.sorted { $0.weight > $1.weight }
            let all = weights.reduce(0) { $0 + $1.weight * Double($1.count) }
            guard all > 0 else { continue }
            var left = limit, top = 0.0
            for (weight, count) in weights where left > 0 {
                let taken = min(left, count)
                top += weight * Double(taken)
                left -= taken
            }
            let chance = top / all
            total += chance
            variance += chance * (1 - chance)
        }
        let count = Double(queries.count)
        return (total / count, variance.squareRoot() / count)
    }

    /// P(k words drawn | n query words) / C(n, k): the chance an item with n query words gives a
    /// given set of k of them.
    static func likelihood(k: Int, n: Int) -> Double {
        guard n >= k, k > 0 else { return 0 }
        let chanceOfK = Double((1...3).filter { min($0, n) == k }.count) / 3
        var combinations = 1.0
        for i in 0..<k { combinations = combinations * Double(n - i) / Double(i + 1) }
        return chanceOfK / combinations
    }
}
