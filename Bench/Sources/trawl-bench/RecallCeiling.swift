import Trawl

/// The best recall@limit any ranker can expect on queries drawn the way `make_queries.py` draws
/// them, so a recall figure can be read against what the queries allow.
///
/// A query is k distinct words sampled uniformly from one item's query words (``queryWords(of:)``),
/// the item itself uniform over the catalog. Given the words, an item that holds all of them drew
/// them with probability 1 / C(n, k), n its number of query words, so the Bayes-optimal ranking puts
/// items with fewer query words first and cannot tell equal ones apart. The ceiling is the expected
/// share of queries whose intended item lands in the top `limit` under that ranking (ties broken at
/// random), computed from the untypo'd words: a ranker that sees the typo cannot know more.
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

    /// The recall@`limit` of the Bayes-optimal ranking over `queries` (each the drawn words before
    /// any typo and the intended item's id): its expectation over the random tie-breaks and its
    /// standard deviation (a ranker can be that much luckier on one query set); zeros for none.
    static func recall(of queries: [(words: [String], target: String)], in items: [CatalogItem], limit: Int) -> (expected: Double, deviation: Double) {
        guard !queries.isEmpty else { return (0, 0) }
        var queriesOfWord: [String: [Int]] = [:]
        for (number, query) in queries.enumerated() {
            for word in Set(query.words) { queriesOfWord[word, default: []].append(number) }
        }
        let needed = queries.map { Set($0.words).count }
        // Per query: how many matching items have each query-word count, and the target's count.
        var matchesByWordCount = [[Int: Int]](repeating: [:], count: queries.count)
        var targetWordCount = [Int?](repeating: nil, count: queries.count)
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
                if held[number] == needed[number] {
                    matchesByWordCount[number][words.count, default: 0] += 1
                    if item.id == queries[number].target { targetWordCount[number] = words.count }
                }
                held[number] = 0
            }
            touched.removeAll(keepingCapacity: true)
        }
        var total = 0.0, variance = 0.0
        for number in queries.indices {
            guard let own = targetWordCount[number] else { continue }
            let ahead = matchesByWordCount[number].filter { $0.key < own }.values.reduce(0, +)
            let tied = matchesByWordCount[number][own] ?? 1
            let chance = ahead < limit ? min(1, Double(limit - ahead) / Double(tied)) : 0
            total += chance
            variance += chance * (1 - chance)
        }
        let count = Double(queries.count)
        return (total / count, variance.squareRoot() / count)
    }
}
