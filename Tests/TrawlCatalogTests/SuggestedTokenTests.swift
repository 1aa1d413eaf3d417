import Testing
import TrawlCatalog
import TrawlSearchable

/// Suggested tokens (`searchable(text:tokens:suggestedTokens:)`): shown with the suggestions while
/// searching, chosen into the tokens, the app's array left alone; token edits refresh suggestions.
@MainActor @Suite struct SuggestedTokenTests {
    typealias Field = SearchField<Tag, String>

    @Test func theyShowWhileSearchingAndCountAsSuggestionsShown() {
        let field = Field()
        field.suggestedTokens = [Tag(name: "swift"), Tag(name: "rust")]
        #expect(field.shownSuggestedTokens.isEmpty && !field.showsSuggestions(in: .menu)) // not searching
        field.isPresented = true
        #expect(field.suggestions.isEmpty) // no text suggestions at all
        #expect(field.shownSuggestedTokens == [Tag(name: "swift"), Tag(name: "rust")])
        #expect(field.showsSuggestions(in: .menu) && field.showsSuggestions(in: .content))
        field.dismissSearch()
        #expect(field.shownSuggestedTokens.isEmpty && !field.showsSuggestions(in: .automatic))
    }

    @Test func choosingOneAddsItAndLeavesTheAppsArray() {
        let field = Field()
        let offered = [Tag(name: "swift"), Tag(name: "rust")]
        field.suggestedTokens = offered
        field.isPresented = true
        #expect(field.chooseSuggestedToken(id: "rust"))
        #expect(field.tokens == [Tag(name: "rust")] && field.suggestedTokens == offered)
        #expect(field.shownSuggestedTokens == [Tag(name: "swift")]) // a chosen token is not offered again
        #expect(!field.chooseSuggestedToken(id: "rust") && field.tokens.count == 1)
        // Deleting it offers it again.
        field.removeToken(id: "rust")
        #expect(field.shownSuggestedTokens == offered)
    }

    @Test func editingOrDeletingTokensRefreshesSuggestions() {
        let field = Field()
        field.suggestionProvider = { text, tokens in
            [SearchSuggestion("\(text) in \(tokens.map(\.name).joined(separator: ","))", completion: .text(text))]
        }
        field.isPresented = true
        field.text = "ro"
        field.tokens = [Tag(name: "a"), Tag(name: "b")] // the binding, set directly
        #expect(field.suggestions.map(\.label) == ["ro in a,b"])
        field.editToken(id: "a", to: Tag(name: "x"))
        #expect(field.suggestions.map(\.label) == ["ro in x,b"])
        field.tokens.removeLast()
        #expect(field.suggestions.map(\.label) == ["ro in x"])
        field.removeToken(id: "x")
        #expect(field.suggestions.map(\.label) == ["ro in "])
    }
}
