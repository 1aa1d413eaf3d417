/// One entry of a search field's suggestion list: what it shows and what choosing it does.
public struct SearchSuggestion<Token: Identifiable & Hashable>: Hashable, Identifiable {
    /// What choosing the entry does.
    public enum Completion: Hashable {
        /// Replaces the text being edited (tokens stay).
        case text(String)
        /// Turns the text being edited into this token.
        case token(Token)
    }

    public var id: String { label + "\u{0}" + String(describing: completion) }
    /// What the entry shows.
    public var label: String
    /// What choosing it does; nil for an entry that is shown but inert.
    public var completion: Completion?

    public init(_ label: String, completion: Completion? = nil) {
        self.label = label
        self.completion = completion
    }
}

extension SearchSuggestion: Sendable where Token: Sendable {}
extension SearchSuggestion.Completion: Sendable where Token: Sendable {}

/// When the scope bar shows (SwiftUI's `SearchScopeActivation`).
public enum SearchScopeActivation: Hashable, Sendable {
    /// As the platform does: iOS on text entry, macOS on presentation.
    case automatic
    /// When the user starts typing.
    case onTextEntry
    /// As soon as search is presented.
    case onSearchPresentation
}

/// The platform whose conventions `automatic` settings follow; the host picks it.
public enum SearchPlatformProfile: Hashable, Sendable {
    case iOS
    case macOS
}

/// Where suggestions show (SwiftUI's `SearchSuggestionsPlacement`).
public enum SearchSuggestionsPlacement: Hashable, Sendable {
    /// Both the menu and the content, as the platform does.
    case automatic
    /// A menu under the field.
    case menu
    /// Inline, in the searchable's content.
    case content
}

/// Whether something shows: as the platform decides, always, or never.
public enum SearchVisibility: Hashable, Sendable {
    case automatic
    case visible
    case hidden
}

/// How a toolbar holding the field behaves (SwiftUI's `SearchToolbarBehavior`), carried for the
/// host to honour.
public enum SearchToolbarBehavior: Hashable, Sendable {
    case automatic
    /// Keep content visible rather than minimizing the toolbar into the field.
    case avoidHidingContent
}
