/// The ranked answer to a ``CatalogQuery``.
public struct CatalogResults: Sendable {
    /// One ranked item.
    public struct Hit: Sendable, Identifiable {
        /// The item's id.
        public var id: String { item.id }
        /// The item found.
        public var item: CatalogItem
        /// The matched words' UTF-8 byte ranges in each field's text, by field name.
        public var highlights: [String: [Range<Int>]]
        /// The ranking criteria, for hosts that show why an item ranks where it does.
        public var rank: Rank
    }

    /// The criteria results are sorted by, in order; the first difference decides.
    public struct Rank: Hashable, Sendable, Comparable {
        /// Typos summed over the query words (fewer first).
        public var typos: Int
        /// Distance between consecutive query words in one field, summed; each pair counts at
        /// most 8, a reversed pair one more (closer first).
        public var proximity: Int
        /// The weight of the best field each query word matched in, summed (heavier first).
        public var fieldWeight: Int
        /// Whether a field holds exactly the query's words, then how many query words matched
        /// exactly, not as a prefix or with a typo (more first).
        public var exactField: Bool
        /// How many query words matched exactly (see ``exactField``).
        public var exactWords: Int
        /// The item's words over all its fields (fewer first): of two items that match alike, the
        /// shorter is likelier the one searched for, since a given set of words says more of a
        /// short text than of a long one (BM25's length norm orders them the same way). Zero for
        /// a query without text.
        public var length: Int
        /// The order the item was first inserted in (earlier first): a stable tie-break.
        public var order: Int

        /// Whether `a` ranks before `b`: the first criterion that differs decides.
        public static func < (a: Rank, b: Rank) -> Bool {
            // Tuples compare up to six elements: the last two criteria are a second tuple.
            let (relevanceA, relevanceB) = ((a.typos, a.proximity, -a.fieldWeight, a.exactField ? 0 : 1, -a.exactWords),
                                            (b.typos, b.proximity, -b.fieldWeight, b.exactField ? 0 : 1, -b.exactWords))
            return relevanceA != relevanceB ? relevanceA < relevanceB : (a.length, a.order) < (b.length, b.order)
        }
    }

    /// A value of a facet attribute and how many matches have it.
    public struct FacetValue: Hashable, Sendable {
        /// The attribute value.
        public var value: String
        /// How many matching items have it.
        public var count: Int
    }

    /// The best results, best first, at most the query's limit.
    public var hits: [Hit] = []
    /// How many items match (all of them, not only those returned); a lower bound when partial.
    public var matchCount = 0
    /// For each counted attribute, its values over every match, most frequent first.
    public var facets: [String: [FacetValue]] = [:]
    /// Whether the time budget ran out (or the search was cancelled) before every candidate was seen.
    public var isPartial = false
}

/// The state a search leaves for the next keystroke: its words and every match.
struct Refinement: Sendable {
    var revision: Revision
    var words: [QueryWord]
    var filters: Set<CatalogFilter>
    var matches: [UInt32]

    /// Whether every match of `words` and `filters` is among `matches`: earlier words unchanged,
    /// the last one (a prefix) extended or completed, more words or filters added, and no word's
    /// typo budget grown.
    func covers(_ words: [QueryWord], _ filters: Set<CatalogFilter>, revision: Revision) -> Bool {
        guard revision === self.revision, filters.isSuperset(of: self.filters), words.count >= self.words.count else { return false }
        for (index, old) in self.words.enumerated() {
            let new = words[index]
            if index < self.words.count - 1 || !old.isPrefix {
                guard new == old else { return false }
            } else {
                guard new.bytes.starts(with: old.bytes), new.typos <= old.typos, !new.matchesInside || old.matchesInside else { return false }
            }
        }
        return true
    }
}

/// A folded query word, its typo budget, whether it is matched as a prefix, and whether it also
/// matches the words that contain it (``CatalogQuery/matchesInsideWords``, for words of three
/// letters or more).
struct QueryWord: Hashable, Sendable {
    var bytes: [UInt8]
    var typos: Int
    var isPrefix: Bool
    var matchesInside = false

    /// The typos a match inside a word counts: one more than any budget allows, so that it ranks
    /// after every prefix and typo match (two bits per word hold it).
    static let insideTypos = 3
}
