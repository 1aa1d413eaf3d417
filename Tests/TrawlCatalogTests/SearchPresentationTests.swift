import Testing
import TrawlCatalog
import TrawlFind
import TrawlSearchable

/// `isPresented` is the field's presentation binding, `isSearching` the environment value: they
/// part where the user stops searching in a field that stays presented.
@MainActor @Suite struct SearchPresentationTests {
    typealias Field = SearchField<Tag, String>

    @Test func submittingKeepsSearchPresentedWithItsQuery() {
        let field = Field()
        field.isPresented = true
        field.text = "rope"
        field.submit()
        #expect(field.isPresented && !field.isFocused)
        #expect(field.isSearching) // the query stands: its results stay searched for
        field.dismissSearch()
        #expect(!field.isPresented && !field.isSearching && field.text.isEmpty)
    }

    @Test func focusLeavingAnEmptyFieldEndsSearchingButNotThePresentation() {
        let field = Field()
        field.isFocused = true
        #expect(field.isPresented && field.isSearching)
        field.isFocused = false
        #expect(field.isPresented && !field.isSearching)
        field.text = "a" // typed into the presented field: searching again
        #expect(field.isSearching)
        let tree = ScopeTree()
        let stack = tree.addContainer(to: tree.root, kind: .navigationStack)
        tree.setSearchable(field, on: stack)
        #expect(tree.isSearching(at: stack))
        field.text = ""
        #expect(!tree.isSearching(at: stack) && field.isPresented)
    }

    @Test func settingTheTextNeverPresentsSearch() {
        let field = Field()
        field.text = "programmatic"
        #expect(!field.isPresented && !field.isSearching && !field.isFocused)
        field.isPresented = true
        #expect(field.isPresented && field.isSearching && field.isFocused)
    }

    /// Present, type, submit, clear the text, present again: nothing typed yet, no scope bar.
    @Test func onTextEntryScopesWaitForTextAfterSubmitClearAndPresent() {
        let field = Field()
        field.scopes = ["All", "Docs"]
        field.scopeActivation = .onTextEntry
        field.isPresented = true
        field.text = "a"
        #expect(field.isScopeBarVisible)
        field.submit()
        field.text = ""
        field.isPresented = true
        #expect(field.isPresented && field.isSearching && !field.isScopeBarVisible)
        field.text = "b"
        #expect(field.isScopeBarVisible)
    }

    @Test func dismissingDoesNothingWhenNotPresented() {
        let field = Field()
        field.text = "kept"
        field.dismissSearch()
        #expect(field.text == "kept")
        field.isPresented = true
        field.isPresented = false // the binding set false dismisses
        #expect(field.text.isEmpty && !field.isFocused && !field.isSearching)
    }
}
