import TrawlCatalog
import TrawlFind
import Observation

/// Connects a ``SearchField`` to a `Catalog`: every change of its text, tokens or scope, and of
/// the catalog, ``limit``, ``facets`` or ``matchesInsideWords``, starts a search in the background
/// and cancels the one in progress (a superseded keystroke stops within a thousand candidates);
/// the results of the latest search are published on the main actor. Typing that narrows the
/// query refines the last matches (see `CatalogSearcher`).
///
/// Scopes restrict the search to items with that value of the catalog's scope attribute; the
/// ``unrestrictedScope`` ("All") restricts nothing, and a scope that cannot work as meant is named
/// in ``scopeDiagnostics``.
@MainActor @Observable
public final class CatalogSearchSession {
    /// The field the user types in; its suggestions are derived from the current catalog.
    public let field: SearchField<CatalogFilter, String>
    /// The catalog searched; changing it (an upsert, a delete, another catalog) searches again and
    /// derives the field's suggestions from it.
    public var catalog: Catalog {
        didSet {
            field.deriveSuggestions(from: catalog)
            searchNow()
        }
    }
    /// Results per search; changing it searches again.
    public var limit = 50 { didSet { if limit != oldValue { searchNow() } } }
    /// The attributes facets are counted for (nil: all); changing them searches again.
    public var facets: [String]? = nil { didSet { if facets != oldValue { searchNow() } } }
    /// The scope that means no restriction, as an "All" scope does (nil: none does); changing it
    /// searches again.
    public var unrestrictedScope: String? = "All" { didSet { if unrestrictedScope != oldValue { searchNow() } } }
    /// Whether query words also match inside the catalog's words (`CatalogQuery.matchesInsideWords`).
    public var matchesInsideWords = false { didSet { searchNow() } }
    /// The results of the latest finished search.
    public private(set) var results: CatalogResults?
    /// Whether a search is running.
    public private(set) var isSearching = false

    private var task: Task<CatalogSearcher, Never>?
    private var generation = 0

    /// A session searching `catalog` as `field` changes.
    public init(catalog: Catalog, field: SearchField<CatalogFilter, String> = SearchField()) {
        self.catalog = catalog
        self.field = field
        field.deriveSuggestions(from: catalog)
        observeField()
        searchNow()
    }

    /// The query the field describes now: its text, its tokens, then its scope on the catalog's
    /// scope attribute (none for the ``unrestrictedScope``, or without a scope attribute).
    public var query: CatalogQuery {
        var filters = field.tokens
        if let scope = field.scope, scope != unrestrictedScope, let attribute = catalog.scopeAttribute {
            filters.append(CatalogFilter(attribute, scope))
        }
        return CatalogQuery(text: field.text, filters: filters, limit: limit, facets: facets, matchesInsideWords: matchesInsideWords)
    }

    /// The offered and selected scopes (other than the ``unrestrictedScope``) that cannot work as
    /// meant: without a scope attribute they restrict nothing; a value no item has finds nothing.
    public var scopeDiagnostics: [CatalogScopeDiagnostic] {
        var scopes = field.scopes
        if let selected = field.scope, !scopes.contains(selected) { scopes.append(selected) }
        return scopes.filter { $0 != unrestrictedScope }.compactMap { scope in
            guard let attribute = catalog.scopeAttribute else { return .noScopeAttribute(scope: scope) }
            return catalog.hasLiveItem(with: CatalogFilter(attribute, scope)) ? nil : .scopeNotInCatalog(scope: scope, attribute: attribute)
        }
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
