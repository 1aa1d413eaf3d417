import TrawlCatalog
import TrawlFind
/// What a container is, for resolving where a search field goes and how far its environment
/// reaches.
public enum ContainerKind: Hashable, Sendable {
    /// A stack, a list, a group: no navigation of its own.
    case plain
    /// A `NavigationStack`: has a navigation bar (drawer, toolbar).
    case navigationStack
    /// A `NavigationSplitView`: has a sidebar column and a toolbar.
    case navigationSplitView
    /// A sheet (or any other presentation): a new hierarchy that does not see the environment of
    /// the view that presented it.
    case sheet
}

/// A search model a ``ScopeTree`` node can make searchable (`SearchField` in TrawlCatalog).
@MainActor
public protocol SearchPresenting: AnyObject {
    /// Whether search is active.
    var isSearching: Bool { get }
    /// Ends search, as SwiftUI's `dismissSearch` action does.
    func dismissSearch()
}

/// Something SwiftUI would do silently wrong, named with its node.
public enum SearchDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A searchable node with no navigation container above it (in its hierarchy): SwiftUI shows
    /// no search field at all.
    case fieldWillNotAppear(ScopeTree.Node)
    /// Search scopes on a node that is not searchable itself: SwiftUI ignores them.
    case scopesWithoutSearchable(ScopeTree.Node)
    /// A placement no container above the node can satisfy: it falls back to automatic.
    case placementFellBack(ScopeTree.Node, requested: Searchable.FieldPlacement)

    /// A sentence for a log or a test failure.
    public var description: String {
        switch self {
        case .fieldWillNotAppear(let node):
            "node \(node.id): searchable has no NavigationStack or NavigationSplitView above it, so the search field will not appear"
        case .scopesWithoutSearchable(let node):
            "node \(node.id): searchScopes is not on a searchable node, so the scopes will not appear"
        case .placementFellBack(let node, let requested):
            "node \(node.id): placement \(requested) needs a container that is not above this node; using automatic"
        }
    }
}

/// `searchable` on the tree: a node's search field, its placement, and the `isSearching` and
/// `dismissSearch` environment values, which only the node's subtree sees (within its hierarchy:
/// a sheet below does not), exactly as SwiftUI documents; a parent or a sibling reads false and
/// gets a dismiss action that does nothing.
extension ScopeTree {
    /// Makes `node` searchable with `field`, asking for the field at `placement`.
    public func setSearchable(_ field: any SearchPresenting, placement: Searchable.FieldPlacement = .automatic, on node: Node) {
        setSearchable(Optional(field), placement: placement, on: node)
    }

    /// Removes the searchable of `node`.
    public func removeSearchable(from node: Node) { setSearchable(nil, placement: .automatic, on: node) }

    /// Marks `node` as carrying `searchScopes` (they take effect only where the node is searchable).
    public func setSearchScopes(_ present: Bool, on node: Node) { setHasSearchScopes(present, on: node) }

    /// The `isSearching` environment value read at `node`: the nearest searchable at or above it
    /// in its hierarchy, else false.
    public func isSearching(at node: Node) -> Bool { nearestSearchable(from: node)?.isSearching ?? false }

    /// Runs the `dismissSearch` environment action read at `node`: dismisses the nearest
    /// searchable at or above it in its hierarchy; does nothing when there is none.
    public func dismissSearch(at node: Node) { nearestSearchable(from: node)?.dismissSearch() }

    /// Where the field of searchable `node` goes: the requested placement when a container above
    /// can hold it (a drawer needs a navigation stack or split view; a sidebar a split view; a
    /// toolbar either), else automatic.
    public func resolvedSearchPlacement(of node: Node) -> Searchable.FieldPlacement {
        let requested = searchPlacement(on: node)
        let kinds = Set(pathToHierarchyRoot(from: node).compactMap { kind(of: $0) })
        let hasNavigation = kinds.contains(.navigationStack) || kinds.contains(.navigationSplitView)
        switch requested {
        case .automatic: return .automatic
        case .navigationBarDrawer, .toolbar, .toolbarPrincipal: return hasNavigation ? requested : .automatic
        case .sidebar: return kinds.contains(.navigationSplitView) ? requested : .automatic
        }
    }

    /// The mistakes in the tree's search setup that SwiftUI would not report, in tree order.
    public var searchDiagnostics: [SearchDiagnostic] {
        var diagnostics: [SearchDiagnostic] = []
        for node in allNodes() {
            if searchable(on: node) != nil {
                let path = pathToHierarchyRoot(from: node)
                if !path.contains(where: { kind(of: $0) == .navigationStack || kind(of: $0) == .navigationSplitView }) {
                    diagnostics.append(.fieldWillNotAppear(node))
                } else if resolvedSearchPlacement(of: node) != searchPlacement(on: node) {
                    diagnostics.append(.placementFellBack(node, requested: searchPlacement(on: node)))
                }
            } else if hasSearchScopes(on: node) {
                diagnostics.append(.scopesWithoutSearchable(node))
            }
        }
        return diagnostics
    }

    private func nearestSearchable(from node: Node) -> (any SearchPresenting)? {
        for here in pathToHierarchyRoot(from: node) {
            if let field = searchable(on: here) { return field }
        }
        return nil
    }
}
