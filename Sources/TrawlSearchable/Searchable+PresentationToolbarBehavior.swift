import TrawlCatalog
import TrawlFind

extension Searchable {
    /// Whether presenting search may hide the toolbar's other content (the navigation title).
    ///
    /// Maps to SwiftUI's `SearchPresentationToolbarBehavior`: `.automatic` ↔ `.automatic`,
    /// `.avoidHidingContent` ↔ `.avoidHidingContent`.
    ///
    /// ```swift
    /// // SwiftUI: .searchPresentationToolbarBehavior(.avoidHidingContent)
    /// field.presentationToolbarBehavior = .avoidHidingContent
    /// ```
    public enum PresentationToolbarBehavior: Hashable, Sendable {
        /// As the platform does.
        case automatic
        /// Keep the toolbar's content (the navigation title) visible while search is presented.
        case avoidHidingContent
    }
}
