import TrawlCatalog

extension SearchField where Token == CatalogFilter {
    /// Derives the suggestions from `catalog` as the text changes: recent searches that begin with
    /// the text, completions of its last word, then attribute values matching it as tokens.
    public func deriveSuggestions(from catalog: Catalog, limit: Int = 5) {
        suggestionProvider = { [weak self] text, tokens in
            guard !text.isEmpty else { return [] }
            var suggestions: [SearchSuggestion<CatalogFilter>] = []
            let recent = self?.recentSearches ?? []
            for past in recent where past.lowercased().hasPrefix(text.lowercased()) && past != text {
                suggestions.append(SearchSuggestion(past, completion: .text(past)))
            }
            for completion in catalog.completions(of: text, limit: limit) where !suggestions.contains(where: { $0.label == completion }) {
                suggestions.append(SearchSuggestion(completion, completion: .text(completion)))
            }
            for filter in catalog.suggestedFilters(for: text, limit: limit) where !tokens.contains(filter) {
                suggestions.append(SearchSuggestion(filter.description, completion: .token(filter)))
            }
            return suggestions
        }
    }
}

extension CatalogFilter: Identifiable {
    /// Its `attribute:value` text, unique per filter.
    public var id: String { description }
}
