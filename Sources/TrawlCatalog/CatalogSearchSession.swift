import Observation

/// Connects a ``SearchField`` to a ``Catalog``: every change of its text, tokens or scope starts
/// a search in the background and cancels the one in progress (a superseded keystroke stops
/// within a thousand candidates); the results of the latest search are published on the main
/// actor. Typing that narrows the query refines the last matches (see ``CatalogSearcher``).
@MainActor @Observable
public final class CatalogSearchSession {
    /// The field the user types in; its suggestions are derived from the catalog.
    public let field: SearchField<CatalogFilter, String>
    /// The catalog searched; replacing it searches again.
    public var catalog: Catalog { didSet { searchNow() } }
    /// Results per search, facets counted for these attributes (nil: all).
    public var limit = 50
    public var facets: [String]? = nil
    /// Whether query words also match inside the catalog's words (``CatalogQuery/matchesInsideWords``).
    public var matchesInsideWords = false { didSet { searchNow() } }
    /// The results of the latest finished search.
    public private(set) var results: CatalogResults?
    /// Whether a search is running.
    public private(set) var isSearching = false

    private var task: Task<CatalogSearcher, Never>?
    private var generation = 0

    public init(catalog: Catalog, field: SearchField<CatalogFilter, String> = SearchField()) {
        self.catalog = catalog
        self.field = field
        field.deriveSuggestions(from: catalog)
        observeField()
        searchNow()
    }

    /// The query the field describes now: its text, its tokens, then its scope on the catalog's
    /// scope attribute.
    public var query: CatalogQuery {
        var filters = field.tokens
        if let scope = field.scope, let attribute = catalog.scopeAttribute { filters.append(CatalogFilter(attribute, scope)) }
        return CatalogQuery(text: field.text, filters: filters, limit: limit, facets: facets, matchesInsideWords: matchesInsideWords)
    }

    /// Waits until the searches started so far (also those a change just scheduled) are done.
    public func waitForResults() async {
        await Task.yield() // lets a search a change scheduled start
        while let current = task {
            _ = await current.value
            if task == current { break }
        }
    }

    private func observeField() {
        withObservationTracking {
            _ = field.text
            _ = field.tokens
            _ = field.scope
        } onChange: { [weak self] in
            // Called before the change lands: search on the next turn, then watch again.
            Task { @MainActor in
                self?.searchNow()
                self?.observeField()
            }
        }
    }

    /// Starts a search for ``query``, cancelling the one in progress.
    public func searchNow() {
        generation += 1
        let generation = generation
        let previous = task
        previous?.cancel()
        let query = query, catalog = catalog
        isSearching = true
        task = Task.detached(priority: .userInitiated) { [weak self] in
            // The searcher comes back from the superseded search (it stops soon once cancelled).
            var searcher = await previous?.value ?? CatalogSearcher()
            if Task.isCancelled { return searcher }
            let results = searcher.search(query, in: catalog)
            if !Task.isCancelled {
                await MainActor.run {
                    guard let self, self.generation == generation else { return }
                    self.results = results
                    self.isSearching = false
                }
            }
            return searcher
        }
    }
}
