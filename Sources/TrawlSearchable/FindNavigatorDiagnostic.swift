import TrawlCatalog
import TrawlFind
/// A `findNavigator(isPresented:)` setup that can never show anything, named with its node:
/// SwiftUI documents the modifier for "a view hierarchy that contains at least one text editor".
public enum FindNavigatorDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The node's subtree holds no editor: presenting from it shows nothing.
    case noEditor(ScopeTree.Node)

    /// A sentence for a log or a test failure.
    public var description: String {
        switch self {
        case .noEditor(let node): "node \(node.id): findNavigator(isPresented:) has no text editor in its subtree, so presenting shows nothing"
        }
    }
}
