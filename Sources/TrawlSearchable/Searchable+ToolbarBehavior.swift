import TrawlCatalog
import TrawlFind

extension Searchable {
    /// Whether a search field in the toolbar may be minimized into a button.
    ///
    /// Maps to SwiftUI's `SearchToolbarBehavior`: `.automatic` ↔ `.automatic`, `.minimize` ↔
    /// `.minimize`.
    ///
    /// ```swift
    /// // SwiftUI: .searchToolbarBehavior(.minimize)
    /// field.toolbarBehavior = .minimize
    /// field.isMinimized // true until search is presented
    /// ```
    public enum ToolbarBehavior: Hashable, Sendable {
        /// As the platform decides (Trawl: not minimized).
        case automatic
        /// Minimized into a button while search is not presented.
        case minimize
    }
}
