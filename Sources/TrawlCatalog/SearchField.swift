import Observation
import TrawlFind

/// The model behind a search field, in the vocabulary of SwiftUI's `searchable` family: text,
/// tokens and suggested tokens, suggestions with completions, scopes with their activation,
/// presentation (`isPresented`, `isSearching`, `dismissSearch`), focus and submit. Headless and
/// observable: a SwiftUI view binds to it; a terminal front or a test drives it the same way.
///
/// Rules (SwiftUI's, where SwiftUI documents them):
/// - `isSearching` is true from activation (focus, `isPresented`, typing) until cancel, submit or
///   dismiss; focus may leave while search stays presented.
/// - ``dismissSearch()`` ends search: text cleared, focus removed, scopes hidden; it does nothing
///   when not searching, so calling it twice is safe. ``cancel()`` (the Cancel button) does the same.
/// - Choosing a text completion replaces the text being edited and keeps the tokens; a token
///   completion turns that text into the token; a suggested token moves into the tokens; an entry
///   without a completion does nothing. Choosing a completion submits.
/// - ``submit()`` fires ``onSubmit`` (only it and completions do; programmatic text changes never
///   do) and records the text among ``recentSearches``.
@MainActor @Observable
public final class SearchField<Token: Identifiable & Hashable, Scope: Hashable>: SearchPresenting {
    // MARK: Text and tokens

    /// The text being edited; typing turns text into tokens where a tokenizing rule is on.
    public var text = "" {
        didSet {
            guard text != oldValue else { return }
            if !text.isEmpty, isSearching { hasEnteredText = true }
            tokenizeTypedText()
            refreshSuggestions()
        }
    }
    /// The tokens in the field, in order.
    public var tokens: [Token] = []
    /// Tokens offered for the user to add.
    public var suggestedTokens: [Token] = []
    /// The placeholder shown in an empty field.
    public var prompt = "Search"

    /// Replaces the token with `id` by `token` in place (an editable token); returns false when
    /// there is no such token.
    @discardableResult
    public func editToken(id: Token.ID, to token: Token) -> Bool {
        guard let index = tokens.firstIndex(where: { $0.id == id }) else { return false }
        tokens[index] = token
        refreshSuggestions()
        return true
    }

    /// Removes the token with `id` (a pill deleted); returns false when there is none.
    @discardableResult
    public func removeToken(id: Token.ID) -> Bool {
        guard let index = tokens.firstIndex(where: { $0.id == id }) else { return false }
        tokens.remove(at: index)
        refreshSuggestions()
        return true
    }

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
    /// a ``Catalog`` derives).
    public var suggestionProvider: ((_ text: String, _ tokens: [Token]) -> [SearchSuggestion<Token>])? {
        didSet { refreshSuggestions() }
    }
    /// Where suggestions show, and whether each place shows them.
    public var suggestionsPlacement: Searchable.SuggestionsPlacement = .automatic
    public var suggestionsVisibility: [Searchable.SuggestionsPlacement: SearchVisibility] = [:]

    /// Whether the suggestion list shows in `placement` now: while searching, with at least one
    /// suggestion, where the placement is in use and not hidden.
    public func showsSuggestions(in placement: Searchable.SuggestionsPlacement) -> Bool {
        guard isSearching, !suggestions.isEmpty else { return false }
        let visibility = suggestionsVisibility[placement] ?? .automatic
        if visibility == .hidden { return false }
        if visibility == .visible { return true }
        return suggestionsPlacement == .automatic || placement == .automatic || suggestionsPlacement == placement
    }

    private func refreshSuggestions() {
        if let suggestionProvider { suggestions = suggestionProvider(text, tokens) }
    }

    /// Chooses a suggestion: a text completion replaces the text (tokens stay), a token completion
    /// turns the text into the token; both submit. Returns false for an inert entry.
    @discardableResult
    public func choose(_ suggestion: SearchSuggestion<Token>) -> Bool {
        switch suggestion.completion {
        case nil:
            return false
        case .text(let completion)?:
            text = completion
        case .token(let token)?:
            tokens.append(token)
            text = ""
        }
        submit()
        return true
    }

    /// Moves a suggested token into the tokens.
    @discardableResult
    public func chooseSuggestedToken(id: Token.ID) -> Bool {
        guard let index = suggestedTokens.firstIndex(where: { $0.id == id }) else { return false }
        tokens.append(suggestedTokens.remove(at: index))
        refreshSuggestions()
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
    private var hasEnteredText = false

    /// Whether the scope bar shows now: only with scopes, while searching, and on text entry once
    /// something was typed; hidden again after cancel or dismiss.
    public var isScopeBarVisible: Bool {
        guard isSearching, !scopes.isEmpty else { return false }
        switch scopeActivation {
        case .onSearchPresentation: return true
        case .onTextEntry: return hasEnteredText
        case .automatic: return platform == .macOS ? true : hasEnteredText
        }
    }

    // MARK: Presentation and focus

    /// Whether search is presented (the `isPresented` binding): setting it true activates search
    /// and focuses the field; false dismisses it.
    public var isPresented: Bool {
        get { isSearching }
        set { if newValue { activate(focus: true) } else { dismissSearch() } }
    }
    /// Whether search is active.
    public private(set) var isSearching = false
    /// Whether the field has focus (the `searchFocused` binding): focusing activates search;
    /// unfocusing leaves search presented.
    public var isFocused = false {
        didSet { if isFocused, !isSearching { activate(focus: true) } }
    }
    /// Toolbar hints, carried for the host.
    public var presentationToolbarBehavior: Searchable.PresentationToolbarBehavior = .automatic
    public var prefersMinimizedToolbar = false

    /// Called when the user submits (from the field or a completion).
    public var onSubmit: (() -> Void)?
    /// The submitted texts, most recent first, without repeats, at most ``recentSearchLimit``.
    public private(set) var recentSearches: [String] = []
    public var recentSearchLimit = 10

    public init(prompt: String = "Search") {
        self.prompt = prompt
    }

    private func activate(focus: Bool) {
        isSearching = true
        if focus, !isFocused { isFocused = true }
        refreshSuggestions()
    }

    /// The user submits the field (Return): tokenizes on submit where that rule is on, records
    /// the text as a recent search, fires ``onSubmit`` and ends search.
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
        isSearching = false
        isFocused = false
    }

    /// The Cancel button: the same as ``dismissSearch()``.
    public func cancel() { dismissSearch() }

    /// Ends search: not searching, text cleared, focus removed, scopes hidden. Does nothing when
    /// not searching.
    public func dismissSearch() {
        guard isSearching else { return }
        isSearching = false
        isFocused = false
        hasEnteredText = false
        text = ""
    }
}

extension String {
    var trimmingSpaces: String {
        var slice = self[...]
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
