import TrawlCatalog
import TrawlFind
/// Whether something shows: as the platform decides, always, or never (SwiftUI's `Visibility`,
/// as `searchSuggestions(_:for:)` takes it).
public enum SearchVisibility: Hashable, Sendable {
    /// As the platform decides.
    case automatic
    /// Always shown.
    case visible
    /// Never shown.
    case hidden
}
