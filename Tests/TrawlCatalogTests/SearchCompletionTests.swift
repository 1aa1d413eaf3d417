import Testing
import TrawlCatalog
import TrawlSearchable

/// Choosing a suggestion is SwiftUI's `searchCompletion(_:)`: it fills the field and nothing more;
/// submitting is the user's next action.
@MainActor @Suite struct SearchCompletionTests {
    typealias Field = SearchField<Tag, String>

    @Test func aTextCompletionReplacesTheTextAndDoesNotSubmit() {
        let field = Field()
        var submitted: [String] = []
        field.onSubmit = { [unowned field] in submitted.append(field.text) }
        field.isPresented = true
        field.text = "ro"
        #expect(field.choose(SearchSuggestion("rope", completion: .text("rope"))))
        #expect(field.text == "rope" && submitted.isEmpty && field.recentSearches.isEmpty)
        #expect(field.isSearching && field.isFocused && field.isPresented) // the user goes on
        field.submit() // the user's next action
        #expect(submitted == ["rope"] && field.recentSearches == ["rope"])
    }

    @Test func aTokenCompletionReplacesOnlyThePartialWord() {
        let field = Field()
        var submitted = 0
        field.onSubmit = { submitted += 1 }
        field.isPresented = true
        field.text = "manager ne"
        #expect(field.choose(SearchSuggestion("net", completion: .token(Tag(name: "net")))))
        #expect(field.tokens == [Tag(name: "net")] && field.text == "manager ")
        #expect(submitted == 0 && field.isSearching)
        // A single partial word goes whole; text ending in a space has no partial word.
        field.text = "sw"
        field.choose(SearchSuggestion("swift", completion: .token(Tag(name: "swift"))))
        #expect(field.text.isEmpty && field.tokens == [Tag(name: "net"), Tag(name: "swift")])
        field.text = "rope "
        field.choose(SearchSuggestion("docs", completion: .token(Tag(name: "docs"))))
        #expect(field.text == "rope " && field.tokens.last == Tag(name: "docs"))
    }
}
