import TrawlCatalog
import TrawlFind
extension Searchable {
    /// Where a searchable's field is requested; ``ScopeTree/resolvedSearchPlacement(of:)`` says
    /// where it goes.
    ///
    /// Maps to SwiftUI's `SearchFieldPlacement`: `.automatic` ↔ `.automatic`,
    /// `.navigationBarDrawer(displayMode:)` ↔ `.navigationBarDrawer(displayMode:)`, `.sidebar` ↔
    /// `.sidebar`, `.toolbar` ↔ `.toolbar`, `.toolbarPrincipal` ↔ `.toolbarPrincipal`.
    ///
    /// ```swift
    /// // SwiftUI: NavigationStack { List { … }.searchable(text: $text, placement: .navigationBarDrawer(displayMode: .always)) }
    /// let stack = tree.addContainer(to: tree.root, kind: .navigationStack)
    /// let list = tree.addContainer(to: stack)
    /// tree.setSearchable(field, placement: .navigationBarDrawer(displayMode: .always), on: list)
    /// ```
    public enum FieldPlacement: Hashable, Sendable {
        /// When the drawer of a navigation bar shows the field.
        ///
        /// Maps to SwiftUI's `SearchFieldPlacement.NavigationBarDrawerDisplayMode`.
        public enum NavigationBarDrawerDisplayMode: Hashable, Sendable {
            /// As the platform does: shown when the content is scrolled to the top.
            case automatic
            /// Always shown.
            case always
        }

        /// As the platform and the containers decide.
        case automatic
        /// In the drawer of a navigation bar (needs a navigation stack or split view above).
        case navigationBarDrawer(displayMode: NavigationBarDrawerDisplayMode)
        /// In the sidebar column (needs a navigation split view above).
        case sidebar
        /// In the toolbar (needs a navigation stack or split view above).
        case toolbar
        /// In the principal (center) slot of the toolbar (needs a navigation container above).
        case toolbarPrincipal
    }
}
