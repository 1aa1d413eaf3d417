import TrawlCatalog
import Observation
import TrawlFind

/// The model behind a search field, in the vocabulary of SwiftUI's `searchable` family: text,
/// tokens and suggested tokens, suggestions with completions, scopes with their activation,
/// presentation (`isPresented`, `isSearching`, `dismissSearch`), toolbar behaviours, focus and
/// submit. Headless and observable: a SwiftUI view binds to it; a terminal front or a test drives
/// it the same way.
///
/// Rules (SwiftUI's where its documentation says; Trawl's choice, documented, where it is silent):
/// - ``isPresented`` is the `isPresented` binding: the app sets it (true presents the field and
///   focuses it), the user sets it by focusing the field; Cancel and ``dismissSearch()`` clear it.
///   Submitting and focus leaving keep the field presented.
/// - ``isSearching`` is the `isSearching` environment value: the user is searching while the
///   presented field has focus or holds a query (text or tokens). So after submit the results
///   stay searched for, and focus leaving an empty field ends searching while the field stays
///   presented (as on macOS). Setting ``text`` never presents search: people type only into a
///   presented, focused field.
/// - ``dismissSearch()`` ends search: presentation and focus gone, text cleared (tokens stay); it
///   does nothing when search is not presented, so calling it twice is safe. ``cancel()`` (the
///   Cancel button) does the same.
/// - Choosing a text completion replaces the text (tokens stay); a token completion adds the token
///   in place of the partial word being typed; neither submits (submitting is the user's next
///   action). An entry without a completion does nothing.
/// - Suggested tokens show with the suggestions while searching (those not already in the field);
///   choosing one adds it to ``tokens`` and leaves ``suggestedTokens``, the app's, as it is. Any
///   change of the text or the tokens refreshes the suggestions.
/// - ``submit()`` fires ``onSubmit`` (nothing else does; programmatic text changes never do),
///   records the text among ``recentSearches`` and removes focus.
@MainActor @Observable
public final class SearchField<Token: Identifiable & Hashable, Scope: Hashable>: SearchPresenting {
    // MARK: Text and tokens

    /// The text being edited; typing turns text into tokens where a tokenizing rule is on.
    public var text = "" {
        didSet {
            guard text != oldValue else { return }
            tokenizeTypedText()
            refreshSuggestions()
        }
    }
    /// The tokens in the field, in order (the `tokens` binding); any change refreshes the
    /// suggestions.
    public var tokens: [Token] = [] {
        didSet { if tokens != oldValue { refreshSuggestions() } }
    }
    /// Tokens the app offers for the user to add (the `suggestedTokens` binding): the app owns
    /// them, so choosing one leaves this as it is.
    public var suggestedTokens: [Token] = []
    /// The placeholder shown in an empty field.
    public var prompt = "Search"

    /// Replaces the token with `id` by `token` in place (an editable token); returns false when
    /// there is no such token.
    @discardableResult
    public func editToken(id: Token.ID, to token: Token) -> Bool {
        guard let index = tokens.firstIndex(where: { $0.id == id }) else { return false }
        tokens[index] = token
        return true
    }

    /// Removes the token with `id` (a pill deleted); returns false when there is none.
    @discardableResult
    public func removeToken(id: Token.ID) -> Bool {
        guard let index = tokens.firstIndex(where: { $0.id == id }) else { return false }
        tokens.remove(at: index)
        return true
    }

    /// Whether the field holds a query: text or tokens.
    public var hasQuery: Bool { !text.isEmpty || !tokens.isEmpty }

    // MARK: Typed text into tokens (each rule opt-in)

    /// Turns a typed word into a token (nil when it is not one); the tokenizing rules use it.
    public var makeToken: ((String) -> Token?)?
    /// When this character is typed, the text before it becomes a token.
    public var tokenDivider: Character?
    /// Whether submitting turns the text into a token.
    public var tokenizesOnSubmit = false
    /// Whether text equal to a known token (see ``knownTokens``) becomes that token at once.
    public var tokenizesKnownTokens = false
    /// The tokens the known-token rule recognizes, with the text that names each.
    public var knownTokens: [(text: String, token: Token)] = []

    private func tokenizeTypedText() {
        if let divider = tokenDivider, let index = text.firstIndex(of: divider) {
            let word = String(text[..<index]).trimmingSpaces
            let rest = String(text[text.index(after: index)...])
            if !word.isEmpty, let token = makeToken?(word) {
                tokens.append(token)
                text = rest
                return
            }
        }
        if tokenizesKnownTokens {
            let word = text.trimmingSpaces
            if let known = knownTokens.first(where: { $0.text.lowercased() == word.lowercased() }), !word.isEmpty {
                tokens.append(known.token)
                text = ""
            }
        }
    }

    // MARK: Suggestions

    /// The suggestion list, best first; an empty list shows nothing.
    public var suggestions: [SearchSuggestion<Token>] = []
    /// Called as the text or the tokens change, to supply fresh suggestions (the host's, or those
    /// a `Catalog` derives).
    public var suggestionProvider: ((_ text: String, _ tokens: [Token]) -> [SearchSuggestion<Token>])? {
        didSet { refreshSuggestions() }
    }
    /// Where suggestions show.
    public var suggestionsPlacement: Searchable.SuggestionsPlacement = .automatic
    /// Whether each placement shows suggestions (`searchSuggestions(_:for:)`); absent means
    /// automatic.
    public var suggestionsVisibility: [Searchable.SuggestionsPlacement: SearchVisibility] = [:]

    /// The suggested tokens shown with the suggestions now: while searching, those of
    /// ``suggestedTokens`` not already in the field.
    public var shownSuggestedTokens: [Token] {
        guard isSearching else { return [] }
        let chosen = Set(tokens.map(\.id))
        return suggestedTokens.filter { !chosen.contains($0.id) }
    }

    /// Whether the suggestion list shows in `placement` now: while searching in the focused field,
    /// with at least one suggestion or shown suggested token, where the placement is in use and not
    /// hidden.
    public func showsSuggestions(in placement: Searchable.SuggestionsPlacement) -> Bool {
        guard isSearching, isFocused, !suggestions.isEmpty || !shownSuggestedTokens.isEmpty else { return false }
        let visibility = suggestionsVisibility[placement] ?? .automatic
        if visibility == .hidden { return false }
        if visibility == .visible { return true }
        return suggestionsPlacement == .automatic || placement == .automatic || suggestionsPlacement == placement
    }

    private func refreshSuggestions() {
        if let suggestionProvider { suggestions = suggestionProvider(text, tokens) }
    }

    /// Chooses a suggestion, as SwiftUI's `searchCompletion(_:)` does: a text completion replaces
    /// the text (tokens stay); a token completion adds the token in place of the partial word
    /// being typed (the text before it stays). Neither submits. Returns false for an inert entry.
    @discardableResult
    public func choose(_ suggestion: SearchSuggestion<Token>) -> Bool {
        switch suggestion.completion {
        case nil:
            return false
        case .text(let completion)?:
            text = completion
        case .token(let token)?:
            tokens.append(token)
            text = text.removingPartialWord
        }
        return true
    }

    /// Adds the suggested token with `id` to the tokens (``suggestedTokens`` stays the app's);
    /// returns false when there is no such suggested token or it is in the field already.
    @discardableResult
    public func chooseSuggestedToken(id: Token.ID) -> Bool {
        guard let token = suggestedTokens.first(where: { $0.id == id }), !tokens.contains(where: { $0.id == id }) else { return false }
        tokens.append(token)
        return true
    }

    // MARK: Scopes

    /// The selected scope.
    public var scope: Scope?
    /// The scopes offered.
    public var scopes: [Scope] = []
    /// When the scope bar shows.
    public var scopeActivation: Searchable.ScopeActivation = .automatic
    /// The platform whose conventions `automatic` settings follow.
    public var platform: SearchPlatformProfile = .iOS

    /// Whether the scope bar shows now: only with scopes, while search is presented, and for
    /// activation on text entry only while the field holds a query (so not after a presentation
    /// before anything is typed, nor once the text is cleared).
    public var isScopeBarVisible: Bool {
        guard isPresented, !scopes.isEmpty else { return false }
        switch scopeActivation {
        case .onSearchPresentation: return true
        case .onTextEntry: return hasQuery
        case .automatic: return platform == .macOS ? true : hasQuery
        }
    }

    // MARK: Presentation and focus

    /// Whether search is presented: the `isPresented` binding. Setting it true presents the field
    /// and focuses it; false dismisses search (``dismissSearch()``). The user sets it true by
    /// focusing the field, false with Cancel.
    public var isPresented = false {
        didSet {
            if isPresented {
                if !isFocused { isFocused = true }
                refreshSuggestions()
            } else if oldValue {
                // Dismissed (by the binding, Cancel or dismissSearch): focus and text go.
                isFocused = false
                text = ""
            }
        }
    }
    /// Whether the user is searching: the `isSearching` environment value (read at a node through
    /// `ScopeTree/isSearching(at:)`). True while search is presented and the field has focus or
    /// holds a query; see the rules above.
    public var isSearching: Bool { isPresented && (isFocused || hasQuery) }
    /// Whether the field has focus (the `searchFocused` binding): focusing presents search;
    /// unfocusing leaves it presented.
    public var isFocused = false {
        didSet { if isFocused, !isPresented { isPresented = true } }
    }

    // MARK: Toolbar

    /// Whether presenting search may hide the navigation title
    /// (`searchPresentationToolbarBehavior(_:)`); see ``hidesNavigationTitle``.
    public var presentationToolbarBehavior: Searchable.PresentationToolbarBehavior = .automatic
    /// Whether the field may be minimized into a toolbar button (`searchToolbarBehavior(_:)`);
    /// see ``isMinimized``.
    public var toolbarBehavior: Searchable.ToolbarBehavior = .automatic

    /// Whether the host hides the navigation title now: while search is presented, unless
    /// ``presentationToolbarBehavior`` avoids hiding content. Automatic hides it on iOS (as
    /// `UISearchController` hides the navigation bar during presentation) and not on macOS, whose
    /// toolbar field leaves the title in place.
    public var hidesNavigationTitle: Bool {
        guard isPresented else { return false }
        switch presentationToolbarBehavior {
        case .avoidHidingContent: return false
        case .automatic: return platform == .iOS
        }
    }

    /// Whether the host shows the field minimized, as a search button, now: with
    /// `Searchable/ToolbarBehavior/minimize` while search is not presented (presenting expands
    /// it). Automatic never minimizes here: SwiftUI decides by context, which Trawl cannot see.
    public var isMinimized: Bool { toolbarBehavior == .minimize && !isPresented }

    // MARK: Submit

    /// Called when the user submits (`onSubmit(of: .search)`).
    public var onSubmit: (() -> Void)?
    /// The submitted texts, most recent first, without repeats, at most ``recentSearchLimit``.
    public private(set) var recentSearches: [String] = []
    /// How many ``recentSearches`` are kept.
    public var recentSearchLimit = 10

    /// A field showing `prompt` while empty, not presented.
    public init(prompt: String = "Search") {
        self.prompt = prompt
    }

    /// The user submits the field (Return): tokenizes on submit where that rule is on, records
    /// the text as a recent search, fires ``onSubmit`` and removes focus. Search stays presented
    /// (call ``dismissSearch()`` in ``onSubmit`` to end it, as in SwiftUI).
    public func submit() {
        let submitted = text.trimmingSpaces
        if tokenizesOnSubmit, !submitted.isEmpty, let token = makeToken?(submitted) {
            tokens.append(token)
            text = ""
        }
        if !submitted.isEmpty {
            recentSearches.removeAll { $0 == submitted }
            recentSearches.insert(submitted, at: 0)
            if recentSearches.count > recentSearchLimit { recentSearches.removeLast(recentSearches.count - recentSearchLimit) }
        }
        onSubmit?()
        isFocused = false
    }

    /// The Cancel button: the same as ``dismissSearch()``.
    public func cancel() { dismissSearch() }

    /// Ends search, as SwiftUI's `dismissSearch` action does: not presented, not searching, focus
    /// removed, text cleared (tokens stay). Does nothing when search is not presented.
    public func dismissSearch() {
        guard isPresented else { return }
        isPresented = false
    }
}
