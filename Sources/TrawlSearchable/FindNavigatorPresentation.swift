import TrawlCatalog
import TrawlFind
import Observation

/// SwiftUI's `findNavigator(isPresented:)` applied to a node of a ``ScopeTree``: where the
/// modifier sits, and its `isPresented` binding as a property a SwiftUI `Binding` wraps.
///
/// ```swift
/// // SwiftUI: VStack { TextEditor(text: $a).findDisabled(); TextEditor(text: $b) }
/// //              .findNavigator(isPresented: $isPresented)
/// let stack = tree.addContainer(to: tree.root)
/// let a = tree.addEditor(FindNavigator(document: documentA), to: stack)
/// tree.addEditor(FindNavigator(document: documentB), to: stack)
/// tree.setFindDisabled(true, on: a)
/// let find = tree.findNavigator(on: stack)
/// find.isPresented = true // shows b's navigator: a's is disabled
/// // In a SwiftUI host: @Bindable var find; .findNavigator(isPresented: $find.isPresented)
/// ```
///
/// Rules (see ``ScopeTree`` for where disables apply):
/// - Reading tells whether a find navigator is shown for any editor of the node's subtree,
///   however it was shown (this binding, another one, the editor's own find shortcut) and however
///   it was hidden; so the binding never goes stale.
/// - Setting true shows the navigator of one editor of the subtree, chosen by
///   ``ScopeTree/target(of:)``; nothing happens when one is shown already, when the subtree holds
///   no editor (a ``FindNavigatorDiagnostic/noEditor(_:)`` names the node), or when every editor's
///   find is disabled between it and this node. The binding then stays false.
/// - Setting false hides every navigator shown in the subtree.
/// - Editors added while shown change nothing; removing the editor whose navigator is shown hides
///   it (the binding reads false, and no other editor's navigator appears in its place, as when
///   SwiftUI's editor leaves the hierarchy with its find interface).
@MainActor @Observable
public final class FindNavigatorPresentation {
    /// The node the modifier is applied to.
    public let node: ScopeTree.Node
    @ObservationIgnored private weak var tree: ScopeTree?

    init(node: ScopeTree.Node, tree: ScopeTree) {
        self.node = node
        self.tree = tree
    }

    /// Whether a find navigator is shown for an editor of the node's subtree: the `isPresented`
    /// binding. Setting it shows or hides one (see the rules above).
    public var isPresented: Bool {
        get { tree?.isFindNavigatorShown(under: node) ?? false }
        set { tree?.setFindNavigatorPresented(newValue, from: node) }
    }
}
