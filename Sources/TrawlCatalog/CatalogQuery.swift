/// What to look for in a ``Catalog``: tokens and a scope (attribute filters, all required) and text
/// (every word must match, the last one as a prefix while it is being typed).
public struct CatalogQuery: Hashable, Sendable {
    /// The typed text. Words are letters and digits of any script; case and diacritics are folded.
    public var text: String
    /// Attribute values an item must all have (the field's tokens, then its scope).
    public var filters: [CatalogFilter]
    /// How many ranked results to return.
    public var limit: Int
    /// The attributes whose values are counted over every match; nil counts all of them.
    public var facets: [String]?
    /// The time after which the search stops and returns the best results found so far, marked
    /// ``CatalogResults/isPartial``; nil searches to the end.
    public var budget: Duration?
    /// Whether a word of three letters or more also matches the words that contain it (`office`
    /// finds `libreoffice`), as symbol and file pickers do. Such matches rank after every prefix
    /// and typo match, as if they had one typo more than the word allows. They come from the
    /// shared n-gram index over the catalog's vocabulary.
    public var matchesInsideWords: Bool

    /// A query for `text` among the items that pass `filters`, `limit` hits, counting `facets`.
    public init(text: String = "", filters: [CatalogFilter] = [], limit: Int = 50, facets: [String]? = nil, budget: Duration? = nil,
                matchesInsideWords: Bool = false) {
        self.text = text
        self.filters = filters
        self.limit = limit
        self.facets = facets
        self.budget = budget
        self.matchesInsideWords = matchesInsideWords
    }
}

/// How many typos a query word of `length` letters tolerates: none below 5 letters, 1 from 5,
/// 2 from 9 (Meilisearch's defaults).
public func catalogTypoBudget(forWordOfLength length: Int) -> Int { length >= 9 ? 2 : length >= 5 ? 1 : 0 }
