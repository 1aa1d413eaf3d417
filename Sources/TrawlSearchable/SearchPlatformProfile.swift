import TrawlCatalog
import TrawlFind
/// The platform whose conventions `automatic` settings follow; the host picks it (SwiftUI reads
/// it from the device).
public enum SearchPlatformProfile: Hashable, Sendable {
    /// iPhone and iPad conventions.
    case iOS
    /// Mac conventions.
    case macOS
}
