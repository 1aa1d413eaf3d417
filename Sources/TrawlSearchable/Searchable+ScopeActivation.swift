import TrawlCatalog
import TrawlFind

extension Searchable {
    /// When a search field's scope bar shows.
    ///
    /// Maps to SwiftUI's `SearchScopeActivation`: `.automatic` ↔ `.automatic`, `.onTextEntry` ↔
    /// `.onTextEntry`, `.onSearchPresentation` ↔ `.onSearchPresentation`.
    ///
    /// ```swift
    /// // SwiftUI: .searchScopes($scope, activation: .onTextEntry) { … }
    /// field.scopes = ["All", "Docs"]
    /// field.scopeActivation = .onTextEntry
    /// ```
    public enum ScopeActivation: Hashable, Sendable {
        /// As the platform does: iOS on text entry, macOS on presentation.
        case automatic
        /// While the presented field holds a query (text or tokens).
        case onTextEntry
        /// As soon as search is presented.
        case onSearchPresentation
    }
}
