import TrawlCatalog
import TrawlFind

extension Searchable {
    /// Where a search field's suggestions show.
    ///
    /// Maps to SwiftUI's `SearchSuggestionsPlacement`: `.automatic` ↔ `.automatic`, `.menu` ↔
    /// `.menu`, `.content` ↔ `.content`.
    ///
    /// ```swift
    /// // SwiftUI: .searchSuggestions(.hidden, for: .menu)
    /// field.suggestionsVisibility[.menu] = .hidden
    /// field.showsSuggestions(in: .content) // true while searching with suggestions
    /// ```
    public enum SuggestionsPlacement: Hashable, Sendable {
        /// Both the menu and the content, as the platform does.
        case automatic
        /// A menu under the field.
        case menu
        /// Inline, in the searchable's content.
        case content
    }
}
