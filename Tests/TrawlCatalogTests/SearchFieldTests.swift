import Testing
import TrawlFind
@testable import TrawlCatalog
import TrawlSearchable

struct Tag: Identifiable, Hashable {
    var id: String { name }
    var name: String
}

/// SwiftUI's `searchable` behaviours, as named cases.
@MainActor @Suite struct SearchFieldTests {
    typealias Field = SearchField<Tag, String>

    @Test func activationAndDismissal() {
        let field = Field()
        #expect(field.prompt == "Search" && !field.isSearching)
        field.isFocused = true
        #expect(field.isSearching)
        field.isFocused = false // focus may leave while search stays presented
        #expect(field.isPresented)
        field.text = "abc"
        field.dismissSearch()
        #expect(!field.isSearching && field.text.isEmpty && !field.isFocused)
        field.dismissSearch() // safe twice, no effect when not searching
        #expect(!field.isSearching)
        field.text = "kept"
        field.dismissSearch()
        #expect(field.text == "kept") // not searching: nothing happens
    }

    @Test func isPresentedActivatesAndFocuses() {
        let field = Field()
        field.isPresented = true
        #expect(field.isSearching && field.isFocused)
        field.isPresented = false
        #expect(!field.isSearching && !field.isFocused)
    }

    @Test func cancelClearsTheTextAndHidesScopes() {
        let field = Field()
        field.scopes = ["All", "Docs"]
        field.scopeActivation = .onTextEntry
        field.isPresented = true
        #expect(!field.isScopeBarVisible) // not before typing
        field.text = "a"
        #expect(field.isScopeBarVisible)
        field.cancel()
        #expect(field.text.isEmpty && !field.isScopeBarVisible && !field.isSearching)
        field.isPresented = true
        #expect(!field.isScopeBarVisible) // typing begins again
    }

    @Test func scopesAppearPerActivation() {
        let field = Field()
        field.scopes = ["All", "Docs"]
        field.scopeActivation = .onSearchPresentation
        #expect(!field.isScopeBarVisible)
        field.isPresented = true
        #expect(field.isScopeBarVisible)
        field.dismissSearch()
        #expect(!field.isScopeBarVisible)
        // automatic follows the platform: macOS on presentation, iOS on text entry.
        field.scopeActivation = .automatic
        field.platform = .macOS
        field.isPresented = true
        #expect(field.isScopeBarVisible)
        field.dismissSearch()
        field.platform = .iOS
        field.isPresented = true
        #expect(!field.isScopeBarVisible)
        field.text = "x"
        #expect(field.isScopeBarVisible)
        field.scopes = []
        #expect(!field.isScopeBarVisible) // no scopes, no bar
    }

    @Test func aStringCompletionReplacesTheTextButKeepsTheTokens() {
        let field = Field()
        var submitted = 0
        field.onSubmit = { submitted += 1 }
        field.isPresented = true
        field.tokens = [Tag(name: "swift")]
        field.text = "ro"
        #expect(field.choose(SearchSuggestion("rope", completion: .text("rope"))))
        #expect(field.text == "rope" && field.tokens == [Tag(name: "swift")])
        #expect(submitted == 0) // a completion fills the field; submitting is the user's next action
    }

    @Test func aTokenCompletionTurnsTheTextIntoTheToken() {
        let field = Field()
        field.isPresented = true
        field.text = "sw"
        field.choose(SearchSuggestion("swift", completion: .token(Tag(name: "swift"))))
        #expect(field.text.isEmpty && field.tokens == [Tag(name: "swift")])
    }

    @Test func suggestionsWithoutACompletionAreInert() {
        let field = Field()
        var submitted = 0
        field.onSubmit = { submitted += 1 }
        field.isPresented = true
        field.text = "abc"
        #expect(!field.choose(SearchSuggestion("Recent: none")))
        #expect(field.text == "abc" && field.tokens.isEmpty && submitted == 0 && field.isSearching)
    }

    @Test func suggestedTokensJoinTheTokensAndEditableTokensChangeInPlace() {
        let field = Field()
        field.suggestedTokens = [Tag(name: "a"), Tag(name: "b")]
        #expect(field.chooseSuggestedToken(id: "b"))
        #expect(field.tokens == [Tag(name: "b")] && field.suggestedTokens == [Tag(name: "a"), Tag(name: "b")])
        field.tokens.append(Tag(name: "c"))
        #expect(field.editToken(id: "b", to: Tag(name: "bee")))
        #expect(field.tokens == [Tag(name: "bee"), Tag(name: "c")])
        #expect(field.removeToken(id: "c") && !field.removeToken(id: "c"))
    }

    @Test func suggestionsFollowTheTextAndAnEmptyListShowsNothing() {
        let field = Field()
        field.suggestionProvider = { text, _ in text.isEmpty ? [] : [SearchSuggestion(text + "!", completion: .text(text + "!"))] }
        field.isPresented = true
        #expect(!field.showsSuggestions(in: .menu)) // empty list
        field.text = "a"
        #expect(field.suggestions.map(\.label) == ["a!"])
        #expect(field.showsSuggestions(in: .menu) && field.showsSuggestions(in: .content))
        field.suggestionsPlacement = .content
        #expect(!field.showsSuggestions(in: .menu) && field.showsSuggestions(in: .content))
        field.suggestionsVisibility[.content] = .hidden
        #expect(!field.showsSuggestions(in: .content))
        field.dismissSearch()
        #expect(!field.showsSuggestions(in: .automatic))
    }

    @Test func submitFiresOnlyFromTheFieldAndRemovesFocus() {
        let field = Field()
        var submitted: [String] = []
        field.onSubmit = { [unowned field] in submitted.append(field.text) }
        field.isPresented = true
        field.text = "programmatic" // a text change is not a submit
        #expect(submitted.isEmpty)
        field.submit()
        #expect(submitted == ["programmatic"] && !field.isFocused && field.isPresented)
        #expect(field.recentSearches == ["programmatic"])
    }

    @Test func typedTextBecomesTokensByEachOptInRule() {
        let field = Field()
        field.makeToken = { Tag(name: $0) }
        field.isPresented = true
        field.text = "swift,"
        #expect(field.tokens.isEmpty && field.text == "swift,") // no rule on yet
        field.text = ""
        field.tokenDivider = ","
        field.text = "swift,ro"
        #expect(field.tokens == [Tag(name: "swift")] && field.text == "ro")
        field.tokenizesKnownTokens = true
        field.knownTokens = [(text: "Linux", token: Tag(name: "linux"))]
        field.text = "linux"
        #expect(field.tokens == [Tag(name: "swift"), Tag(name: "linux")] && field.text.isEmpty)
        field.tokenizesOnSubmit = true
        field.text = "docs"
        field.submit()
        #expect(field.tokens.last == Tag(name: "docs") && field.text.isEmpty)
    }

    @Test func recentSearchesAreCappedAndDeduplicated() {
        let field = Field()
        field.recentSearchLimit = 3
        for text in ["a", "b", "c", "a", "d"] {
            field.isPresented = true
            field.text = text
            field.submit()
        }
        #expect(field.recentSearches == ["d", "a", "c"])
    }
}

/// The environment of a searchable node, and the diagnostics SwiftUI does not give.
@MainActor @Suite struct SearchableScopeTreeTests {
    @Test func isSearchingReadOutsideTheSubtreeIsFalse() {
        let tree = ScopeTree()
        let stack = tree.addContainer(to: tree.root, kind: .navigationStack)
        let searchable = tree.addContainer(to: stack)
        let inside = tree.addContainer(to: searchable)
        let sibling = tree.addContainer(to: stack)
        let sheet = tree.addContainer(to: inside, kind: .sheet)
        let inSheet = tree.addContainer(to: sheet)
        let field = SearchField<Tag, String>()
        tree.setSearchable(field, on: searchable)
        field.isPresented = true
        #expect(tree.isSearching(at: searchable) && tree.isSearching(at: inside))
        #expect(!tree.isSearching(at: stack)) // a parent
        #expect(!tree.isSearching(at: sibling))
        #expect(!tree.isSearching(at: inSheet)) // another hierarchy
        tree.dismissSearch(at: sibling) // a no-op there
        #expect(field.isSearching)
        tree.dismissSearch(at: inSheet)
        #expect(field.isSearching)
        tree.dismissSearch(at: inside)
        #expect(!field.isSearching)
        tree.dismissSearch(at: inside) // twice is safe
        #expect(!field.isSearching)
    }

    @Test func theFieldWillNotAppearDiagnostic() {
        let tree = ScopeTree()
        let plain = tree.addContainer(to: tree.root)
        tree.setSearchable(SearchField<Tag, String>(), on: plain)
        #expect(tree.searchDiagnostics == [.fieldWillNotAppear(plain)])
        #expect(tree.searchDiagnostics.first?.description.contains("will not appear") == true)
        // Inside a sheet, a navigation stack outside the sheet does not count.
        let tree2 = ScopeTree()
        let stack = tree2.addContainer(to: tree2.root, kind: .navigationStack)
        let sheet = tree2.addContainer(to: stack, kind: .sheet)
        tree2.setSearchable(SearchField<Tag, String>(), on: sheet)
        #expect(tree2.searchDiagnostics == [.fieldWillNotAppear(sheet)])
    }

    @Test func scopesWithoutASearchableOnTheSameNode() {
        let tree = ScopeTree()
        let stack = tree.addContainer(to: tree.root, kind: .navigationStack)
        let list = tree.addContainer(to: stack)
        tree.setSearchable(SearchField<Tag, String>(), on: stack)
        tree.setSearchScopes(true, on: list)
        #expect(tree.searchDiagnostics == [.scopesWithoutSearchable(list)])
        tree.setSearchScopes(false, on: list)
        tree.setSearchScopes(true, on: stack)
        #expect(tree.searchDiagnostics.isEmpty)
    }

    @Test func placementResolvesAgainstTheContainers() {
        let tree = ScopeTree()
        let split = tree.addContainer(to: tree.root, kind: .navigationSplitView)
        let stack = tree.addContainer(to: tree.root, kind: .navigationStack)
        let a = tree.addContainer(to: split), b = tree.addContainer(to: stack)
        tree.setSearchable(SearchField<Tag, String>(), placement: .sidebar, on: a)
        tree.setSearchable(SearchField<Tag, String>(), placement: .sidebar, on: b)
        #expect(tree.resolvedSearchPlacement(of: a) == .sidebar)
        #expect(tree.resolvedSearchPlacement(of: b) == .automatic) // no split view above: falls back
        #expect(tree.searchDiagnostics == [.placementFellBack(b, requested: .sidebar)])
        tree.setSearchable(SearchField<Tag, String>(), placement: .navigationBarDrawer(displayMode: .always), on: b)
        #expect(tree.resolvedSearchPlacement(of: b) == .navigationBarDrawer(displayMode: .always))
        tree.setSearchable(SearchField<Tag, String>(), placement: .toolbarPrincipal, on: a)
        #expect(tree.resolvedSearchPlacement(of: a) == .toolbarPrincipal)
    }
}

/// A field driving a catalog search: results follow the typing; suggestions come from the catalog.
@MainActor @Suite struct CatalogSearchSessionTests {
    static let catalog: Catalog = {
        var catalog = Catalog(items: [
            CatalogItem(id: "1", fields: ["title": "Network Manager"], attributes: ["section": ["net"]]),
            CatalogItem(id: "2", fields: ["title": "network tools"], attributes: ["section": ["utils"]]),
            CatalogItem(id: "3", fields: ["title": "netcat"], attributes: ["section": ["net"]]),
        ])
        catalog.scopeAttribute = "section"
        return catalog
    }()

    @Test func resultsFollowTheFieldAndSupersededKeystrokesAreDropped() async {
        let session = CatalogSearchSession(catalog: Self.catalog)
        session.field.isPresented = true
        for key in "netw" { session.field.text.append(key) } // each change starts a search, superseding the last
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["1", "2"])
        session.field.scope = "utils"
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["2"])
        session.field.scope = nil
        session.field.tokens = [CatalogFilter("section", "net")]
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["1"])
    }

    /// Turning on matches inside words searches again: "cat" begins no word, and is inside "netcat".
    @Test func matchingInsideWordsSearchesAgain() async {
        let session = CatalogSearchSession(catalog: Self.catalog)
        session.field.text = "cat"
        await session.waitForResults()
        #expect(session.results?.hits.isEmpty == true)
        session.matchesInsideWords = true
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["3"])
    }

    @Test func suggestionsComeFromTheCatalog() {
        let field = SearchField<CatalogFilter, String>()
        field.deriveSuggestions(from: Self.catalog)
        field.isPresented = true
        field.text = "manager ne"
        #expect(field.suggestions.map(\.label).prefix(2) == ["manager network", "manager netcat"])
        field.text = "uti"
        #expect(field.suggestions.contains { $0.completion == .token(CatalogFilter("section", "utils")) })
        field.choose(field.suggestions.first { $0.label == "section:utils" }!)
        #expect(field.tokens == [CatalogFilter("section", "utils")] && field.text.isEmpty)
        field.isPresented = true
        field.text = "netcat"
        field.submit()
        field.isPresented = true
        field.text = "net"
        #expect(field.suggestions.first?.label == "netcat") // a recent search first
    }
}
